import { AppMetrics } from '../../src/metrics';
import { IdpCalls } from '../../src/oidc/idp-calls';
import { IDP_ENDPOINTS } from '../../src/oidc/idp-rate-limit';
import { IDP_PROBE_INTERVAL_MS, IdpStatus } from '../../src/oidc/idp-status';
import { Browser, BrowserResponse } from '../support/browser';
import { freePort } from '../support/free-port';
import { LogoutEndpoint } from '../support/logout-endpoint';
import { OktaIdp, OktaUser } from '../support/okta-idp';
import { externalIdpEnv, startOktaIdpOverHttp } from '../support/okta-over-http';
import { BRAND_CLIENTS, OKTA_USERS, SERVICE_CLIENT, throughOkta } from '../support/okta-stack';
import { eventually } from '../support/process-app';
import { RunningRedis, startRedis } from '../support/redis-server';
import {
  basicAuth,
  pageText,
  signOutFromThisSite,
  throughBrandGrant,
} from '../support/signin-journey';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * docs/okta.md "Rate limits": Okta's 429 is not an outage. The service runs against the Okta-shaped
 * IdP (test/support/okta-idp/server.mjs, which shares no code with src/idp/) in its '429' mode,
 * which answers as Okta does (429, X-Rate-Limit-Limit/-Remaining/-Reset, the E0000047 body), and
 * each call the service makes is driven into it: the code exchange, the refresh, userinfo,
 * revocation, and the browser's RP-initiated logout; then two instances on one real redis-server.
 */

const TOKEN = '/oauth2/default/v1/token';
const USERINFO = '/oauth2/default/v1/userinfo';
const REVOKE = '/oauth2/default/v1/revoke';
const LOGOUT = '/oauth2/default/v1/logout';
/** How long the IdP's rate-limit windows last in these tests (its Reset: this far ahead). */
const RESET_SECONDS = 2;

/** The IdP and apps at these ports: every app's redirect URIs registered with the IdP. */
const oktaIdpFor = startOktaIdpOverHttp;

/** The service (in this process) at `port`, signing in at the Okta-shaped IdP. */
function appAt(port: number, idp: OktaIdp, env: Record<string, string> = {}): Promise<TestApp> {
  // Revocations the IdP did not take are retried soon, so a test sees it happen.
  return startTestApp(externalIdpEnv(port, idp, { REVOCATION_RETRY_MS: '200', ...env }));
}

/** Through Okta's sign-in page up to the landing (not yet requested). */
async function toLanding(
  t: TestApp,
  user: OktaUser,
  query = 'b=collectors',
): Promise<{ browser: Browser; landing: URL }> {
  const browser = new Browser();
  const landing = await throughOkta(browser, await browser.get(`${t.url}/signin?${query}`), user);
  return { browser, landing };
}

/** A signed-in browser, and where the landing sent it. */
async function signIn(
  t: TestApp,
  user: OktaUser = OKTA_USERS.plain,
  query = 'b=collectors',
): Promise<{ browser: Browser; landed: BrowserResponse }> {
  const { browser, landing } = await toLanding(t, user, query);
  const landed = await throughBrandGrant(browser, await browser.get(landing.href));
  expect(landed.status).toBe(302);
  return { browser, landed };
}

const page = (browser: Browser, url: string) =>
  browser.request(url, { headers: { accept: 'text/html' } });

interface AccountStatus {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly body: {
    result?: { data: { isSignedIn: boolean } };
    error?: { message: string; data: { code: string; httpStatus: number } };
  };
}

async function accountStatus(t: TestApp, browser: Browser): Promise<AccountStatus> {
  const res = await browser.get(`${t.url}/api/collectors-web/trpc/account.status`);
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: JSON.parse(res.body) as AccountStatus['body'],
  };
}

/** One metric's value in the running service's registry (the sum over `labels`' matches). */
async function metric(t: TestApp, name: string, labels: Record<string, string> = {}) {
  const text = await t.app.get(AppMetrics).registry.metrics();
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(match[3]);
  }
  return sum;
}

/** Waits until no endpoint is held back on this instance any more (the rate limit has passed). */
async function untilLimitsPass(t: TestApp): Promise<void> {
  const calls = t.app.get(IdpCalls);
  for (const endpoint of IDP_ENDPOINTS) {
    const until = await calls.blockedUntil(endpoint);
    if (until !== undefined) await new Promise((r) => setTimeout(r, until - Date.now() + 20));
  }
}

/** The rate-limit answer is never an outage: no idp-down line, idp_up stays 1, /healthz says up. */
async function expectNoOutage(t: TestApp): Promise<void> {
  expect(t.logs.records.filter((l) => l.event === 'idp-down')).toEqual([]);
  expect(await metric(t, 'idp_up')).toBe(1);
  expect(await metric(t, 'idp_outages_total')).toBe(0);
  const health = (await (await fetch(`${t.url}/healthz`)).json()) as {
    details?: { idp?: { status: string } };
  };
  expect(health.details?.idp?.status).toBe('up');
}

/** The §8 error page of a rate limit: 429, Retry-After, the code, the reference, the language. */
function expectRateLimitPage(res: BrowserResponse, message: RegExp): number {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toMatch(/text\/html/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(RESET_SECONDS + 1);
  const text = pageText(res.body);
  expect(text).toContain('IdpRateLimited');
  expect(text).toContain(res.headers.get('x-request-id') ?? 'no request id');
  expect(text).toMatch(message);
  expect(text).toContain(`${retryAfter} `);
  return retryAfter;
}

describe('Okta’s rate limit on each call, one instance (docs/okta.md "Rate limits")', () => {
  let idp: OktaIdp;
  let t: TestApp;
  const psa = new LogoutEndpoint([200]);
  beforeAll(async () => {
    const port = await freePort();
    // Access tokens of 30 s: always inside the 30 s refresh margin, so every request refreshes.
    idp = await oktaIdpFor([port], 30);
    t = await appAt(port, idp, {
      BACKCHANNEL_LOGOUT_URIS: JSON.stringify({ psa: await psa.start() }),
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await idp?.close();
    await psa.stop();
  });
  afterEach(async () => {
    await idp.fault('none');
    await untilLimitsPass(t);
  });

  it('code exchange: a try-again page in the journey’s language, 429, Retry-After', async () => {
    const { browser, landing } = await toLanding(t, OKTA_USERS.plain, 'b=collectors&lang=fr-CA');
    await idp.fault('429', TOKEN, { resetSeconds: RESET_SECONDS });
    const res = await page(browser, landing.href);
    expectRateLimitPage(res, /Notre service de connexion reçoit trop de demandes/);
    expect(await accountStatus(t, browser)).toMatchObject({
      body: { result: { data: { isSignedIn: false } } },
    });
    // One warn line says which endpoint and until when; the request's line is a warning too.
    const warned = t.logs.records.filter((l) => l.event === 'idp-rate-limited');
    expect(warned).toEqual([
      expect.objectContaining({ level: 40, endpoint: 'token', until: expect.any(String) }),
    ]);
    const ofRequest = t.logs.records.filter(
      (l) => l.correlationId === res.headers.get('x-request-id') && l.error !== undefined,
    );
    expect(ofRequest).toEqual([
      expect.objectContaining({ level: 40, error: 'IdpRateLimited', status: 429 }),
    ]);
    expect(await metric(t, 'idp_rate_limited_total', { endpoint: 'token' })).toBe(1);
    expect(
      await metric(t, 'idp_request_duration_seconds_count', {
        endpoint: 'token',
        outcome: 'rate_limited',
      }),
    ).toBe(1);
    expect(await metric(t, 'signins_total', { outcome: 'failure', error: 'IdpRateLimited' })).toBe(
      1,
    );
    await expectNoOutage(t);
    // Once the limit has passed, the collector signs in.
    await idp.fault('none');
    await untilLimitsPass(t);
    await signIn(t);
    expect(
      await metric(t, 'idp_request_duration_seconds_count', {
        endpoint: 'token',
        outcome: 'success',
      }),
    ).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('refresh: signed in on the valid token; one token call in 24 views', async () => {
    const { browser } = await signIn(t);
    const before = (await idp.requests(TOKEN)).length;
    const rateLimited = await metric(t, 'token_refreshes_total', { outcome: 'rate_limited' });
    await idp.fault('429', TOKEN, { resetSeconds: RESET_SECONDS });
    for (let view = 0; view < 20; view++) {
      const status = await accountStatus(t, browser);
      expect(status.body.result?.data.isSignedIn).toBe(true);
      if (view % 5 === 0) expect((await page(browser, `${t.url}/collection`)).status).toBe(200);
    }
    const during = (await idp.requests(TOKEN)).slice(before);
    expect(during).toEqual([{ method: 'POST', path: TOKEN, status: 429 }]);
    expect(
      (await metric(t, 'token_refreshes_total', { outcome: 'rate_limited' })) - rateLimited,
    ).toBe(24);
    expect(await metric(t, 'token_refreshes_total', { outcome: 'refused' })).toBe(0);
    await expectNoOutage(t);
    await idp.fault('none');
    await untilLimitsPass(t);
    expect((await accountStatus(t, browser)).body.result?.data.isSignedIn).toBe(true);
    expect((await idp.requests(TOKEN)).slice(before + 1)).toEqual([
      { method: 'POST', path: TOKEN, status: 200 },
    ]);
  }, 60_000);

  it('userinfo at sign-in: the try-again page, no session; then it completes', async () => {
    const { browser, landing } = await toLanding(t, OKTA_USERS.inUserinfo);
    await idp.fault('429', USERINFO, { resetSeconds: RESET_SECONDS });
    const res = await page(browser, landing.href);
    expectRateLimitPage(res, /too many requests/);
    expect(await metric(t, 'idp_rate_limited_total', { endpoint: 'userinfo' })).toBe(1);
    expect((await accountStatus(t, browser)).body.result?.data.isSignedIn).toBe(false);
    await expectNoOutage(t);
    await idp.fault('none');
    await untilLimitsPass(t);
    const { browser: again } = await signIn(t, OKTA_USERS.inUserinfo);
    expect((await accountStatus(t, again)).body.result?.data.isSignedIn).toBe(true);
  }, 60_000);

  it('revocation: signed out; the tokens are queued and revoked after the reset', async () => {
    const { browser, landed } = await signIn(t, OKTA_USERS.plain, 'b=psa');
    const rt = new URL(landed.headers.get('location') ?? '').searchParams.get('rt') ?? '';
    const logged = (event: string) => t.logs.records.filter((l) => l.event === event).length;
    const [queued, retried] = [logged('revocation-queued'), logged('revocation-retried')];
    const before = (await idp.requests(REVOKE)).length;
    await idp.fault('429', REVOKE, { resetSeconds: RESET_SECONDS });
    const out = await signOutFromThisSite(browser, `${t.url}/logout/collectorsid?b=collectors`);
    expect(out.status).toBe(302);
    expect((await accountStatus(t, browser)).body.result?.data.isSignedIn).toBe(false);
    // Two refresh tokens: the session's own and PSA's. Okta was asked once; the second waited.
    await eventually('both revocations are queued', () =>
      Promise.resolve(logged('revocation-queued') >= queued + 2),
    );
    expect((await idp.requests(REVOKE)).slice(before)).toEqual([
      { method: 'POST', path: REVOKE, status: 429 },
    ]);
    await idp.fault('none');
    await eventually('the queued revocations are done', () =>
      Promise.resolve(logged('revocation-retried') >= retried + 2),
    );
    expect((await idp.requests(REVOKE)).slice(before + 1)).toEqual([
      { method: 'POST', path: REVOKE, status: 200 },
      { method: 'POST', path: REVOKE, status: 200 },
    ]);
    // PSA's refresh token was revoked: Okta refuses it now.
    const psaClient = BRAND_CLIENTS.psa ?? SERVICE_CLIENT;
    const refresh = await fetch(`${idp.issuer}/v1/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basicAuth(psaClient.clientId, psaClient.clientSecret),
      },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: rt }).toString(),
    });
    expect(refresh.status).toBe(400);
    await expectNoOutage(t);
  }, 60_000);

  it('RP-initiated logout: ended here, brands told; the browser meets Okta’s 429', async () => {
    const { browser } = await signIn(t, OKTA_USERS.plain, 'b=psa');
    const told = psa.tokens.length;
    await idp.fault('429', LOGOUT, { resetSeconds: RESET_SECONDS });
    const out = await signOutFromThisSite(browser, `${t.url}/logout/collectorsid?b=collectors`);
    expect(out.status).toBe(302);
    const endSession = new URL(out.headers.get('location') ?? '');
    expect(endSession.href.startsWith(`${idp.issuer}/v1/logout`)).toBe(true);
    expect((await accountStatus(t, browser)).body.result?.data.isSignedIn).toBe(false);
    await eventually('PSA is told of the sign-out', () =>
      Promise.resolve(psa.tokens.length > told),
    );
    // What the collector's browser gets from Okta: its rate-limit answer, not the way back here.
    const atOkta = await browser.get(endSession.href);
    expect(atOkta.status).toBe(429);
    expect(atOkta.headers.get('x-rate-limit-remaining')).toBe('0');
    expect(Number(atOkta.headers.get('x-rate-limit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(JSON.parse(atOkta.body)).toMatchObject({ errorCode: 'E0000047' });
    await expectNoOutage(t);
  }, 60_000);
});

describe('Okta’s rate limit on the refresh of an expired access token', () => {
  let idp: OktaIdp;
  let t: TestApp;
  beforeAll(async () => {
    const port = await freePort();
    idp = await oktaIdpFor([port], 2);
    t = await appAt(port, idp);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  it('pages say when to try again (429, Retry-After); one call; not signed out', async () => {
    const { browser } = await signIn(t);
    // The access token (2 s) expires.
    await new Promise((r) => setTimeout(r, 2_500));
    const before = (await idp.requests(TOKEN)).length;
    await idp.fault('429', TOKEN, { resetSeconds: RESET_SECONDS });
    for (let view = 0; view < 5; view++)
      expectRateLimitPage(await page(browser, `${t.url}/collection`), /too many requests/);
    const api = await accountStatus(t, browser);
    expect(api.status).toBe(429);
    expect(Number(api.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(api.body.error?.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', httpStatus: 429 });
    expect((await idp.requests(TOKEN)).slice(before)).toEqual([
      { method: 'POST', path: TOKEN, status: 429 },
    ]);
    expect(await metric(t, 'token_refreshes_total', { outcome: 'refused' })).toBe(0);
    await expectNoOutage(t);
    await idp.fault('none');
    await untilLimitsPass(t);
    expect((await accountStatus(t, browser)).body.result?.data.isSignedIn).toBe(true);
    expect((await idp.requests(TOKEN)).slice(before + 1)[0]).toEqual({
      method: 'POST',
      path: TOKEN,
      status: 200,
    });
  }, 60_000);
});

describe('two instances on one Redis share the rate limit', () => {
  let redis: RunningRedis;
  let idp: OktaIdp;
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    redis = await startRedis();
    const ports = [await freePort(), await freePort()] as const;
    idp = await oktaIdpFor(ports);
    const shared = { SESSION_STORE: 'redis', REDIS_URL: redis.url };
    one = await appAt(ports[0], idp, shared);
    two = await appAt(ports[1], idp, shared);
  }, 60_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await idp?.close();
    await redis?.stop();
  });

  it('a 429 met by one instance: the other makes no call to that endpoint', async () => {
    const first = await toLanding(one, OKTA_USERS.plain);
    const second = await toLanding(two, OKTA_USERS.inAccessToken);
    const before = (await idp.requests(TOKEN)).length;
    await idp.fault('429', TOKEN, { resetSeconds: 5 });
    expect((await page(first.browser, first.landing.href)).status).toBe(429);
    const refused = await page(second.browser, second.landing.href);
    expect(refused.status).toBe(429);
    expect(pageText(refused.body)).toContain('IdpRateLimited');
    // Only the first instance's call reached Okta.
    expect((await idp.requests(TOKEN)).slice(before)).toEqual([
      { method: 'POST', path: TOKEN, status: 429 },
    ]);
    expect(await metric(two, 'idp_rate_limited_total', { endpoint: 'token' })).toBe(1);
    expect(await metric(two, 'idp_request_duration_seconds_count', { endpoint: 'token' })).toBe(0);
    await idp.fault('none');
    await untilLimitsPass(two);
    await signIn(two);
  }, 60_000);
});

describe('Okta’s rate limit on the discovery document', () => {
  const DISCOVERY = '/oauth2/default/.well-known/openid-configuration';
  let idp: OktaIdp;
  let t: TestApp;
  beforeAll(async () => {
    const port = await freePort();
    idp = await oktaIdpFor([port]);
    // Over the limit before the service has read the document even once.
    await idp.fault('429', DISCOVERY, { resetSeconds: RESET_SECONDS });
    t = await appAt(port, idp);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  it('/signin says when to try again; /healthz’s probe waits too; then sign-in goes on', async () => {
    const res = await page(new Browser(), `${t.url}/signin?b=psa`);
    expectRateLimitPage(res, /too many requests/);
    await expectNoOutage(t);
    // /healthz's background read of the document, once the last word is old: held back, so Okta
    // saw one request in all, and the IdP is still up.
    const status = t.app.get(IdpStatus);
    expect(status.current(Date.now() + IDP_PROBE_INTERVAL_MS).status).toBe('up');
    await status.settled();
    expect(status.current().status).toBe('up');
    expect(await idp.requests(DISCOVERY)).toEqual([
      { method: 'GET', path: DISCOVERY, status: 429 },
    ]);
    expect(await metric(t, 'idp_rate_limited_total', { endpoint: 'discovery' })).toBe(2);
    await idp.fault('none');
    await untilLimitsPass(t);
    const start = await new Browser().get(`${t.url}/signin?b=psa`);
    expect(start.status).toBe(302);
    expect(start.headers.get('location')).toMatch(new RegExp(`^${idp.issuer}/v1/authorize\\?`));
  }, 60_000);
});
