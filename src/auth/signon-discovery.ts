import type { AppConfig } from '../config/app-config';
import type { BrandConfig } from '../config/brand-directory';
import { BRANDS, type Brand, type ClientType, isRedirectBrand } from '../shared/brand';
import type { HandoffMode } from '../shared/brand-definitions';
import { ROUTES, type RouteName } from '../shared/routes';
import { BRANDS_WITHOUT_SESSION } from './after-login';

/**
 * The brand contract's version (semver, CHANGELOG.md "Versioning"): what a brand site may rely on in
 * what it receives from this service. signon-discovery.spec.ts holds it equal to the newest heading
 * of CHANGELOG.md and to `info.version` of docs/openapi.yaml, so the three never disagree.
 */
export const BRAND_CONTRACT_VERSION = '1.3.0';

/**
 * A change announced under CHANGELOG.md's deprecation policy: listed here (and so in the discovery
 * document) from the day it is announced until the major version that removes it ships.
 */
export interface Deprecation {
  /** What goes away: a field, a parameter, a route, a delivery mode. */
  readonly feature: string;
  /** The day it was announced (ISO 8601 date), at least 90 days before `removal_date`. */
  readonly announced: string;
  /** The earliest day it may go. */
  readonly removal_date: string;
  /** The contract version that removes it: always a new major version. */
  readonly removal_version: string;
  /** What to use instead. */
  readonly replacement: string;
}

/**
 * Announced under 1.1.0 (CHANGELOG.md "Unreleased"): health and readiness move to the management
 * port, where the platform's probes read them (docs/operating.md "The management port").
 */
export const DEPRECATIONS: readonly Deprecation[] = [
  {
    feature: 'GET /healthz and GET /readyz on the public address',
    announced: '2026-11-29',
    removal_date: '2027-03-01',
    removal_version: '2.0.0',
    replacement:
      'GET /.well-known/collectors-signon to check that the service answers; the probes of a ' +
      'deployment read /healthz and /readyz on its management port (MANAGEMENT_PORT)',
  },
];

/**
 * How a brand receives the collector's session after sign-in (§4 After login steps 4-9):
 * `tokens-in-url`: si, t and rt on its tokenURL; `handoff-code`: a one-time code (and si, except the
 * apps of §4 step 5) that its back end redeems at the handoff token endpoint; `none`: nothing is
 * handed over (collectors lands on this service, goldin and goldinmobile on their `state` URL).
 */
export type BrandDelivery = HandoffMode | 'none';

/** One brand of the discovery document. */
export interface BrandContractEntry {
  /** §1 "the brand acts as the client type" (src/shared/brand.ts CLIENT_TYPES). */
  readonly client_type: ClientType;
  readonly delivery: BrandDelivery;
  /**
   * Whether its redirect after /signin carries `si` (so its logout tokens carry `sid`); §4 step 5
   * leaves two apps without. The brand code redirect never does: it makes a grant, not a session.
   */
  readonly receives_session_id: boolean;
  /**
   * Its client at the IdP (BRAND_CLIENTS): the client its `t` and `rt` are issued to, the `aud` of its
   * logout tokens and its id at the handoff token endpoint. A client id is no secret; its secret never
   * appears here.
   */
  readonly client_id?: string;
  /** Whether this service sends it logout tokens (an endpoint in BACKCHANNEL_LOGOUT_URIS and a client). */
  readonly backchannel_logout: boolean;
}

/**
 * `GET /.well-known/collectors-signon` (docs/brand-contract.md): the machine-readable half of the
 * brand contract, after the OAuth 2.0 Authorization Server Metadata of RFC 8414 (snake_case names,
 * absolute URLs, `issuer`, `jwks_uri`, `token_endpoint_auth_methods_supported`) and the OP metadata
 * of OIDC Back-Channel Logout 1.0 §2.1. Its schema is `SignonDiscovery` in docs/openapi.yaml.
 */
export interface SignonDiscovery {
  readonly contract_version: string;
  /** This service (PUBLIC_URL): the `iss` of the logout tokens it sends brands. */
  readonly issuer: string;
  /** The IdP (IDP_ISSUER): the `iss` of `t`; a brand refreshes `rt` at its token endpoint. */
  readonly idp_issuer: string;
  /** This service's keys (the logout tokens'); `t` is verified against the IdP's, not these. */
  readonly jwks_uri: string;
  readonly handoff_token_endpoint: string;
  /** The handoff token endpoint's client authentication (RFC 6749 §2.3.1). */
  readonly token_endpoint_auth_methods_supported: readonly string[];
  readonly signin_endpoint: string;
  readonly signout_endpoint: string;
  readonly brand_token_redirect_endpoint: string;
  /** The `aud` of every `t` (IDP_AUDIENCE). */
  readonly access_token_audience: string;
  readonly backchannel_logout_supported: true;
  /** Logout tokens carry `sid` (the `si` the brand received) where the brand received one. */
  readonly backchannel_logout_session_supported: true;
  readonly deprecations: readonly Deprecation[];
  readonly brands: Readonly<Record<Brand, BrandContractEntry>>;
}

/** The handoff token endpoint's client authentication methods (src/auth/handoff-token-request.ts). */
export const HANDOFF_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;

export type DiscoveryInput = Pick<AppConfig, 'idp' | 'brands' | 'brandClients' | 'backchannel'> & {
  readonly http: Pick<AppConfig['http'], 'publicUrl'>;
};

/**
 * A brand's delivery, as decideAfterLogin (src/auth/after-login.ts) hands the session over; the
 * spec holds the two to each other brand by brand.
 */
export function brandDelivery(
  brand: Pick<BrandConfig, 'brand' | 'clientType' | 'handoff'>,
): BrandDelivery {
  // §3: collectors, goldin and goldinmobile are not redirect brands (§4 steps 4 and 9).
  if (!isRedirectBrand(brand.brand)) return 'none';
  // §4 step 7: an app never gets tokens in a URL.
  return brand.clientType === 'mobile-app' ? 'handoff-code' : brand.handoff;
}

/** The discovery document of one configuration. Pure: the controller builds it once, at start. */
export function signonDiscovery(config: DiscoveryInput): SignonDiscovery {
  const url = (route: RouteName) => `${config.http.publicUrl}${ROUTES[route]}`;
  const brands = Object.fromEntries(
    BRANDS.map((brand): [Brand, BrandContractEntry] => {
      const delivery = brandDelivery(config.brands[brand]);
      const clientId = config.brandClients[brand]?.clientId;
      return [
        brand,
        {
          client_type: config.brands[brand].clientType,
          delivery,
          receives_session_id: delivery !== 'none' && !BRANDS_WITHOUT_SESSION.has(brand),
          ...(clientId !== undefined ? { client_id: clientId } : {}),
          // As BackchannelNotifier sends them: an endpoint, and a client id for the token's `aud`.
          backchannel_logout:
            config.backchannel.uris[brand] !== undefined && clientId !== undefined,
        },
      ];
    }),
  ) as Record<Brand, BrandContractEntry>;
  return {
    contract_version: BRAND_CONTRACT_VERSION,
    issuer: config.http.publicUrl,
    idp_issuer: config.idp.issuer,
    jwks_uri: url('jwks'),
    handoff_token_endpoint: url('handoffToken'),
    token_endpoint_auth_methods_supported: HANDOFF_AUTH_METHODS,
    signin_endpoint: url('signin'),
    signout_endpoint: url('logout'),
    brand_token_redirect_endpoint: url('brandTokenLanding'),
    access_token_audience: config.idp.audience,
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    deprecations: DEPRECATIONS,
    brands,
  };
}
