import type { Brand, Favicon, Logo } from '../../../src/shared/brand';

/**
 * §2 simple header: "the brand logo (collectors/grading or coin grading)". The grading brands (PSA and
 * its Japan and mobile variants) show the PSA logo, the coin grading brands (pcgs*) the PCGS logo, and
 * every other brand, the collectors family's default, the Collectors logo.
 */
export const SIMPLE_HEADER_LOGO = {
  collectors: 'collectors',
  grading: 'psa',
  goldin: 'collectors',
  goldinmobile: 'collectors',
  psa: 'psa',
  psajapan: 'psa',
  psamobile: 'psa',
  pcgs: 'pcgs',
  pcgschina: 'pcgs',
  pcgsasia: 'pcgs',
  pcgseurope: 'pcgs',
  lbe: 'collectors',
  cc: 'collectors',
  ccmobile: 'collectors',
  collectorsmobile: 'collectors',
  certifi: 'collectors',
  enterprise: 'collectors',
  powerpacks: 'collectors',
} as const satisfies Record<Brand, Logo>;

export type SimpleHeaderLogo = (typeof SIMPLE_HEADER_LOGO)[Brand];

export function simpleHeaderLogo(brand: Brand): SimpleHeaderLogo {
  return SIMPLE_HEADER_LOGO[brand];
}

/**
 * §2 "Favicons are chosen by brand", issue 14 item 3: the tab shows the same brand as the page's
 * logo, grading (PSA) for psa, psajapan and psamobile, coin grading (PCGS) for the pcgs brands and
 * Collectors for every other brand. So the `default` favicon of the brand table is not used by pages.
 */
const FAVICON_OF_LOGO = {
  collectors: 'collectors',
  psa: 'psa',
  pcgs: 'pcgs',
} as const satisfies Record<SimpleHeaderLogo, Favicon>;

/** The favicon of every page a collector of `brand` sees (journey pages and shell pages). */
export function brandFavicon(brand: Brand): Favicon {
  return FAVICON_OF_LOGO[simpleHeaderLogo(brand)];
}

/** The full header is the grading brand's site header (§1), whatever brand the collector came from. */
export const FULL_HEADER_LOGO: Logo = 'psa';
