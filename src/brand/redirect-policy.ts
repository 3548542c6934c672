import type { AppConfig } from '../config/app-config';
import { SERVICE_NAMES, isDeveloperEnv } from '../shared/environment';
import { BRANDS } from '../shared/brand';

/**
 * The one redirect policy (§5, docs/design.md "One redirect policy", RFC 9700 §4.11).
 *
 * Every Location header built from a caller-supplied URL (r, fr, the auction brand's state, brand
 * redirect URLs, post-logout targets) must come from `checkRedirectUrl`. Position taken where
 * implementations differ (security-anchors §5):
 * - Only absolute URLs. Relative ones ("/x", "//x", "/\x") are refused rather than resolved.
 * - Origins match exactly: scheme, host and port after WHATWG normalisation (so `HTTPS://WWW.X.COM`
 *   equals `https://www.x.com`, but `http:` never stands in for `https:` and `localhost` is not
 *   `127.0.0.1`).
 * - The raw string must be printable ASCII without spaces or backslashes, so no parser differential
 *   (tab stripping, backslash-as-slash, IDNA mapping of full-width or homoglyph characters) can make
 *   a browser see another host than we did.
 * - The accepted value is re-serialised (`url.href`): the browser receives what we checked.
 */
export interface RedirectPolicy {
  /** Exact origins such as `https://www.psacard.com`. */
  readonly allowedOrigins: ReadonlySet<string>;
  /** Mobile-app URL schemes without the colon, e.g. `psacard`. */
  readonly appSchemes: ReadonlySet<string>;
  /**
   * This service's own origin. A return URL there never carries `t` onward (issue 32 item 1): a
   * sign-out link whose `r` is `/collection?t=<someone's token>` would otherwise sign the browser
   * into that account on its way back, as a same-origin navigation.
   */
  readonly ownOrigin?: string;
}

export const MAX_REDIRECT_URL_LENGTH = 2048;

export type RedirectRejection =
  | 'not-a-string'
  | 'empty'
  | 'too-long'
  | 'forbidden-character'
  | 'not-absolute'
  | 'unparseable'
  | 'userinfo'
  | 'scheme-not-allowed'
  | 'origin-not-allowed';

declare const checkedByThePolicy: unique symbol;

/**
 * A URL that passed `checkRedirectUrl`, re-serialised. Only that function makes one, and
 * `withQueryParams` below, which adds query values to one (which cannot change its origin or scheme).
 * The only writer of a Location header for a caller-supplied
 * URL (src/http/apply-outcome.ts) accepts nothing else: so a URL cannot reach the browser without
 * passing the policy, and once it has passed, its type says so and it is not checked again.
 */
export type SafeRedirectUrl = string & { readonly [checkedByThePolicy]: true };

export type RedirectDecision =
  | { readonly ok: true; readonly url: SafeRedirectUrl }
  | { readonly ok: false; readonly reason: RedirectRejection };

/** §8: the error text for a rejected redirect URL. */
export const INVALID_REDIRECT_MESSAGE = 'redirect URL is not a valid env URL';

// Printable ASCII only: 0x21-0x7E minus the backslash. Rules out whitespace, C0/C1 controls, DEL,
// zero-width and bidi characters, and every non-ASCII character (IDN homoglyphs, full-width forms).
const SAFE_CHARACTERS = /^[\x21-\x5b\x5d-\x7e]+$/;
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
// For http(s): exactly two slashes, then a plain host (letters, digits, dots, hyphens, or an IPv6
// literal) and an optional port, then the end or a path, query or fragment. This refuses
// `https:evil.com`, `https:///x`, any `@` (even an empty userinfo) and percent-encoded hosts,
// which the WHATWG parser would otherwise decode or repair.
const PLAIN_HTTP_AUTHORITY =
  /^https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?(?:[/?#]|$)/i;

export function checkRedirectUrl(raw: unknown, policy: RedirectPolicy): RedirectDecision {
  if (typeof raw !== 'string') return { ok: false, reason: 'not-a-string' };
  if (raw.length === 0) return { ok: false, reason: 'empty' };
  if (raw.length > MAX_REDIRECT_URL_LENGTH) return { ok: false, reason: 'too-long' };
  if (!SAFE_CHARACTERS.test(raw)) return { ok: false, reason: 'forbidden-character' };
  const scheme = SCHEME.exec(raw)?.[1]?.toLowerCase();
  if (scheme === undefined) return { ok: false, reason: 'not-absolute' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'unparseable' };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'userinfo' };
  if (scheme === 'http' || scheme === 'https') {
    if (!PLAIN_HTTP_AUTHORITY.test(raw)) return { ok: false, reason: 'unparseable' };
    // `url.origin` is the normalised scheme://host[:port] with the default port dropped.
    if (!policy.allowedOrigins.has(url.origin)) return { ok: false, reason: 'origin-not-allowed' };
    if (url.origin === policy.ownOrigin && url.searchParams.has('t')) url.searchParams.delete('t');
    return { ok: true, url: url.href as SafeRedirectUrl };
  }
  if (policy.appSchemes.has(scheme)) return { ok: true, url: url.href as SafeRedirectUrl };
  return { ok: false, reason: 'scheme-not-allowed' };
}

/**
 * The same checked URL with query values set (§4 step 6: si, t, rt appended to the brand target).
 * Setting search parameters re-serialises only the query, so the origin the policy accepted stays.
 */
export function withQueryParams(
  url: SafeRedirectUrl,
  params: Readonly<Record<string, string | undefined>>,
): SafeRedirectUrl {
  const parsed = new URL(url);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) parsed.searchParams.set(name, value);
  }
  return parsed.href as SafeRedirectUrl;
}

function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * The allowlist for one environment: this service (the login origin), the IdP, the four service bases,
 * every brand's base and token URL, and in local and dev the brands' local developer URLs (§5 "known
 * brand, login or local origin").
 */
export function redirectPolicyFromConfig(config: AppConfig): RedirectPolicy {
  const urls: string[] = [
    config.http.publicUrl,
    config.idp.issuer,
    ...SERVICE_NAMES.map((name) => config.services[name]),
  ];
  const appSchemes = new Set<string>();
  for (const brand of BRANDS) {
    const b = config.brands[brand];
    urls.push(b.baseURL, b.tokenURL);
    if (isDeveloperEnv(config.env)) urls.push(b.localURL);
    if (b.appScheme) appSchemes.add(b.appScheme);
  }
  const allowedOrigins = new Set(urls.map(originOf).filter((o): o is string => o !== undefined));
  const ownOrigin = originOf(config.http.publicUrl);
  return { allowedOrigins, appSchemes, ...(ownOrigin ? { ownOrigin } : {}) };
}
