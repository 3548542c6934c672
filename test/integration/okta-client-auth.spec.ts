import { generateKeyPairSync } from 'node:crypto';
import type { Browser, BrowserResponse } from '../support/browser';
import type { OktaClientAuthMethod } from '../support/okta-idp';
import {
  BRAND_CLIENTS,
  OKTA_USERS,
  OktaStack,
  SERVICE_CLIENT,
  accountStatusOf,
  signInThroughOkta,
  startOktaStack,
  throughOkta,
} from '../support/okta-stack';
import { eventually } from '../support/process-app';
import { pageText, signOutFromThisSite } from '../support/signin-journey';
import { trustingFetch } from '../support/tls-front';
import { pressOnConfirmation } from '../support/token-offers';

/**
 * docs/okta.md "Client authentication" and "Sign-out at Okta": the service as qa runs it, against
 * the Okta-shaped IdP, whose app for the service takes exactly one client authentication method
 * and refuses the others (test/support/okta-idp/okta-rules.mjs), as Okta does.
 */

const where = (res: BrowserResponse): URL => new URL(res.headers.get('location') ?? '', res.url);

/** A top-level navigation from a brand's site, as a browser sends it (Fetch Metadata). */
const CROSS_SITE_NAVIGATION = {
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
  'sec-fetch-site': 'cross-site',
};

/** The service's private_key_jwt key: private in its environment, public on the Okta app. */
function clientKey(): { privateJwk: string; jwks: { keys: object[] } } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'signon-qa-1';
  return {
    privateJwk: JSON.stringify({ ...privateKey.export({ format: 'jwk' }), kid }),
    jwks: { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] },
  };
}

/** The stack with the service's app registered for `method`, and the service configured for it. */
function startWith(method: OktaClientAuthMethod): Promise<OktaStack> {
  if (method !== 'private_key_jwt')
    return startOktaStack({
      // Every signed-in request refreshes: the access token lives inside the refresh margin.
      accessTokenTtlSeconds: 30,
      serviceClientAuth: { tokenEndpointAuthMethod: method },
      env: { IDP_CLIENT_AUTH_METHOD: method },
    });
  const key = clientKey();
  return startOktaStack({
    accessTokenTtlSeconds: 30,
    serviceClientAuth: { tokenEndpointAuthMethod: method, jwks: key.jwks },
    // No secret at all: qa starts without one with private_key_jwt, and none is sent.
    env: {
      IDP_CLIENT_AUTH_METHOD: method,
      IDP_CLIENT_PRIVATE_KEY: key.privateJwk,
      IDP_CLIENT_SECRET: '',
    },
  });
}

/** The service client's authenticated requests at the IdP, from `from` on. */
async function serviceAuthentications(stack: OktaStack, from = 0) {
  return (await stack.idp.clientAuthentications())
    .slice(from)
    .filter((a) => a.client_id === SERVICE_CLIENT.clientId);
}

describe.each<OktaClientAuthMethod>([
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
])('the service’s Okta app registered with %s, and the service configured for it', (method) => {
  let stack: OktaStack;
  beforeAll(async () => {
    stack = await startWith(method);
  }, 60_000);
  afterAll(() => stack?.close());

  it('signs in, refreshes and revokes at sign-out, each time authenticating that way', async () => {
    const before = (await stack.idp.clientAuthentications()).length;
    const { browser, landed } = await signInThroughOkta(stack, OKTA_USERS.plain);
    expect(where(landed).href).toBe(`${stack.url}/collection`);
    // The access token lives 30 s, inside the refresh margin: this request refreshes.
    expect((await accountStatusOf(stack, browser)).body).toMatchObject({
      result: { data: { isSignedIn: true, collectorsId: 4242 } },
    });
    const grants = (await stack.idp.tokenRequests()).filter(
      (r) => r.client_id === SERVICE_CLIENT.clientId && r.status === 200,
    );
    expect(grants.map((r) => r.grant_type)).toEqual(
      expect.arrayContaining(['authorization_code', 'refresh_token']),
    );

    const out = await signOutFromThisSite(browser, `${stack.url}/logout/collectorsid?b=collectors`);
    // RP-initiated logout with the session's ID token as id_token_hint.
    const logout = where(out);
    expect(`${logout.origin}${logout.pathname}`).toBe(`${stack.idp.issuer}/v1/logout`);
    expect(logout.searchParams.get('id_token_hint')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await eventually('the session’s refresh token is revoked', async () =>
      (await serviceAuthentications(stack, before)).some((a) => a.path === '/v1/revoke'),
    );

    const calls = await serviceAuthentications(stack, before);
    expect(calls.map((a) => a.path)).toEqual(
      expect.arrayContaining(['/v1/token', '/v1/token', '/v1/revoke']),
    );
    // Every call authenticated with the registered method, and Okta took each one.
    expect(calls.filter((a) => a.method !== method || a.status !== 200)).toEqual([]);
    expect(stack.app.logs().filter((l) => l.event === 'revocation-queued')).toEqual([]);
  });
});

describe('a brand app registered with client_secret_post, and BRAND_CLIENTS saying so', () => {
  const psa = BRAND_CLIENTS.psa ?? SERVICE_CLIENT;
  let stack: OktaStack;
  beforeAll(async () => {
    stack = await startOktaStack({
      brandClientAuth: { psa: 'client_secret_post' },
      env: {
        BRAND_CLIENTS: JSON.stringify({
          ...BRAND_CLIENTS,
          psa: { ...psa, authMethod: 'client_secret_post' },
        }),
      },
    });
  }, 60_000);
  afterAll(() => stack?.close());

  it('the hop’s grant and the revocation at sign-out use the brand’s own method', async () => {
    const { browser, landed } = await signInThroughOkta(stack, OKTA_USERS.plain, 'b=psa');
    expect(where(landed).origin).toBe('https://www.psacard.com');
    await signOutFromThisSite(browser, `${stack.url}/logout/collectorsid?b=psa`);
    const ofPsa = async () =>
      (await stack.idp.clientAuthentications()).filter((a) => a.client_id === psa.clientId);
    await eventually('the brand’s refresh token is revoked', async () =>
      (await ofPsa()).some((a) => a.path === '/v1/revoke'),
    );
    const calls = await ofPsa();
    expect(calls.map((a) => a.path)).toEqual(expect.arrayContaining(['/v1/token', '/v1/revoke']));
    expect(calls.filter((a) => a.method !== 'client_secret_post' || a.status !== 200)).toEqual([]);
    // The service's own app kept Okta's default.
    const own = (await stack.idp.clientAuthentications()).filter(
      (a) => a.client_id === SERVICE_CLIENT.clientId,
    );
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((a) => a.method === 'client_secret_basic')).toBe(true);
  });
});

describe('a method the Okta app is not registered with', () => {
  let stack: OktaStack;
  beforeAll(async () => {
    // The app takes client_secret_post; the service sends Okta's default, client_secret_basic.
    stack = await startOktaStack({
      serviceClientAuth: { tokenEndpointAuthMethod: 'client_secret_post' },
    });
  }, 60_000);
  afterAll(() => stack?.close());

  it('fails the sign-in clearly: SigninFailed, invalid_client logged, no secret in the logs', async () => {
    const browser = stack.browser();
    const start = await browser.get(`${stack.url}/signin?b=collectors`);
    const landing = await throughOkta(browser, start, OKTA_USERS.plain);
    const page = await browser.request(landing.href, { headers: { accept: 'text/html' } });

    // Okta answered, and said no: a failed sign-in, not an outage, and no session.
    expect(page.status).toBe(400);
    expect(pageText(page.body)).toContain('Error code: SigninFailed');
    expect(page.headers.getSetCookie().join('\n')).not.toMatch(/sessionId=[^;]/);
    const refused = (await stack.idp.clientAuthentications()).filter(
      (a) => a.client_id === SERVICE_CLIENT.clientId,
    );
    expect(refused).toEqual([
      {
        path: '/v1/token',
        client_id: SERVICE_CLIENT.clientId,
        method: 'client_secret_basic',
        status: 401,
      },
    ]);

    const id = page.headers.get('x-request-id') ?? '';
    let line: Record<string, unknown> | undefined;
    await eventually('the failure is logged with Okta’s error', () => {
      line = stack.app
        .logs()
        .find((l) => l.correlationId === id && JSON.stringify(l).includes('invalid_client'));
      return Promise.resolve(line !== undefined);
    });
    expect(line).toMatchObject({ error: 'SigninFailed' });
    // Neither the secret nor the Basic header that carries it reaches a log line.
    const logs = JSON.stringify(stack.app.logs());
    const basic = Buffer.from(`${SERVICE_CLIENT.clientId}:${SERVICE_CLIENT.clientSecret}`);
    expect(logs).not.toContain(SERVICE_CLIENT.clientSecret);
    expect(logs).not.toContain(basic.toString('base64'));
    // The IdP's health is not touched: a refusal is an answer.
    const health = (await (await fetch(`http://127.0.0.1:${stack.app.port}/healthz`)).json()) as {
      details?: { idp?: { status: string } };
    };
    expect(health.details?.idp?.status).toBe('up');
  });
});

describe('sign-out of a session begun from t (no ID token)', () => {
  let stack: OktaStack;
  beforeAll(async () => {
    stack = await startOktaStack();
  }, 60_000);
  afterAll(() => stack?.close());

  /** A browser signed in here from a brand's `t` alone, and the browser that signed in at Okta. */
  async function signedInFromT(): Promise<{ okta: Browser; fromT: Browser }> {
    const { browser: okta, landed } = await signInThroughOkta(stack, OKTA_USERS.plain, 'b=psa');
    const t = where(landed).searchParams.get('t') ?? '';
    const fromT = stack.browser();
    const back = await fromT.request(`${stack.url}/collection?t=${t}`, {
      headers: CROSS_SITE_NAVIGATION,
    });
    const offer = await fromT.get(where(back).href);
    const done = await pressOnConfirmation(stack, fromT, offer, 'continue', {
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    });
    expect(where(done).href).toBe(`${stack.url}/collection`);
    expect((await accountStatusOf(stack, fromT)).body).toMatchObject({
      result: { data: { isSignedIn: true } },
    });
    return { okta, fromT };
  }

  it('Okta refuses a logout without id_token_hint (400), as the service knows', async () => {
    const logout = new URL(`${stack.idp.issuer}/v1/logout`);
    logout.searchParams.set('post_logout_redirect_uri', `${stack.url}/handlelogoutredirect`);
    logout.searchParams.set('state', 'x');
    expect((await trustingFetch(logout.href, { redirect: 'manual' })).status).toBe(400);
  });

  it('ends the session here and goes straight to the landing, not to Okta; Okta’s session stays', async () => {
    const { okta, fromT } = await signedInFromT();
    const out = await signOutFromThisSite(fromT, `${stack.url}/logout/collectorsid?b=psa`);
    expect(out.status).toBe(302);
    const landing = where(out);
    expect(landing.origin).toBe(stack.url);
    expect(landing.pathname).toBe('/handlelogoutredirect');
    expect(landing.searchParams.get('state')).toBeTruthy();
    expect(out.headers.getSetCookie().join('\n')).toMatch(/sessionId=;/);

    // The landing page is the one every sign-out reaches, and names the sign-out as done.
    const page = await fromT.get(landing.href);
    expect(page.status).toBe(200);
    expect(page.body).toContain('"signedOut":true');
    expect((await accountStatusOf(stack, fromT)).body).toMatchObject({
      result: { data: { isSignedIn: false } },
    });

    // Okta was never asked: the collector's Okta session (in the browser that signed in there)
    // still signs them in without a password.
    const again = await okta.get(`${stack.url}/signin?b=collectors`);
    const back = await okta.follow(
      again,
      (next) => new URL(next).pathname === '/handleloginredirect',
    );
    expect(new URL(back.url).pathname).not.toBe('/interaction');
    expect(back.body).not.toContain('name="password"');
  });
});
