import { renderToString } from 'react-dom/server';
import { LOGOS } from '../../src/shared/brand';
import { shellData, translateFor } from '../../test/fixtures/header.fixtures';
import { BrandLogo } from './BrandLogo';
import { Footer } from './footer/Footer';
import { FullHeader } from './header/FullHeader';
import { brandLogo, simpleHeaderLogo } from './header/header-brand';
import { SimpleHeader } from './header/SimpleHeader';
import { ThemeContext } from './theme-context';

/** The logo files an HTML fragment shows. */
const logoFiles = (html: string) =>
  [...html.matchAll(/src="\/static\/brand\/(logo-[a-z]+-[a-z]+\.svg)"/g)].map((m) => m[1]);

/**
 * Issue 33: in the dark theme every logo is the white artwork, drawn for the near-black background;
 * the colour artwork (navy, blue, green) is for the light theme. The server renders the page's theme.
 */
describe(BrandLogo.name, () => {
  const t = translateFor('en-US');

  it.each([
    ['light', 'color'],
    ['dark', 'white'],
  ] as const)(
    'in the %s theme the headers and the footer show the %s artwork',
    (theme, variant) => {
      const data = shellData({ theme, brand: 'pcgs' });
      expect({
        full: logoFiles(renderToString(<FullHeader data={data} t={t} />)),
        simple: logoFiles(renderToString(<SimpleHeader data={data} t={t} />)),
        footer: logoFiles(renderToString(<Footer data={data} t={t} />)),
      }).toEqual({
        full: [`logo-${brandLogo('pcgs')}-${variant}.svg`],
        simple: [`logo-${simpleHeaderLogo('pcgs')}-${variant}.svg`],
        footer: [`logo-pcgs-${variant}.svg`],
      });
    },
  );

  it('pages without a theme (the IdP’s steps, the message pages) show the colour artwork', () => {
    const { theme: _theme, ...frame } = shellData({ brand: 'psa' });
    expect(logoFiles(renderToString(<SimpleHeader data={frame} t={t} />))).toEqual([
      'logo-psa-color.svg',
    ]);
  });

  it.each(LOGOS)('%s: the dark-mode switch’s current theme wins over the page’s', (logo) => {
    const html = renderToString(
      <ThemeContext.Provider value={{ theme: 'dark', toggle: () => undefined }}>
        <BrandLogo logo={logo} alt={logo} theme="light" />
      </ThemeContext.Provider>,
    );
    expect(logoFiles(html)).toEqual([`logo-${logo}-white.svg`]);
  });
});
