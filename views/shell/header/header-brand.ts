import type { Brand, Logo } from '../../../src/shared/brand';

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

export function simpleHeaderLogo(brand: Brand): Logo {
  return SIMPLE_HEADER_LOGO[brand];
}

/** The full header is the grading brand's site header (§1), whatever brand the collector came from. */
export const FULL_HEADER_LOGO: Logo = 'psa';
