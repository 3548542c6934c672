import { RATE_LIMITED_ROUTES } from '../../src/rate-limit/rate-limited-routes';
import { ROUTES } from '../../src/shared/routes';
import { useTestApp } from '../support/test-app';

/**
 * Issue 32 item 3, the attacker's view: the same route under another case or with a trailing slash.
 * Express matched those by default, while the rate limits (and metrics labels, and an ingress rule
 * for /metrics, before it moved to the management port) compared the raw path: /IDP/SIGNIN/<uid> took 80 password posts with no 429 where the
 * exact path got its first at post 31. Now a variant is no route at all: 404, before any limit,
 * handler or IdP sees it, and the exact path is still limited.
 */
const t = useTestApp({
  RATE_LIMIT_CREDENTIAL_POSTS: '3/60',
  RATE_LIMIT_SIGNIN: '3/60',
  RATE_LIMIT_SIGNIN_SESSION: '3/60',
});

/** The path a table row names (a step route gets one page below it). */
const pathOf = (route: (typeof RATE_LIMITED_ROUTES)[number]) =>
  route.match === 'steps' ? `${ROUTES[route.route]}/someuid` : ROUTES[route.route];

function variants(path: string): string[] {
  return [
    path.toUpperCase(),
    `${path}/`,
    path.replace(/[a-z]/, (c) => c.toUpperCase()),
    `${path.toUpperCase()}/`,
  ];
}

async function send(method: string, path: string, base = t.url): Promise<number> {
  const res = await fetch(`${base}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      accept: 'text/html',
      ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(method === 'POST' ? { body: 'x=1' } : {}),
  });
  await res.arrayBuffer();
  return res.status;
}

describe.each(RATE_LIMITED_ROUTES.map((r) => [`${r.method} ${pathOf(r)}`, r] as const))(
  'the limited route %s',
  (_name, route) => {
    it.each(variants(pathOf(route)))(
      'under the variant %s is 404, however often it is sent',
      async (variant) => {
        for (let i = 0; i < 6; i++) expect(await send(route.method, variant)).toBe(404);
      },
    );
  },
);

it('the exact paths stay limited: the fourth sign-in in the window is 429', async () => {
  const answers: number[] = [];
  for (let i = 0; i < 4; i++) answers.push(await send('GET', '/signin?b=psa'));
  expect(answers.slice(0, 3)).not.toContain(429);
  expect(answers[3]).toBe(429);
});

// The scrape is on the management listener (docs/operating.md "The management port"), which
// routes as strictly as the public one; the public port has no /metrics in any spelling.
it.each(variants('/metrics'))(
  'the scrape is only at /metrics on the management port: %s is 404',
  async (variant) => {
    expect(await send('GET', variant, t.managementUrl)).toBe(404);
    expect(await send('GET', '/metrics', t.managementUrl)).toBe(200);
    expect(await send('GET', variant)).toBe(404);
    expect(await send('GET', '/metrics')).toBe(404);
  },
);
