import { BRANDS, type Brand } from '../../../src/shared/brand';
import { brandFavicon, simpleHeaderLogo } from './header-brand';

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
