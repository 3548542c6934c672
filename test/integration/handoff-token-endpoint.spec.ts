import * as http from 'node:http';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { ROUTES } from '../../src/shared/routes';
import { Browser } from '../support/browser';
import {
  basicAuth,
  brandClient as clientAtIdp,
  handoffKey,
  locationOf,
  signInVia,
  sqliteStoreRow,
} from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 49 item 6: the handoff exchange is an OAuth 2.0 token endpoint (RFC 6749 §4.1.3). A brand's
 * back end redeems the one-time code with an ordinary OAuth client library, by client_secret_basic
 * or client_secret_post, and every refusal an attacker can provoke is an RFC 6749 §5.2 error that
 * leaves the code as it was (only a code shown to the wrong client is burned).
 */

const LONG = 60_000;
type MobileBrand = 'psamobile' | 'ccmobile';

const t = useTestApp();
const tokenEndpoint = () => `${t.url}${ROUTES.handoffToken}`;

function credentials(brand: MobileBrand): { clientId: string; clientSecret: string } {
  const c = t.config.brandClients[brand];
  if (!c) throw new Error(`${brand} has a brand client in local`);
  return c;
}

/** A fresh handoff code: a real sign-in with b=<brand>, the brand's landing not followed. */
async function handoffCode(
  brand: MobileBrand = 'psamobile',
): Promise<{ code: string; si?: string }> {
  const { landing } = await signInVia(t, new Browser(), `b=${brand}`);
  const target = locationOf(landing);
  const code = target.searchParams.get('code');
  if (!code) throw new Error(`no handoff code in ${target.pathname}`);
  const si = target.searchParams.get('si');
  return { code, ...(si ? { si } : {}) };
}

/** Whether the code is still waiting in the store, read from the SQLite file itself. */
const stored = (code: string) => sqliteStoreRow(t, handoffKey(code)) !== undefined;

interface Sent {
  readonly authorization: string | null;
  readonly contentType: string | null;
  readonly body: URLSearchParams;
}
interface Received {
  readonly status: number;
  readonly headers: Headers;
}

/**
 * openid-client as a brand's back end configures it: the IdP is the issuer (the ID token is the
 * IdP's, issued to the brand's client), this service's handoff exchange the token endpoint. What it
 * sends and receives is recorded, to show which authentication method went over the wire.
 */
function brandClient(
  brand: MobileBrand,
  method: 'client_secret_basic' | 'client_secret_post',
): { config: client.Configuration; sent: Sent[]; received: Received[] } {
  const { clientId, clientSecret } = credentials(brand);
  const config = new client.Configuration(
    { issuer: t.config.idp.issuer, token_endpoint: tokenEndpoint() },
    clientId,
    undefined,
    method === 'client_secret_basic'
      ? client.ClientSecretBasic(clientSecret)
      : client.ClientSecretPost(clientSecret),
  );
  client.allowInsecureRequests(config);
  const sent: Sent[] = [];
  const received: Received[] = [];
  config[client.customFetch] = async (url, options) => {
    const headers = new Headers(options.headers);
    sent.push({
      authorization: headers.get('authorization'),
      contentType: headers.get('content-type'),
      // openid-client hands the token request's parameters over as URLSearchParams.
      body: new URLSearchParams(options.body instanceof URLSearchParams ? options.body : ''),
    });
    const res = await fetch(url, options as RequestInit);
    received.push({ status: res.status, headers: res.headers });
    return res;
  };
  return { config, sent, received };
}

/** The redirect_uri a library sends: the callback the app was opened with. */
const APP_CALLBACK = 'psacard://auth/callback';

/** A token request over plain fetch, to send exactly the malformed thing an attacker would. */
async function post(
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const res = await fetch(tokenEndpoint(), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
  return {
    status: res.status,
    headers: res.headers,
    json: (await res.json()) as Record<string, unknown>,
  };
}

const form = (parameters: Record<string, string>) => new URLSearchParams(parameters).toString();
const basicOf = (brand: MobileBrand, secret = credentials(brand).clientSecret) =>
  basicAuth(credentials(brand).clientId, secret);

describe('POST /api/handoff/token redeemed by openid-client (RFC 6749 §4.1.3)', () => {
  const jwks = () => createRemoteJWKSet(new URL(`${t.config.idp.issuer}/v1/keys`));

  it(
    'client_secret_basic: the tokens once, not cached, and the same code refused after',
    async () => {
      const { code } = await handoffCode('psamobile');
      const { config, sent, received } = brandClient('psamobile', 'client_secret_basic');
      const tokens = await client.genericGrantRequest(config, 'authorization_code', {
        code,
        redirect_uri: APP_CALLBACK,
      });

      const [request] = sent;
      expect(request?.authorization).toMatch(/^Basic /);
      expect(request?.contentType).toBe('application/x-www-form-urlencoded;charset=UTF-8');
      expect(Object.fromEntries(request?.body ?? [])).toEqual({
        grant_type: 'authorization_code',
        code,
        redirect_uri: APP_CALLBACK,
      });

      expect(received[0]?.status).toBe(200);
      expect(received[0]?.headers.get('cache-control')).toBe('no-store');
      expect(received[0]?.headers.get('pragma')).toBe('no-cache');
      expect(tokens).toMatchObject({
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        token_type: 'bearer', // openid-client lower-cases it; the service sends "Bearer"
      });
      expect(tokens).not.toHaveProperty('id_token');
      expect(tokens.expires_in).toBeGreaterThan(0);
      expect(tokens).not.toHaveProperty('session_id'); // psamobile gets no session (§4 step 5)
      // The IdP's own access token for the API audience, issued to the app's own client (issue 49
      // item 3).
      const { payload } = await jwtVerify(tokens.access_token, jwks(), {
        issuer: t.config.idp.issuer,
        audience: t.config.idp.audience,
      });
      expect(payload.cid).toBe(credentials('psamobile').clientId);
      expect(stored(code)).toBe(false);

      // Used once: the library reports the RFC 6749 §5.2 error.
      await expect(
        client.genericGrantRequest(config, 'authorization_code', {
          code,
          redirect_uri: APP_CALLBACK,
        }),
      ).rejects.toMatchObject({ status: 400, error: 'invalid_grant' });
    },
    LONG,
  );

  it(
    'client_secret_post: the credentials in the body, and the session_id extension for a brand with a session',
    async () => {
      const { code, si } = await handoffCode('ccmobile');
      expect(si).toEqual(expect.any(String)); // ccmobile gets a session (§4 step 5)
      const { config, sent } = brandClient('ccmobile', 'client_secret_post');
      const tokens = await client.genericGrantRequest(config, 'authorization_code', {
        code,
        redirect_uri: APP_CALLBACK,
      });
      const [request] = sent;
      expect(request?.authorization).toBeNull();
      expect(Object.fromEntries(request?.body ?? [])).toEqual({
        grant_type: 'authorization_code',
        code,
        redirect_uri: APP_CALLBACK,
        client_id: credentials('ccmobile').clientId,
        client_secret: credentials('ccmobile').clientSecret,
      });
      expect(tokens.token_type).toBe('bearer');
      expect(decodeJwt(tokens.access_token).aud).toBe(t.config.idp.audience);
      expect(tokens.session_id).toBe(si);
    },
    LONG,
  );

  it(
    'authorizationCodeGrant, openid-client’s ordinary code-flow call, redeems it from the app’s callback URL',
    async () => {
      const { code } = await handoffCode('psamobile');
      const { config, received } = brandClient('psamobile', 'client_secret_basic');
      const callback = new URL(`${APP_CALLBACK}?code=${encodeURIComponent(code)}`);
      const tokens = await client.authorizationCodeGrant(config, callback);
      expect(received.map((r) => r.status)).toEqual([200]);
      expect(decodeJwt(tokens.access_token)).toMatchObject({
        cid: credentials('psamobile').clientId,
        uid: expect.any(String),
      });
      expect(tokens.refresh_token).toEqual(expect.any(String));
    },
    LONG,
  );

  it(
    'the app refreshes the rt it redeemed at the IdP with its own client (refreshTokenGrant): 200, cid its client id',
    async () => {
      const { code } = await handoffCode('psamobile');
      const { config } = brandClient('psamobile', 'client_secret_basic');
      const callback = new URL(`${APP_CALLBACK}?code=${encodeURIComponent(code)}`);
      const tokens = await client.authorizationCodeGrant(config, callback);
      const redeemed = decodeJwt(tokens.access_token);
      // The app's back end as any OAuth client of the IdP: discovery, its own id and secret.
      const atIdp = await clientAtIdp(t, 'psamobile');
      const statuses: number[] = [];
      atIdp[client.customFetch] = async (url, options) => {
        const res = await fetch(url, options as RequestInit);
        statuses.push(res.status);
        return res;
      };
      const refreshed = await client.refreshTokenGrant(atIdp, tokens.refresh_token ?? '');
      expect(statuses).toEqual([200]);
      expect(refreshed.access_token).not.toBe(tokens.access_token);
      const { payload } = await jwtVerify(refreshed.access_token, jwks(), {
        issuer: t.config.idp.issuer,
        audience: t.config.idp.audience,
      });
      expect(payload).toMatchObject({
        cid: credentials('psamobile').clientId,
        uid: redeemed.uid,
        sub: redeemed.sub,
      });
    },
    LONG,
  );
});

describe('POST /api/handoff/token: what an attacker gets (RFC 6749 §5.2), and that it changes nothing', () => {
  type Refusal = readonly [
    name: string,
    request: (code: string) => { body: string; headers?: Record<string, string> },
    status: 400 | 401,
    error: string,
  ];
  const basic = () => ({ authorization: basicOf('psamobile') });
  /** client_secret_post's two parameters. */
  const postAuth = (
    brand: MobileBrand = 'psamobile',
    secret = credentials(brand).clientSecret,
  ) => ({
    client_id: credentials(brand).clientId,
    client_secret: secret,
  });
  const GRANT = { grant_type: 'authorization_code' };

  /** Each a request that must be refused without touching the code it carries. */
  const REFUSALS: readonly Refusal[] = [
    [
      'a wrong secret (Basic)',
      (code) => ({
        body: form({ ...GRANT, code }),
        headers: { authorization: basicOf('psamobile', 'not-the-secret') },
      }),
      401,
      'invalid_client',
    ],
    [
      'a wrong secret (client_secret_post)',
      (code) => ({ body: form({ ...GRANT, code, ...postAuth('psamobile', 'not-the-secret') }) }),
      400,
      'invalid_client',
    ],
    [
      'no client authentication',
      (code) => ({ body: form({ ...GRANT, code }) }),
      401,
      'invalid_client',
    ],
    [
      'a missing grant_type',
      (code) => ({ body: form({ code }), headers: basic() }),
      400,
      'invalid_request',
    ],
    [
      'grant_type=refresh_token',
      (code) => ({
        body: form({ grant_type: 'refresh_token', refresh_token: code, code }),
        headers: basic(),
      }),
      400,
      'unsupported_grant_type',
    ],
    [
      'client_secret_basic and client_secret_post at once',
      (code) => ({ body: form({ ...GRANT, code, ...postAuth() }), headers: basic() }),
      400,
      'invalid_request',
    ],
    [
      'a body of 1 MiB',
      (code) => ({
        body: `${form({ ...GRANT, code })}&padding=${'x'.repeat(1024 * 1024)}`,
        headers: basic(),
      }),
      400,
      'invalid_request',
    ],
    [
      'the code twice',
      (code) => ({ body: `${form({ ...GRANT, code })}&code=${code}`, headers: basic() }),
      400,
      'invalid_request',
    ],
    [
      'malformed JSON',
      (code) => ({
        body: `{"code":"${code}"`,
        headers: { ...basic(), 'content-type': 'application/json' },
      }),
      400,
      'invalid_request',
    ],
    [
      'a media type that is neither form nor JSON',
      (code) => ({
        body: form({ ...GRANT, code }),
        headers: { ...basic(), 'content-type': 'text/plain' },
      }),
      400,
      'invalid_request',
    ],
    [
      'a gzip-encoded body',
      (code) => ({
        body: form({ ...GRANT, code }),
        headers: { ...basic(), 'content-encoding': 'gzip' },
      }),
      400,
      'invalid_request',
    ],
    [
      'an unknown code',
      () => ({ body: form({ ...GRANT, code: 'not-a-code' }), headers: basic() }),
      400,
      'invalid_grant',
    ],
  ];

  it(
    'each refusal is a JSON error with no-store, and the code still redeems afterwards',
    async () => {
      const { code } = await handoffCode('psamobile');
      for (const [name, request, status, error] of REFUSALS) {
        const { body, headers } = request(code);
        const res = await post(body, headers);
        const seen = { name, status: res.status, error: res.json.error };
        expect(seen).toEqual({ name, status, error });
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(Object.keys(res.json).sort()).toEqual(['error', 'error_description']);
        // RFC 6749 §5.2: a 401 names the scheme to use.
        if (status === 401) expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
        else expect(res.headers.get('www-authenticate')).toBeNull();
        expect({ name, stored: stored(code) }).toEqual({ name, stored: true });
      }
      const ok = await post(form({ ...GRANT, code }), basic());
      expect(ok.status).toBe(200);
      expect(ok.json.token_type).toBe('Bearer');
      const replay = await post(form({ ...GRANT, code }), basic());
      expect(replay.status).toBe(400);
      expect(replay.json.error).toBe('invalid_grant');
    },
    LONG,
  );

  it(
    'another brand’s code: invalid_grant, and the code is burned (it was shown to the wrong party)',
    async () => {
      const { code } = await handoffCode('psamobile');
      const other = await post(form({ ...GRANT, code, ...postAuth('ccmobile') }));
      expect(other.status).toBe(400);
      expect(other.json.error).toBe('invalid_grant');
      expect(stored(code)).toBe(false);
      const owner = await post(form({ ...GRANT, code }), basic());
      expect(owner.status).toBe(400);
      expect(owner.json.error).toBe('invalid_grant');
    },
    LONG,
  );

  it('a body over 16 KiB sent in chunks, without a Content-Length, is refused as it arrives', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(tokenEndpoint(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic() },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.write(`grant_type=authorization_code&code=x&padding=`);
      for (let i = 0; i < 20; i++) req.write('y'.repeat(1024));
      req.end();
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      error: 'invalid_request',
      error_description: 'the request body is too large',
    });
  });

  it('neither a code nor a secret reaches the log', async () => {
    const { code } = await handoffCode('psamobile');
    await post(form({ ...GRANT, code, ...postAuth('psamobile', 'not-the-secret') }));
    await post(form({ ...GRANT, code }), basic());
    expect(t.logs.text).not.toContain(code);
    expect(t.logs.text).not.toContain(credentials('psamobile').clientSecret);
  });
});
