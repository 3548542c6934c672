/**
 * Which requests are rate limited, and in which group, as data (DESIGN.md "Brute force", issue 4
 * item 10): the credential steps of the embedded IdP, and the sign-in entry with its landings.
 */
export type RateLimitGroup = 'credentials' | 'signin';

export interface RateLimitedRoute {
  readonly method: 'GET' | 'POST';
  readonly path: RegExp;
  readonly group: RateLimitGroup;
}

export const RATE_LIMITED_ROUTES: readonly RateLimitedRoute[] = [
  // Every sign-in step post: passwords, codes, registration, recovery, unlock.
  { method: 'POST', path: /^\/idp\/signin\/[^/]+$/, group: 'credentials' },
  { method: 'GET', path: /^\/signin$/, group: 'signin' },
  { method: 'GET', path: /^\/handleloginredirect$/, group: 'signin' },
  { method: 'GET', path: /^\/handlebrandtokenredirect$/, group: 'signin' },
  { method: 'GET', path: /^\/logout\/collectorsid$/, group: 'signin' },
  { method: 'GET', path: /^\/handlelogoutredirect$/, group: 'signin' },
  { method: 'POST', path: /^\/api\/handoff\/token$/, group: 'signin' },
];

export function rateLimitGroup(method: string, path: string): RateLimitGroup | undefined {
  return RATE_LIMITED_ROUTES.find((r) => r.method === method && r.path.test(path))?.group;
}
