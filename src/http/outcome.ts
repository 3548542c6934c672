import type { SafeRedirectUrl } from '../brand/redirect-policy';
import type { CookieName } from '../cookies/cookie-policy';
import type { IdpUrl } from '../oidc/oidc-client';
import type { ServicePath } from '../shared/routes';

/**
 * What a service decides, for a controller to apply (docs/design.md "Style": controllers speak HTTP, services
 * return outcomes). Nothing here imports express: src/http/apply-outcome.ts is the one place that
 * turns an outcome into a response.
 */

/**
 * Where a redirect may go, by who built the address: a caller-supplied URL that passed the redirect
 * policy, a path of this service (ROUTES), or the IdP's own endpoint as the OIDC adapter built it
 * from the issuer's metadata. A plain string is none of them, so it cannot become a Location.
 */
export type RedirectTarget = SafeRedirectUrl | ServicePath | IdpUrl;

/** A cookie to write or clear; every write passes the policy table and the write validation (§5). */
export type CookieChange =
  | { readonly set: CookieName; readonly value: string }
  | { readonly clear: CookieName }
  /** §4 Sign-out step 2, After login step 7: the three token cookies. */
  | { readonly clearTokens: true };

/** Headers on every redirect that carries a session or tokens to a brand (issue 4, RFC 9700 §4.2.4). */
export const HANDOFF_HEADERS = {
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
} as const;

export interface RedirectOutcome {
  readonly redirect: RedirectTarget;
  readonly cookies?: readonly CookieChange[];
  readonly headers?: Readonly<Record<string, string>>;
}

export function redirectTo(
  target: RedirectTarget,
  extra: { cookies?: readonly CookieChange[]; headers?: Readonly<Record<string, string>> } = {},
): RedirectOutcome {
  return {
    redirect: target,
    ...(extra.cookies && extra.cookies.length > 0 ? { cookies: extra.cookies } : {}),
    ...(extra.headers ? { headers: extra.headers } : {}),
  };
}
