import { RoutedRequest, UNMATCHED_ROUTE, routeLabel } from './route-label';

describe(routeLabel.name, () => {
  const table: [string, RoutedRequest, string][] = [
    ['a controller route', { route: { path: '/signin' }, originalUrl: '/signin?b=psa' }, '/signin'],
    [
      'a parameterised route keeps its pattern, never the id',
      { route: { path: '/idp/signin/:uid' }, originalUrl: '/idp/signin/Evcu3Rfjj' },
      '/idp/signin/:uid',
    ],
    [
      'the account API (middleware with a wildcard route)',
      {
        route: { path: '/api/collectors-web/trpc/*path' },
        originalUrl: '/api/collectors-web/trpc/account.status?batch=1',
      },
      '/api/collectors-web/trpc',
    ],
    [
      'the embedded IdP (mounted, no route)',
      { originalUrl: '/oauth2/default/v1/authorize?client_id=x' },
      '/oauth2/default',
    ],
    ['the bundle', { originalUrl: '/static/app/app-3LNG2WGH.js' }, '/static/app'],
    ['brand logos and favicons', { originalUrl: '/static/logos/psa-color.svg' }, '/static'],
    ['locale files', { originalUrl: '/static/locales/fr-CA/header.json' }, '/static'],
    [
      'a 404 for any path',
      { route: { path: '/{*path}' }, originalUrl: '/wp-admin.php' },
      UNMATCHED_ROUTE,
    ],
    ['a 404 without a route', { originalUrl: '/no-such-page/12345' }, UNMATCHED_ROUTE],
    ['no prefix match across a path segment', { originalUrl: '/staticx/a' }, UNMATCHED_ROUTE],
    [
      'no prefix match across a path segment (API)',
      { originalUrl: '/api/collectors-web/trpcx' },
      UNMATCHED_ROUTE,
    ],
    ['falls back to url', { url: '/oauth2/default/v1/keys' }, '/oauth2/default'],
    [
      'a route path that is not a string',
      { route: { path: /x/ }, originalUrl: '/x' },
      UNMATCHED_ROUTE,
    ],
    ['nothing at all', {}, UNMATCHED_ROUTE],
  ];
  it.each(table)('%s', (_name, req, expected) => {
    expect(routeLabel(req)).toBe(expected);
  });
});
