import { ROUTES } from '../shared/routes';

/** The route label of every request no route answered (404s for any path): one fixed value. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Requests answered outside Nest's router (mounted middleware and static files) have no matched
 * route; they are labelled by their mount point. Most specific first.
 */
export const MOUNTED_PREFIXES: readonly { readonly prefix: string; readonly label: string }[] = [
  { prefix: `${ROUTES.api}/`, label: ROUTES.api },
  { prefix: `${ROUTES.idp}/`, label: ROUTES.idp },
  { prefix: ROUTES.assets, label: ROUTES.assets.replace(/\/$/, '') },
  { prefix: ROUTES.static, label: ROUTES.static.replace(/\/$/, '') },
];

/** What routeLabel reads of an Express request. */
export interface RoutedRequest {
  /** Set by Express to the matched route (a Nest controller route), e.g. `{ path: '/idp/signin/:uid' }`. */
  readonly route?: { readonly path?: unknown };
  readonly originalUrl?: string;
  readonly url?: string;
}

/**
 * The route a request is counted under (issue 7): the pattern Express matched for a controller route
 * (`req.route.path`: `/signin`, `/idp/signin/:uid`, never the raw URL, so ids and query values stay
 * out), else the mount point of the middleware that answered it (MOUNTED_PREFIXES), else `unmatched`. Every value comes from the
 * service's own route definitions, so the label's cardinality is bounded whatever paths clients send.
 */
export function routeLabel(req: RoutedRequest): string {
  const matched = req.route?.path;
  // A wildcard route is middleware registered for every path below a prefix (Nest's `*path`), not
  // a controller route: it stays set on requests that no route then answered.
  if (typeof matched === 'string' && !matched.includes('*')) return matched;
  const url = req.originalUrl ?? req.url ?? '';
  for (const { prefix, label } of MOUNTED_PREFIXES) {
    if (url.startsWith(prefix)) return label;
  }
  return UNMATCHED_ROUTE;
}
