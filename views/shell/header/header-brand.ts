import type { Brand, Favicon, Logo } from '../../../src/shared/brand';

/**
 * The brand mark of every page a collector sees (§2: the full header's "logo linking to the brand
 * home", the simple header's "brand logo (collectors/grading or coin grading)", the footer's logo and
 * the favicon). The grading brands (PSA and its Japan and mobile variants) show the PSA logo, the coin
 * grading brands (pcgs*) the PCGS logo, and every other brand, the collectors family's default, the
 * Collectors logo. Issue 33: one table for all of them, so the header and the footer of a page never
 * show two brands (the full header showed PSA for every brand while the footer showed the session's).
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

/** The logo of the full header and of the footer: the same brand mark as the simple header's. */
export const brandLogo = simpleHeaderLogo;

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
