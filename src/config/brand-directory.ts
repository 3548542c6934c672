import { BRANDS, Brand, ClientType, Favicon, Logo, SourceSite } from '../shared/brand';
import { BRAND_DEFINITIONS, HandoffMode } from '../shared/brand-definitions';
import { AppEnv, ServiceBases, isDeveloperEnv } from '../shared/environment';

/** Per-brand address overrides, from the BRAND_URLS variable. */
export interface BrandUrlOverride {
  readonly baseURL?: string;
  readonly tokenURL?: string;
  readonly localURL?: string;
  readonly appScheme?: string;
  readonly handoff?: HandoffMode;
}

/** §3 "Brand config", resolved for one environment. */
export interface BrandConfig {
  readonly brand: Brand;
  readonly companyName: string;
  readonly clientType: ClientType;
  readonly sourceSite: SourceSite;
  readonly favicon: Favicon;
  readonly logo: Logo;
  /** Home page of the brand site (the logo links here). */
  readonly baseURL: string;
  /** Where the after-login redirect for this brand goes (§4 step 6). */
  readonly tokenURL: string;
  /** Developer target used instead of tokenURL when `l=true` in local/dev (§5). */
  readonly localURL: string;
  readonly enableLegacyLogin: boolean;
  readonly legacySiteId?: number;
  readonly handoff: HandoffMode;
  /** Custom URL scheme of a mobile app, e.g. `psacard` for `psacard://...`. */
  readonly appScheme?: string;
}

export type BrandDirectory = Readonly<Record<Brand, BrandConfig>>;

export interface BrandDirectoryInput {
  readonly env: AppEnv;
  readonly services: ServiceBases;
  /** This service's public origin, e.g. http://localhost:3333. */
  readonly publicUrl: string;
  readonly overrides: Partial<Record<Brand, BrandUrlOverride>>;
}

export interface ConfigProblem {
  readonly key: string;
  readonly message: string;
}

/** Path of the local demo brand page (issue 4): brand redirects land there in local and dev. */
export function demoBrandPath(brand: Brand): string {
  return `/demo/brand/${brand}`;
}

/** Local developer targets (§4 step 9: the local target for collectors is localhost:3333/collection). */
const DEFAULT_LOCAL_URL = 'http://localhost:3000/';
const COLLECTORS_LOCAL_URL = 'http://localhost:3333/collection';

function trimSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

/**
 * Resolves the brand table for one environment. Pure: returns the directory and every problem found,
 * so that configuration loading can report all bad variables at once.
 */
export function buildBrandDirectory(input: BrandDirectoryInput): {
  directory: BrandDirectory;
  problems: ConfigProblem[];
} {
  const { env, services, overrides } = input;
  const publicUrl = trimSlash(input.publicUrl);
  const developer = isDeveloperEnv(env);
  const problems: ConfigProblem[] = [];
  const entries = BRANDS.map((brand): [Brand, BrandConfig] => {
    const def = BRAND_DEFINITIONS[brand];
    const o = overrides[brand] ?? {};
    const derivedBase = (() => {
      switch (def.home) {
        case 'grading':
          return services.grading;
        case 'gradingJapan':
          return services.gradingJapan;
        case 'powerpacks':
          return services.powerpacks;
        case 'self':
          return publicUrl;
        case 'configured':
          return developer ? `${publicUrl}${demoBrandPath(brand)}` : undefined;
      }
    })();
    const baseURL = trimSlash(o.baseURL ?? derivedBase ?? '');
    // A derived address that is missing is already reported under its service variable.
    if (!baseURL && def.home === 'configured') {
      problems.push({ key: `BRAND_URLS.${brand}.baseURL`, message: `is required in ${env}` });
    }
    // In developer environments brand redirects land on the local demo brand page unless overridden,
    // so the whole journey runs on one machine (issue 4, item 11).
    const appScheme = o.appScheme ?? (developer ? def.devAppScheme : undefined);
    // A mobile app receives its handoff through its URL scheme; web brands on their token path.
    const defaultTokenURL = developer
      ? def.home === 'self' && def.clientType !== 'mobile-app'
        ? `${publicUrl}${def.tokenPath}`
        : `${publicUrl}${demoBrandPath(brand)}`
      : def.clientType === 'mobile-app'
        ? `${appScheme ?? 'missing'}://auth/callback`
        : def.home === 'self'
          ? `${publicUrl}${def.tokenPath}`
          : `${baseURL}${def.tokenPath}`;
    if (def.clientType === 'mobile-app' && !appScheme) {
      problems.push({
        key: `BRAND_URLS.${brand}.appScheme`,
        message: `is required in ${env} for a mobile app`,
      });
    }
    const handoff: HandoffMode =
      def.clientType === 'mobile-app' ? 'handoff-code' : (o.handoff ?? def.handoff);
    const config: BrandConfig = {
      brand,
      companyName: def.companyName,
      clientType: def.clientType,
      sourceSite: def.sourceSite,
      favicon: def.favicon,
      logo: def.logo,
      baseURL,
      tokenURL: o.tokenURL ?? defaultTokenURL,
      localURL: o.localURL ?? (brand === 'collectors' ? COLLECTORS_LOCAL_URL : DEFAULT_LOCAL_URL),
      enableLegacyLogin: def.legacySiteId !== undefined,
      handoff,
      ...(def.legacySiteId !== undefined ? { legacySiteId: def.legacySiteId } : {}),
      ...(appScheme ? { appScheme } : {}),
    };
    // Tokens travel to these addresses (§4 step 6): outside local and dev, only over TLS. A derived
    // token URL shares its base's scheme, so it is reported only when it was set itself.
    if (!developer) {
      for (const field of o.tokenURL
        ? (['baseURL', 'tokenURL'] as const)
        : (['baseURL'] as const)) {
        if (config[field].startsWith('http:'))
          problems.push({
            key: `BRAND_URLS.${brand}.${field}`,
            message: `must use https in ${env}`,
          });
      }
    }
    return [brand, config];
  });
  return { directory: Object.fromEntries(entries) as Record<Brand, BrandConfig>, problems };
}
