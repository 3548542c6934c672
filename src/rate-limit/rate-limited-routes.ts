import { ROUTES, type RouteName } from '../shared/routes';

/**
 * Which requests are rate limited, and in which group, as data (docs/design.md "Brute force", issue 4
 * item 10): the credential steps of the embedded IdP, and the sign-in entry with its landings.
 */
export type RateLimitGroup = 'credentials' | 'signin';

export interface RateLimitedRoute {
  readonly method: 'GET' | 'POST';
  readonly route: RouteName;
  /** The route itself, or (`steps`) one page below it per interaction, e.g. /idp/signin/<uid>. */
  readonly match: 'exact' | 'steps';
  readonly group: RateLimitGroup;
  /**
   * Form actions of this route that carry no credential and are not counted: "Use a different
   * email" (the steps' back) only moves the collector to an earlier step, and counting it made one
   * such click cost as much as a password guess.
   */
  readonly uncountedActions?: readonly string[];
}

export const RATE_LIMITED_ROUTES: readonly RateLimitedRoute[] = [
  // Every sign-in step post: passwords, codes, registration, recovery, unlock.
  {
    method: 'POST',
    route: 'idpSteps',
    match: 'steps',
    group: 'credentials',
    uncountedActions: ['back'],
  },
  { method: 'GET', route: 'signin', match: 'exact', group: 'signin' },
  // The confirmation of a cross-site `t` is a sign-in like /signin: its page, and
  // (docs/security.md, the offer key) the form post that answers it.
  { method: 'GET', route: 'tokenSignin', match: 'exact', group: 'signin' },
  { method: 'POST', route: 'tokenSignin', match: 'exact', group: 'signin' },
  { method: 'GET', route: 'loginLanding', match: 'exact', group: 'signin' },
  { method: 'GET', route: 'brandTokenLanding', match: 'exact', group: 'signin' },
  { method: 'GET', route: 'logout', match: 'exact', group: 'signin' },
  // docs/security.md, sign-out CSRF: the confirmation of a sign-out from another site is a sign-out
  // like the GET.
  { method: 'POST', route: 'logout', match: 'exact', group: 'signin' },
  { method: 'GET', route: 'logoutLanding', match: 'exact', group: 'signin' },
  { method: 'POST', route: 'handoffToken', match: 'exact', group: 'signin' },
];

function matches(route: RateLimitedRoute, path: string): boolean {
  const base = ROUTES[route.route];
  if (route.match === 'exact') return path === base;
  const rest = path.startsWith(`${base}/`) ? path.slice(base.length + 1) : '';
  return rest !== '' && !rest.includes('/');
}

/** The group a request counts in, or undefined; `action` is a form post's `action` field. */
export function rateLimitGroup(
  method: string,
  path: string,
  action?: unknown,
): RateLimitGroup | undefined {
  const route = RATE_LIMITED_ROUTES.find((r) => r.method === method && matches(r, path));
  if (!route) return undefined;
  if (typeof action === 'string' && route.uncountedActions?.includes(action)) return undefined;
  return route.group;
}

/** The group of an Express request (its method, path and, for a form post, its action). */
export function requestRateLimitGroup(req: {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
}): RateLimitGroup | undefined {
  const body = req.body as { action?: unknown } | undefined;
  return rateLimitGroup(req.method, req.path, body?.action);
}
