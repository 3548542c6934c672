import * as net from 'node:net';
import { DEVELOPER_SECRETS, EMBEDDED_CLIENT_ID } from '../../src/config/config.schema';
import { developerBrandClients } from '../../src/config/env-vars';
import { Sessions } from '../../src/session/sessions';
import { Browser, BrowserResponse } from '../support/browser';
import { freePort } from '../support/free-port';
import { RoundRobinProxy } from '../support/round-robin-proxy';
import { basicAuth, jarCookie, pageText, signInVia } from '../support/signin-journey';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Issue 7 item 6: the external IdP cannot be reached. The service runs with IDP_MODE=external against
 * an issuer address where nothing listens, or where a server accepts connections and never answers;
 * then the IdP comes up there (another instance of this service with its embedded IdP, a real
 * OpenID Connect issuer).
 */

const externalIdp = (issuerPort: number) => ({
  APP_ENV: 'dev',
  IDP_MODE: 'external',
  IDP_ISSUER: `http://localhost:${issuerPort}/oauth2/default`,
  IDP_CLIENT_ID: EMBEDDED_CLIENT_ID,
  IDP_CLIENT_SECRET: DEVELOPER_SECRETS.IDP_CLIENT_SECRET,
  BRAND_CLIENTS: JSON.stringify(developerBrandClients()),
});

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work();
  return { value, ms: Date.now() - started };
}

const signinPage = (t: TestApp): Promise<BrowserResponse> =>
  new Browser().request(`${t.url}/signin?b=psa`, { headers: { accept: 'text/html' } });

/** The error page of an IdP outage: 502 OktaError, the message, the correlation id, nothing set. */
function expectIdpErrorPage(t: TestApp, page: BrowserResponse): void {
  expect(page.status).toBe(502);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  expect(page.headers.getSetCookie()).toEqual([]);
  const id = page.headers.get('x-request-id') ?? '';
  const text = pageText(page.body);
  expect(text).toContain(
    'Our sign-in service is not answering right now. Please try again shortly.',
  );
  expect(text).toContain(`Reference: ${id}`);
  expect(text).toContain('Error code: OktaError');
  expect(page.body).not.toMatch(/\bat .*\.[jt]s:\d+/);
  // Logged once, at error level, saying what failed and why.
  const lines = t.logs.records.filter((l) => l.correlationId === id && l.level === 50);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({
    status: 502,
    error: 'OktaError',
    msg: 'request failed: the IdP discovery document could not be read',
  });
}

/**
 * Readiness, and what /healthz says of the IdP. Issue 31 item 3: an IdP outage never fails readiness
 * (it would take every instance out of the balancer); /healthz's details report it.
 */
async function readiness(t: TestApp): Promise<{ status: number; idp: unknown }> {
  const res = await fetch(`${t.managementUrl}/readyz`);
  const health = (await (await fetch(`${t.managementUrl}/healthz`)).json()) as {
    details?: { idp?: { status: string; error?: string } };
  };
  const idp = health.details?.idp;
  return { status: res.status, idp: idp && { status: idp.status, error: idp.error } };
}

describe('the IdP is unreachable (issue 7 item 6)', () => {
  let t: TestApp | undefined;
  let idp: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    await idp?.close();
    t = idp = undefined;
  });

  it('nothing listens: /signin shows the error page with a correlation id, /healthz says the IdP is down while readiness stays; once it is up, sign-in goes there', async () => {
    const issuerPort = await freePort();
    t = await startTestApp(externalIdp(issuerPort));

    const page = await timed(() => signinPage(t!));
    expectIdpErrorPage(t, page.value);
    expect(page.ms).toBeLessThan(5_000);
    expect(
      t.logs.records.find(
        (l) => l.correlationId === page.value.headers.get('x-request-id') && l.level === 50,
      )?.cause,
    ).toMatch(/ECONNREFUSED/);
    expect(await readiness(t)).toEqual({
      status: 200,
      idp: { status: 'down', error: expect.stringMatching(/fetch failed: connect ECONNREFUSED/) },
    });
    expect(t.logs.text).not.toMatch(/unhandled|uncaught/i);

    // The IdP comes up at that address: a failed discovery is not cached, so sign-in resumes.
    idp = await startTestApp({ PORT: String(issuerPort) });
    expect((await readiness(t)).status).toBe(200);
    const start = await new Browser().get(`${t.url}/signin?b=psa`);
    expect(start.status).toBe(302);
    expect(start.headers.get('location')).toMatch(
      new RegExp(`^http://localhost:${issuerPort}/oauth2/default/v1/authorize\\?`),
    );
  }, 60_000);

  it('it accepts connections and never answers: the error page comes within the discovery timeout', async () => {
    const silent = net.createServer(() => undefined);
    const sockets = new Set<net.Socket>();
    silent.on('connection', (s) => sockets.add(s));
    const issuerPort = await freePort();
    await new Promise<void>((resolve) => silent.listen(issuerPort, '127.0.0.1', resolve));
    try {
      t = await startTestApp(externalIdp(issuerPort));
      // Readiness and liveness never wait on the IdP.
      const ready = await timed(() => readiness(t!));
      expect(ready.value.status).toBe(200);
      expect(ready.ms).toBeLessThan(500);
      const page = await timed(() => signinPage(t!));
      expectIdpErrorPage(t, page.value);
      // openid-client's discovery gives up after 5 s.
      expect(page.ms).toBeLessThan(9_000);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  }, 60_000);
});

/**
 * Issue 4 item 7 and issue 7 item 6: the IdP fails while a signed-in collector's access token needs a
 * refresh. The service reaches its embedded IdP through a balancer (PUBLIC_URL), which then answers
 * the token endpoint with a gateway 503: nothing was decided about the collector, so the session stays.
 */
describe('the IdP fails during a token refresh', () => {
  const proxy = new RoundRobinProxy();
  let t: TestApp | undefined;
  afterEach(async () => {
    proxy.failing = () => false;
    await proxy.close();
    await t?.close();
  });

  /** The app, reached (by browsers and by itself, as its issuer) through the balancer. */
  async function startBehindProxy(): Promise<{ t: TestApp; publicUrl: string }> {
    // The proxy takes its port before the app starts: a port only found free could go to the app.
    const port = await proxy.listen();
    const publicUrl = `http://localhost:${port}`;
    // Stale at once: every request of the session refreshes.
    t = await startTestApp({ PUBLIC_URL: publicUrl, IDP_ACCESS_TOKEN_TTL_SECONDS: '1' });
    proxy.backends = [t.url];
    return { t, publicUrl };
  }

  it('shows the 502 page and keeps the session; once the IdP answers, the same session refreshes', async () => {
    const { t, publicUrl } = await startBehindProxy();
    const browser = new Browser();
    const { landing } = await signInVia({ ...t, url: publicUrl }, browser, 'b=collectors');
    expect(landing.status).toBe(302);
    const sessionId = await jarCookie(browser, publicUrl, 'sessionId');
    expect(sessionId).toEqual(expect.any(String));
    const sessions = t.app.get(Sessions);
    const before = await sessions.get(String(sessionId));
    await new Promise((r) => setTimeout(r, 1200));

    proxy.failing = (path) => path === '/oauth2/default/v1/token';
    const failed = await browser.request(`${publicUrl}/collection`, {
      headers: { accept: 'text/html' },
    });
    expect(failed.status).toBe(502);
    expect(failed.headers.getSetCookie()).toEqual([]);
    const text = pageText(failed.body);
    expect(text).toContain('Error code: OktaError');
    expect(text).toContain(`Reference: ${failed.headers.get('x-request-id') ?? ''}`);
    expect(proxy.hits.get('/oauth2/default/v1/token')).toBeGreaterThanOrEqual(2);
    // Not signed out: the record and its refresh token are untouched.
    expect((await sessions.get(String(sessionId)))?.tokens).toEqual(before?.tokens);

    proxy.failing = () => false;
    const recovered = await browser.get(`${publicUrl}/collection`);
    expect(recovered.status).toBe(200);
    const after = await sessions.get(String(sessionId));
    expect(after?.tokens.accessToken).not.toBe(before?.tokens.accessToken);
    expect(t.logs.text).not.toMatch(/unhandled|uncaught/i);
  }, 60_000);

  it('a refresh token the IdP refuses signs the collector out instead', async () => {
    const { t, publicUrl } = await startBehindProxy();
    const browser = new Browser();
    await signInVia({ ...t, url: publicUrl }, browser, 'b=collectors');
    const sessionId = String(await jarCookie(browser, publicUrl, 'sessionId'));
    const sessions = t.app.get(Sessions);
    const record = await sessions.get(sessionId);
    // The IdP forgets the grant (an administrator revoked it): the refresh token is refused.
    await fetch(`${publicUrl}/oauth2/default/v1/revoke`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basicAuth(t.config.idp.clientId, t.config.idp.clientSecret),
      },
      body: new URLSearchParams({
        token: record?.tokens.refreshToken ?? '',
        token_type_hint: 'refresh_token',
      }),
    });
    await new Promise((r) => setTimeout(r, 1200));
    const answer = await browser.get(`${publicUrl}/collection`);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toContain('/signin?');
    expect(await sessions.get(sessionId)).toBeUndefined();
  }, 60_000);
});
