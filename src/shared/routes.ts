import { type Locale, localizeUrl } from './locale';

/**
 * Every path this service answers (§2 routes and the service's own), in one table. Controllers,
 * rate limits, metrics labels, the embedded IdP's client registration and the browser client all
 * read it, so a path is spelled once. Browser-safe: views/ and client/ import it.
 */
export const ROUTES = {
  /** The service's root: a person who types the bare address (issue 33 item 4). */
  home: '/',
  /** §2 Sign-in entry; takes the §3 query. */
  signin: '/signin',
  /** §2 Landing for a token redirect (the OIDC redirect URI of this service's client). */
  loginLanding: '/handleloginredirect',
  /** §2 Landing for a brand code redirect (the redirect URI of the brands' own clients). */
  brandTokenLanding: '/handlebrandtokenredirect',
  /** §2 Landing after sign-out (the post-logout redirect URI). */
  logoutLanding: '/handlelogoutredirect',
  /** Issue 32 item 1: the page that names the account a cross-site `t` would sign in, and asks. */
  tokenSignin: '/signin/continue',
  /** §2 Sign-out when the brand is known. */
  logout: '/logout/collectorsid',
  /** §2 Unauthorized landing; takes error=Unauthorized|GoldinInvalidOktaSession. */
  unauthorized: '/unauthredirect',
  /** §2 Default landing after sign-in. */
  collection: '/collection',
  /** Session management (the collector's active sessions). */
  sessions: '/account/sessions',
  /** The server-to-server exchange of a one-time handoff code. */
  handoffToken: '/api/handoff/token',
  /** §7 The application API. */
  api: '/api/collectors-web/trpc',
  /** OIDC Back-Channel Logout 1.0: where the IdP sends logout tokens. */
  backchannelLogout: '/backchannel-logout',
  /** The service's public keys (the back-channel logout tokens it signs). */
  jwks: '/.well-known/jwks.json',
  /**
   * docs/brand-contract.md: the brand contract's discovery document (docs/openapi.yaml,
   * CHANGELOG.md).
   */
  signonDiscovery: '/.well-known/collectors-signon',
  /** The embedded IdP's issuer path (Okta's default authorization server). */
  idp: '/oauth2/default',
  /** The embedded IdP's sign-in steps (§4), one page per interaction. */
  idpSteps: '/idp/signin',
  /** The embedded IdP's outbox of messages it would have sent (local and dev). */
  idpOutbox: '/idp/outbox',
  /** A stand-in brand site for local and dev. */
  demoBrand: '/demo/brand',
  healthz: '/healthz',
  readyz: '/readyz',
  metrics: '/metrics',
  /** Static files: brand logos and favicons, stylesheets. */
  static: '/static/',
  /** The content-hashed browser bundle. */
  assets: '/static/app/',
  /** §9 translation namespaces the client loads. */
  locales: '/static/locales/',
} as const;

export type RouteName = keyof typeof ROUTES;

/**
 * §2 "Locale path rule": the pages of this service that also answer under a locale prefix, e.g.
 * `/fr-CA/collection` (src/locale/locale-path.middleware.ts). They are the pages a collector lands on
 * and links to; the OIDC landings keep their exact registered addresses and carry `lang` instead.
 */
export const LOCALIZED_PAGES = ['collection', 'sessions', 'unauthorized'] as const;
export type LocalizedPage = (typeof LOCALIZED_PAGES)[number];

declare const ownPath: unique symbol;

/**
 * An address of this service built from ROUTES: a path with a query (servicePath), or the §2 shell
 * redirect on the service's own base (shell-guard.ts's shellSigninUrl). Never a caller's URL.
 */
export type ServicePath = string & { readonly [ownPath]: true };

/**
 * A path of this service with an optional query, e.g. servicePath('signin', { b: 'psa' }) gives
 * `/signin?b=psa`. Empty values are left out.
 */
export function servicePath(
  route: RouteName,
  query?: URLSearchParams | Readonly<Record<string, string | undefined>>,
): ServicePath {
  const params =
    query instanceof URLSearchParams
      ? query
      : new URLSearchParams(
          Object.entries(query ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
        );
  const search = params.toString();
  return `${ROUTES[route]}${search ? `?${search}` : ''}` as ServicePath;
}

/**
 * A localized page of this service in the collector's language by the §2 rule: `/fr-CA/collection`,
 * and no prefix for en-US (the default gets none unless forced).
 */
export function localizedPath(
  route: LocalizedPage,
  locale: Locale,
  query?: Readonly<Record<string, string | undefined>>,
): ServicePath {
  return localizeUrl(servicePath(route, query), locale, { style: 'path' }) as ServicePath;
}

/**
 * A request's own path and query as a Location back on this service (e.g. the same page without
 * `t`). Leading slashes and backslashes collapse into one `/`: a request for `//evil.com//x` must
 * not come back as the protocol-relative `//x`, which a browser would follow to another host.
 */
export function samePath(pathname: string, search: string): ServicePath {
  return `/${pathname.replace(/^[/\\]+/, '')}${search}` as ServicePath;
}

const PLACEHOLDER_ORIGIN = 'http://placeholder.invalid';

/**
 * A request's raw target (Express's `originalUrl`) as a Location or link back on this service, e.g.
 * a 'try again' link (issue 15 item 6). It is parsed as a browser would resolve it (dot segments,
 * `%2e`, backslashes), then its leading slashes collapse (samePath): `/%2e//evil.com/x` must not come
 * back as `//evil.com/x`. The fragment, which never reaches a server, is dropped.
 */
export function sameOriginPath(requestTarget: string): ServicePath {
  let url: URL;
  try {
    url = new URL(`${PLACEHOLDER_ORIGIN}/${requestTarget.replace(/^[/\\]+/, '')}`);
  } catch {
    return '/' as ServicePath;
  }
  return samePath(url.pathname, url.search);
}
