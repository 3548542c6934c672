import type { Brand, ClientType, Favicon, Logo, SourceSite } from './brand';

/**
 * Where a brand's site lives. Four of them are the service base addresses of §1 and follow
 * APP_ENV; `self` is this product's own origin; `configured` brands get their address from
 * BRAND_URLS (with a local demo default only in local and dev).
 */
export type BrandHome = 'grading' | 'gradingJapan' | 'powerpacks' | 'self' | 'configured';

/**
 * How the after-login step hands a session to a redirect brand (§4 steps 6-8).
 * - `tokens-in-url`: si, t and rt are appended to the brand's tokenURL, as §4 describes.
 * - `handoff-code`: only si and a one-time code travel in the URL; the brand exchanges the code
 *   server-to-server (RFC 9700 §4.3.2 forbids access tokens in query strings). Mobile apps always use it.
 */
export type HandoffMode = 'tokens-in-url' | 'handoff-code';

/** The environment-independent facts about a brand (§3 "Brand config"). */
export interface BrandDefinition {
  readonly companyName: string;
  readonly clientType: ClientType;
  readonly sourceSite: SourceSite;
  readonly favicon: Favicon;
  readonly logo: Logo;
  readonly home: BrandHome;
  /** §3: legacy site ids; a brand with one also has legacy (pre-OIDC) login enabled. */
  readonly legacySiteId?: number;
  /** Path on the brand's base URL that receives the after-login redirect. */
  readonly tokenPath: string;
  readonly handoff: HandoffMode;
  /** Local/dev default for the custom URL scheme of a mobile app (§5 "mobile-app schemes"). */
  readonly devAppScheme?: string;
}

const psa = { sourceSite: 'PSA', favicon: 'psa', logo: 'psa' } as const;
const pcgs = { sourceSite: 'PCGS', favicon: 'pcgs', logo: 'pcgs', home: 'configured' } as const;
const collectors = { sourceSite: 'COLLECTORS', favicon: 'collectors', logo: 'collectors' } as const;
const goldin = { sourceSite: 'GOLDIN', favicon: 'default', logo: 'collectors' } as const;

/**
 * One row per brand. Company names follow the public sites; the Collectors Corner reading of `cc`
 * and the dealer-portal reading of `enterprise` are this project's choice (the spec only lists codes).
 */
export const BRAND_DEFINITIONS: Readonly<Record<Brand, BrandDefinition>> = {
  collectors: {
    ...collectors,
    companyName: 'Collectors',
    clientType: 'desktop',
    home: 'self',
    tokenPath: '/collection',
    handoff: 'tokens-in-url',
  },
  collectorsmobile: {
    ...collectors,
    companyName: 'Collectors',
    clientType: 'mobile-app',
    home: 'self',
    tokenPath: '/',
    handoff: 'handoff-code',
    devAppScheme: 'collectors',
  },
  grading: {
    ...psa,
    companyName: 'PSA',
    clientType: 'desktop',
    home: 'grading',
    legacySiteId: 12,
    tokenPath: '/auth/signin-callback',
    handoff: 'tokens-in-url',
  },
  psa: {
    ...psa,
    companyName: 'PSA',
    clientType: 'desktop',
    home: 'grading',
    tokenPath: '/auth/signin-callback',
    handoff: 'tokens-in-url',
  },
  psajapan: {
    ...psa,
    companyName: 'PSA Japan',
    clientType: 'desktop',
    home: 'gradingJapan',
    tokenPath: '/auth/signin-callback',
    handoff: 'tokens-in-url',
  },
  psamobile: {
    ...psa,
    companyName: 'PSA',
    clientType: 'mobile-app',
    home: 'grading',
    tokenPath: '/',
    handoff: 'handoff-code',
    devAppScheme: 'psacard',
  },
  pcgs: {
    ...pcgs,
    companyName: 'PCGS',
    clientType: 'desktop',
    legacySiteId: 8,
    tokenPath: '/auth/signin-callback',
    handoff: 'tokens-in-url',
  },
  pcgsasia: {
    ...pcgs,
    companyName: 'PCGS Asia',
    clientType: 'desktop',
    legacySiteId: 8,
    tokenPath: '/auth/signin-callback',
    handoff: 'tokens-in-url',
  },
  pcgseurope: {
    ...pcgs,
    companyName: 'PCGS Europe',
    clientType: 'desktop',
    legacySiteId: 8,
    tokenPath: '/auth/signin-callback',
    handoff: 'tokens-in-url',
  },
  pcgschina: {
    ...pcgs,
    companyName: 'PCGS China',
    clientType: 'desktop',
    legacySiteId: 16,
    tokenPath: '/auth/signin-callback',
    handoff: 'tokens-in-url',
  },
  goldin: {
    ...goldin,
    companyName: 'Goldin',
    clientType: 'auction',
    home: 'configured',
    tokenPath: '/',
    handoff: 'tokens-in-url',
  },
  goldinmobile: {
    ...goldin,
    companyName: 'Goldin',
    clientType: 'mobile-app',
    home: 'configured',
    tokenPath: '/',
    handoff: 'handoff-code',
    devAppScheme: 'goldin',
  },
  lbe: {
    sourceSite: 'LONG_BEACH_EXPO',
    favicon: 'default',
    logo: 'collectors',
    companyName: 'Long Beach Expo',
    clientType: 'desktop',
    home: 'configured',
    tokenPath: '/auth/signin-callback',
    handoff: 'tokens-in-url',
  },
  cc: {
    sourceSite: 'COLLECTORS_CORNER',
    favicon: 'collectors',
    logo: 'collectors',
    companyName: 'Collectors Corner',
    clientType: 'desktop',
    home: 'configured',
    tokenPath: '/auth/signin-callback',
    handoff: 'tokens-in-url',
  },
  ccmobile: {
    sourceSite: 'COLLECTORS_CORNER',
    favicon: 'collectors',
    logo: 'collectors',
    companyName: 'Collectors Corner',
    clientType: 'mobile-app',
    home: 'configured',
    tokenPath: '/',
    handoff: 'handoff-code',
    devAppScheme: 'collectorscorner',
  },
  certifi: {
    sourceSite: 'OTHER',
    favicon: 'default',
    logo: 'collectors',
    companyName: 'Certifi',
    clientType: 'desktop',
    home: 'configured',
    tokenPath: '/auth/signin-callback',
    handoff: 'tokens-in-url',
  },
  enterprise: {
    sourceSite: 'OTHER',
    favicon: 'collectors',
    logo: 'collectors',
    companyName: 'Collectors Dealer Portal',
    clientType: 'dealer-portal',
    home: 'configured',
    tokenPath: '/auth/signin-callback',
    handoff: 'tokens-in-url',
  },
  powerpacks: {
    sourceSite: 'OTHER',
    favicon: 'default',
    logo: 'collectors',
    companyName: 'Powerpacks',
    clientType: 'desktop',
    home: 'powerpacks',
    tokenPath: '/auth/signin-callback',
    handoff: 'tokens-in-url',
  },
};
