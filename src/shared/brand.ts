/**
 * The brands this service signs collectors in for (§3 "Brand enumeration").
 * The list is data: every rule that depends on a brand looks it up in a table keyed by it.
 */
export const BRANDS = [
  'collectors',
  'grading',
  'goldin',
  'goldinmobile',
  'psa',
  'psajapan',
  'psamobile',
  'pcgs',
  'pcgschina',
  'pcgsasia',
  'pcgseurope',
  'lbe',
  'cc',
  'ccmobile',
  'collectorsmobile',
  'certifi',
  'enterprise',
  'powerpacks',
] as const;

export type Brand = (typeof BRANDS)[number];

/** §3: the brand used when `b` is absent. */
export const DEFAULT_BRAND: Brand = 'collectors';

/** §3: redirect brands are every brand except these three, which are handled by their own after-login steps. */
const NON_REDIRECT_BRANDS: ReadonlySet<Brand> = new Set<Brand>([
  'collectors',
  'goldin',
  'goldinmobile',
]);

export const REDIRECT_BRANDS: readonly Brand[] = BRANDS.filter((b) => !NON_REDIRECT_BRANDS.has(b));

const BRAND_SET: ReadonlySet<string> = new Set(BRANDS);

export function isBrand(value: string): value is Brand {
  return BRAND_SET.has(value);
}

export function isRedirectBrand(brand: Brand): boolean {
  return !NON_REDIRECT_BRANDS.has(brand);
}

/** §3 source-site labels, used when recording where a collector came from. */
export const SOURCE_SITES = [
  'CARDLADDER',
  'COLLECTORS',
  'COLLECTORS_CORNER',
  'GOLDIN',
  'LONG_BEACH_EXPO',
  'PCGS',
  'PSA',
  'OTHER',
  'WATA',
] as const;
export type SourceSite = (typeof SOURCE_SITES)[number];

/** §1: "the brand acts as the client type". */
export const CLIENT_TYPES = ['desktop', 'mobile-app', 'auction', 'dealer-portal'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

/** §2 favicons by brand. */
export const FAVICONS = ['collectors', 'psa', 'pcgs', 'default'] as const;
export type Favicon = (typeof FAVICONS)[number];

/**
 * §9 brand logos, each in a color and a black variant, plus a white one for the dark theme (issue 33):
 * on its near-black background the black artwork and the navy, blue and green of the colour artwork
 * fall under the 3:1 a graphic needs (WCAG 1.4.11).
 */
export const LOGOS = ['collectors', 'pcgs', 'psa', 'psavault', 'wata'] as const;
export type Logo = (typeof LOGOS)[number];
export const LOGO_VARIANTS = ['color', 'black', 'white'] as const;
export type LogoVariant = (typeof LOGO_VARIANTS)[number];

/** Where static logo and favicon files are served from (content under /static/brand). */
export function logoPath(logo: Logo, variant: LogoVariant): string {
  return `/static/brand/logo-${logo}-${variant}.svg`;
}

/**
 * Each logo's artwork size, its SVG's viewBox (every variant; brand.spec reads the files). The pages
 * load logos lazily, after the first paint (issue 18 item 5), so every <img> carries its box: the
 * browser reserves the space before the file arrives and nothing moves when it does.
 */
export const LOGO_ARTWORK: Readonly<
  Record<Logo, { readonly width: number; readonly height: number }>
> = {
  collectors: { width: 226, height: 48 },
  pcgs: { width: 91, height: 48 },
  psa: { width: 69, height: 48 },
  psavault: { width: 163, height: 48 },
  wata: { width: 93, height: 48 },
};

/** The `width` and `height` attributes of `logo` shown `height` CSS pixels high. */
export function logoBox(logo: Logo, height: number): { width: number; height: number } {
  const artwork = LOGO_ARTWORK[logo];
  return { width: Math.round((artwork.width * height) / artwork.height), height };
}

export function faviconPath(favicon: Favicon): string {
  return `/static/brand/favicon-${favicon}.svg`;
}
