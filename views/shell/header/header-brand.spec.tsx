import { renderToString } from 'react-dom/server';
import { BRANDS, type Brand } from '../../../src/shared/brand';
import { createTranslate } from '../../../src/shared/translate';
import { loadHeaderMessages, shellData } from '../../../test/fixtures/header.fixtures';
import { Footer } from '../footer/Footer';
import { FOOTER_VARIANTS } from '../footer/footer-links';
import { FullHeader } from './FullHeader';
import { brandFavicon, simpleHeaderLogo } from './header-brand';
import { homeHref } from './header-nav';

/**
 * Issue 14 item 3: the logo and favicon of every page a collector sees, by the brand they came from:
 * grading (PSA) for psa, psajapan and psamobile, coin grading (PCGS) for the pcgs brands, Collectors
 * otherwise.
 */
const EXPECTED: Readonly<Record<Brand, 'psa' | 'pcgs' | 'collectors'>> = {
  psa: 'psa',
  psajapan: 'psa',
  psamobile: 'psa',
  // The grading brand's own legacy code (§3).
  grading: 'psa',
  pcgs: 'pcgs',
  pcgschina: 'pcgs',
  pcgsasia: 'pcgs',
  pcgseurope: 'pcgs',
  collectors: 'collectors',
  collectorsmobile: 'collectors',
  goldin: 'collectors',
  goldinmobile: 'collectors',
  lbe: 'collectors',
  cc: 'collectors',
  ccmobile: 'collectors',
  certifi: 'collectors',
  enterprise: 'collectors',
  powerpacks: 'collectors',
};

describe('brand marks', () => {
  it.each(BRANDS)('%s: the logo and the favicon of the same brand', (brand) => {
    expect({ logo: simpleHeaderLogo(brand), favicon: brandFavicon(brand) }).toEqual({
      logo: EXPECTED[brand],
      favicon: EXPECTED[brand],
    });
  });
});

/**
 * Issue 33: after a plain sign-in (no brand: the collectors brand) the full header showed PSA and the
 * footer Collectors. Every page shows one brand: the full header's logo is the footer's, for every
 * brand and footer variant that has a logo, and its link goes to that brand's home.
 */
describe('one brand per page: full header and footer', () => {
  const logoFiles = (html: string) =>
    [...html.matchAll(/src="\/static\/brand\/logo-([a-z]+)-[a-z]+\.svg"/g)].map((m) => m[1]);
  const t = createTranslate({ header: loadHeaderMessages('en-US') });

  it.each(BRANDS)('%s', (brand) => {
    const data = shellData({ brand });
    const header = logoFiles(renderToString(<FullHeader data={data} t={t} />));
    const footers = FOOTER_VARIANTS.flatMap((variant) =>
      logoFiles(renderToString(<Footer data={data} t={t} variant={variant} />)),
    );
    expect(header).toEqual([EXPECTED[brand]]);
    expect(footers.length).toBeGreaterThan(0);
    expect(new Set(footers)).toEqual(new Set(header));
  });

  it.each([
    ['collectors', 'en-US', '/collection'],
    ['collectors', 'fr-CA', '/fr-CA/collection'],
    ['pcgs', 'ja-JP', '/ja-JP/collection'],
    ['psa', 'en-US', 'https://grading.test/'],
    ['psa', 'fr-CA', 'https://grading.test/fr-CA'],
    ['psajapan', 'ja-JP', 'https://grading-japan.test/'],
  ] as const)('%s in %s: the logo links to %s', (brand, locale, href) => {
    expect(homeHref(shellData({ brand, locale }))).toBe(href);
  });
});
