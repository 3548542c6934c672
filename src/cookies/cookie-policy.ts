/**
 * Every cookie this service writes, as one typed table keyed by cookie name (§3 "Cookies", §9,
 * docs/design.md "Style" "Cookies … are data"). Nothing else in the code base picks cookie attributes: writers
 * call `cookieOptionsFor(name, { secure })` and pass the result to `validateCookieWrite`.
 *
 * Positions taken against the cookie guidance in security-anchors.md §2-§3:
 * - SameSite is Lax, not the Strict that draft-ietf-oauth-browser-based-apps §6.1.3.2 suggests
 *   (SHOULD): §4 App start and §9 require Lax, and collectors arrive at /signin by a top-level
 *   navigation from a brand site, on which a Strict cookie would not be sent and they would look
 *   signed out. CSRF is covered by the tRPC custom header and Origin check (docs/design.md "CSRF").
 * - `__Host-` (ASVS 5.0 3.3.1/3.3.3) where the origin is https, for the cookies that say who this
 *   browser is (HOST_PREFIXED_COOKIES: `sessionId` and the two bindings), so no sibling subdomain
 *   can plant or shadow them. Their names stay those of §3 and §9 (`sessionId`); the prefix is added
 *   on the wire only, and only on https, since it demands Secure, which §9 drops on localhost. The
 *   token cookies keep their plain names: they are never written, only cleared under the names the
 *   legacy versions used (§4 Token handling).
 * - Host-only: no cookie has a Domain (the same draft, SHOULD NOT set Domain).
 * - Max-Age is in seconds, as in the Set-Cookie header. Express's `res.cookie` takes `maxAge` in
 *   milliseconds; §9's unexplained "864e4 ms (2.4 hours)" looks like 8,640,000 s passed as ms. Write
 *   the header from `validateCookieWrite` instead of going through `res.cookie`.
 */

/** SameSite values as this service writes them (RFC 6265bis §4.1.2.7). */
export type SameSite = 'lax' | 'strict' | 'none';

/** §9 token cookies: 8,640,000 s (100 days). */
export const TOKEN_COOKIE_MAX_AGE = 8_640_000;
/** §9 session cookie sessionId: 31,536,000 s (one year). */
export const SESSION_ID_MAX_AGE = 31_536_000;
/**
 * §9 theme cookie: 3,155,695,200 s (100 years). Browsers clamp any Max-Age to 400 days
 * (RFC 6265bis §5.6.2); the value is kept as specified. It is the longest lifetime we write, so it
 * is also the upper bound for Max-Age in validation.
 */
export const THEME_MAX_AGE = 3_155_695_200;
/**
 * Not in the spec: our choice for the analytics user id (§2 QTM_UID), one year like sessionId. The
 * analytics session id QTM_SID is a browser-session cookie.
 */
export const ANALYTICS_USER_ID_MAX_AGE = 31_536_000;

/** §4 Other: the theme toggles between these two values. */
/** Matches LOGIN_STATE_TTL_SECONDS: the binding is useless once the pending sign-in expires. */
export const SIGNIN_BINDING_MAX_AGE = 600;

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const COOKIE_NAMES = [
  'accessToken',
  'refreshToken',
  'sessionId',
  'sessionCookie',
  'theme',
  'QTM_SID',
  'QTM_UID',
  'signinBinding',
  'sessionBinding',
] as const;
export type CookieName = (typeof COOKIE_NAMES)[number];

export interface CookiePolicy {
  /** Lifetime in seconds (Max-Age); `undefined` makes a browser-session cookie. */
  readonly maxAge: number | undefined;
  readonly path: '/';
  readonly sameSite: SameSite;
  /**
   * True for anything scripts must not read: ASVS 5.0 3.3.4, and draft-ietf-oauth-browser-based-apps
   * §6.1.3.2 (MUST HttpOnly for the BFF's cookies).
   */
  readonly httpOnly: boolean;
  /** §9 "secure except on localhost": the flag itself comes from `secureFor(publicUrl)`. */
  readonly secure: 'except-localhost';
  /** Holds a token or a session reference. Never client-settable (docs/design.md "Every write is validated"). */
  readonly credential: boolean;
  /** When present, the only values the cookie may hold. */
  readonly allowedValues?: readonly string[];
  /** When present, every value must match. */
  readonly valuePattern?: RegExp;
}

const CREDENTIAL = {
  path: '/',
  sameSite: 'lax',
  httpOnly: true,
  secure: 'except-localhost',
  credential: true,
} as const;

// Analytics ids travel on into the §2 shell redirect query; keep them to plain id characters.
const ANALYTICS_ID = /^[A-Za-z0-9._-]{1,128}$/;

const ANALYTICS = {
  path: '/',
  sameSite: 'lax',
  // The consent manager and analytics script in the page read and write these.
  httpOnly: false,
  secure: 'except-localhost',
  credential: false,
  valuePattern: ANALYTICS_ID,
} as const;

/**
 * The token cookies (accessToken, refreshToken) are never written, only cleared (issue 14 item 7:
 * they are "either the current tokens ... or not written at all"; this service chose not at all):
 * - Nothing reads them. They are HttpOnly, so the page's scripts cannot, and host-only, so no brand
 *   site receives them; the server reads tokens from the session store, whose access token is the
 *   current one after every refresh. The brands get their tokens in the redirect (§4 After login
 *   step 6) or by a handoff code.
 * - A copy in the browser is a bearer credential sent with every request to this origin for 100 days
 *   (§9), the refresh token included: draft-ietf-oauth-browser-based-apps §6.1 (backend for
 *   frontend) keeps tokens on the server and gives the browser only a session cookie.
 * - Keeping copies current would need every reader of a session (the shell pages, /signin, the
 *   account API) to rewrite them after a refresh, and a copy that missed one is a stale, rotated
 *   refresh token: the very bug the issue reports.
 * So sign-out and the mobile after-login (§4 Sign-out step 2, After login step 7) still clear them,
 * and LegacyCookieMiddleware clears any an earlier version left. Their policy stays for those
 * clearings, which must name the attributes the cookies were written with.
 */
export const COOKIE_POLICIES: Readonly<Record<CookieName, CookiePolicy>> = {
  // §9 token cookies; §4 App start: "path /, SameSite lax, secure except on localhost". Only cleared.
  accessToken: { ...CREDENTIAL, maxAge: TOKEN_COOKIE_MAX_AGE },
  refreshToken: { ...CREDENTIAL, maxAge: TOKEN_COOKIE_MAX_AGE },
  // §9 session cookie; §4 After login step 5 stores the fresh session id here (a 256-bit id).
  sessionId: { ...CREDENTIAL, maxAge: SESSION_ID_MAX_AGE, valuePattern: /^[A-Za-z0-9_-]{43}$/ },
  // §3 lists it without a lifetime: a credential that ends with the browser session.
  sessionCookie: { ...CREDENTIAL, maxAge: undefined },
  // §9 theme cookie; the client reads it to paint the right theme before hydration.
  theme: {
    path: '/',
    sameSite: 'lax',
    httpOnly: false,
    secure: 'except-localhost',
    credential: false,
    maxAge: THEME_MAX_AGE,
    allowedValues: THEMES,
  },
  // §2: the analytics session and user ids the shell redirect carries on.
  QTM_SID: { ...ANALYTICS, maxAge: undefined },
  QTM_UID: { ...ANALYTICS, maxAge: ANALYTICS_USER_ID_MAX_AGE },
  // Binds a pending sign-in to this browser (RFC 9700 §4.7.1); lives as long as the login state.
  signinBinding: {
    ...CREDENTIAL,
    maxAge: SIGNIN_BINDING_MAX_AGE,
    valuePattern: /^[A-Za-z0-9_-]{43}$/,
  },
  // Binds the sessions of this origin to the browser that signed in (issue 14 item 4): a session id
  // alone (the `si` brands receive) signs nobody in here. Never in a URL; lives as long as sessionId.
  sessionBinding: {
    ...CREDENTIAL,
    maxAge: SESSION_ID_MAX_AGE,
    valuePattern: /^[A-Za-z0-9_-]{43}$/,
  },
};

/**
 * The cookies that carry the `__Host-` prefix where the origin is https (RFC 6265bis §4.1.3.2): a
 * browser then accepts them only Secure, host-only and for Path=/, so a sibling subdomain or a
 * plain-http page cannot plant or shadow them. The browser bindings and, on https, the
 * session id since docs/security.md, a shadowed session cookie (a planted `sessionId;
 * Domain=.collectors.com; Path=/collection` was sent before the real one and locked the collector
 * in a sign-in loop). On http://localhost the prefix is not allowed (it needs Secure), so the plain
 * names are used there.
 */
export const HOST_PREFIXED_COOKIES: ReadonlySet<CookieName> = new Set<CookieName>([
  'signinBinding',
  'sessionBinding',
  'sessionId',
]);

/**
 * Prefixed cookies that earlier versions wrote under their plain name on https too: `sessionId`,
 * before docs/security.md, a shadowed session cookie. A browser that signed in then still holds
 * `sessionId` (for up to a year, §9), so there that name is still read when the prefixed one is
 * absent (every value of it, each tried against the browser binding, since a sibling can shadow
 * it), and it is cleared whenever the prefixed one is written or cleared. The bindings were never
 * plain on https: only `__Host-` counts.
 */
export const FORMERLY_PLAIN_COOKIES: ReadonlySet<CookieName> = new Set<CookieName>(['sessionId']);

/** The name a cookie has on the wire in this deployment. */
export function wireCookieName(name: CookieName, deployment: { readonly secure: boolean }): string {
  return deployment.secure && HOST_PREFIXED_COOKIES.has(name) ? `__Host-${name}` : name;
}

/** The other names the cookie may have on the wire in this deployment (FORMERLY_PLAIN_COOKIES). */
export function formerWireNames(
  name: CookieName,
  deployment: { readonly secure: boolean },
): readonly string[] {
  return wireCookieName(name, deployment) !== name && FORMERLY_PLAIN_COOKIES.has(name)
    ? [name]
    : [];
}

/** §4 Sign-out step 2: "the three token cookies". */
export const TOKEN_COOKIES = ['accessToken', 'refreshToken', 'sessionId'] as const;
export type TokenCookieName = (typeof TOKEN_COOKIES)[number];

/** §7 cookie.setCookie may write only these (docs/design.md: "an allowlist of non-credential cookie names"). */
export const CLIENT_SETTABLE_COOKIES = ['theme', 'QTM_SID', 'QTM_UID'] as const;
export type ClientSettableCookieName = (typeof CLIENT_SETTABLE_COOKIES)[number];

/** The attributes of one write; spread into a `CookieWrite` next to name and value. */
export interface CookieAttributes {
  readonly path: string;
  readonly sameSite: SameSite;
  readonly httpOnly: boolean;
  readonly secure: boolean;
  readonly maxAge?: number;
}

export function isCookieName(name: string): name is CookieName {
  return Object.hasOwn(COOKIE_POLICIES, name);
}

const CLIENT_SETTABLE: ReadonlySet<string> = new Set(CLIENT_SETTABLE_COOKIES);

export function isClientSettableCookie(name: string): name is ClientSettableCookieName {
  return CLIENT_SETTABLE.has(name);
}

/** The full options for writing `name` on a deployment whose Secure flag is `secure`. */
export function cookieOptionsFor(
  name: CookieName,
  deployment: { readonly secure: boolean },
): CookieAttributes {
  const policy = COOKIE_POLICIES[name];
  const options = {
    path: policy.path,
    sameSite: policy.sameSite,
    httpOnly: policy.httpOnly,
    secure: deployment.secure,
  };
  return policy.maxAge === undefined ? options : { ...options, maxAge: policy.maxAge };
}

/** Whether `value` is one the policy of `name` allows (theme: light or dark; analytics ids). */
export function isAllowedCookieValue(name: CookieName, value: string): boolean {
  const policy = COOKIE_POLICIES[name];
  if (policy.allowedValues !== undefined && !policy.allowedValues.includes(value)) return false;
  if (policy.valuePattern !== undefined && !policy.valuePattern.test(value)) return false;
  return true;
}

// Loopback hosts as the WHATWG URL parser prints them (IPv6 keeps its brackets).
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * §9 "secure except on localhost": false only for plain http on a loopback host, where a browser
 * would drop a Secure cookie. Anything else, including an unparseable URL or a look-alike such as
 * `localhost.evil.com`, gets Secure (fail closed).
 */
export function secureFor(publicUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    return true;
  }
  return !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}
