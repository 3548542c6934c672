/**
 * Which requests are rate limited, as data (DESIGN.md "Brute force"): the credential steps of the
 * embedded IdP now, the sign-in entry and its landings with the sign-in service (issue 4).
 */
export interface RateLimitedRoute {
  readonly method: 'GET' | 'POST';
  readonly path: RegExp;
}

export const RATE_LIMITED_ROUTES: readonly RateLimitedRoute[] = [
  // Every sign-in step post: passwords, codes, registration, recovery, unlock.
  { method: 'POST', path: /^\/idp\/signin\/[^/]+$/ },
];

export function isRateLimited(method: string, path: string): boolean {
  return RATE_LIMITED_ROUTES.some((r) => r.method === method && r.path.test(path));
}
