import { readFileSync, readdirSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type JWK, type JWTPayload, SignJWT, exportJWK, generateKeyPair } from 'jose';
import {
  BRAND_SITE_MAIN,
  BrandSite,
  brandSiteAddress,
  startBrandSite,
} from '../support/brand-site';
import { freePort } from '../support/free-port';

const EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const BRAND = { clientId: 'brand-psa', clientSecret: 'psa-secret' };
const APP = { clientId: 'brand-psamobile', clientSecret: 'app-secret' };

type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

/** A token's changes from the good one: claims and header fields (undefined removes one), its key. */
interface Change {
  readonly claims?: JWTPayload;
  readonly header?: Record<string, unknown>;
  /** Signed with a key nobody publishes. */
  readonly stranger?: boolean;
}

describe('the reference brand site stands alone (examples/brand-site)', () => {
  const dir = path.dirname(BRAND_SITE_MAIN);
  const read = (file: string) => readFileSync(path.join(dir, file), 'utf8');

  it('imports only Node, its three libraries and its own files: nothing of the service', () => {
    const specifiers = readdirSync(dir)
      .filter((name) => name.endsWith('.mjs'))
      .flatMap((file) => [...read(file).matchAll(/^import [^;]* from '([^']+)';$/gm)])
      .map((match) => match[1]);
    expect(specifiers.length).toBeGreaterThan(10);
    for (const specifier of specifiers)
      expect(specifier).toMatch(
        /^(node:\w+|jose|@okta\/jwt-verifier|openid-client|\.\/[\w-]+\.mjs)$/,
      );
  });

  it('lists its libraries at the versions the service installs', () => {
    const own = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
    const root = JSON.parse(readFileSync(path.resolve(dir, '../../package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    for (const [name, version] of Object.entries(own.dependencies))
      expect([name, version]).toEqual([
        name,
        root.dependencies[name] ?? root.devDependencies[name],
      ]);
  });
});

/**
 * Issue 49 item 8: what the reference brand site (examples/brand-site) refuses, each case on its own.
 * In place of the sign-on service and its IdP, one small server publishes their public keys (the
 * service's at /.well-known/jwks.json, the IdP's at /oauth2/default/v1/keys), so that the test signs
 * the tokens, good and bad. The browser journeys (test/browser/brand-site.spec.ts) run it against the
 * real service and both IdPs.
 */
describe('the reference brand site’s checks (examples/brand-site)', () => {
  let keys: { service: Key; idp: Key; stranger: Key };
  let server: http.Server;
  let signonUrl: string;
  let issuer: string;
  let site: BrandSite;

  beforeAll(async () => {
    const pair = () => generateKeyPair('RS256', { extractable: true });
    const [service, idp, stranger] = await Promise.all([pair(), pair(), pair()]);
    keys = { service: service.privateKey, idp: idp.privateKey, stranger: stranger.privateKey };
    const jwks = async (key: Key, kid: string): Promise<{ keys: JWK[] }> => ({
      keys: [{ ...(await exportJWK(key)), kid, alg: 'RS256', use: 'sig' }],
    });
    const published = {
      '/.well-known/jwks.json': await jwks(service.publicKey, 'service'),
      '/oauth2/default/v1/keys': await jwks(idp.publicKey, 'idp'),
    };
    const port = await freePort();
    signonUrl = `http://127.0.0.1:${port}`;
    issuer = `${signonUrl}/oauth2/default`;
    server = http.createServer((req, res) => {
      const body = published[(req.url ?? '') as keyof typeof published];
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body ?? {}));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    site = await startBrandSite({
      address: await brandSiteAddress(),
      brand: 'psa',
      signonUrl,
      idpIssuer: issuer,
      client: BRAND,
      app: APP,
    });
  }, 30_000);
  afterAll(async () => {
    await site?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  const now = () => Math.floor(Date.now() / 1000);

  /** A logout token as the service signs one, changed by `change`. */
  async function logoutToken(change: Change = {}): Promise<string> {
    const claims: JWTPayload = {
      iss: signonUrl,
      aud: BRAND.clientId,
      iat: now(),
      exp: now() + 120,
      jti: randomUUID(),
      sub: 'user-1',
      sid: 'si-1',
      events: { [EVENT]: {} },
      ...change.claims,
    };
    const header = { alg: 'RS256', typ: 'logout+jwt', kid: 'service', ...change.header };
    return new SignJWT(claims)
      .setProtectedHeader(header)
      .sign(change.stranger ? keys.stranger : keys.service);
  }

  async function postLogout(token: string, type = 'application/x-www-form-urlencoded') {
    const body =
      type === 'application/json'
        ? JSON.stringify({ logout_token: token })
        : new URLSearchParams({ logout_token: token }).toString();
    const res = await fetch(`${site.url}/backchannel-logout`, {
      method: 'POST',
      headers: { 'content-type': type },
      body,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('takes a logout token as the service sends it (200), for its app’s client too, and only once', async () => {
    const token = await logoutToken();
    expect(await postLogout(token)).toEqual({ status: 200, body: {} });
    expect(
      await postLogout(await logoutToken({ claims: { aud: APP.clientId, sid: undefined } })),
    ).toEqual({ status: 200, body: {} });
    expect(await postLogout(token)).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: 'replayed (jti seen before)' },
    });
  });

  it.each<[string, Change, string]>([
    ['typ JWT (an ID token’s)', { header: { typ: 'JWT' } }, 'unexpected "typ" JWT header value'],
    ['no typ', { header: { typ: undefined } }, 'unexpected "typ" JWT header value'],
    [
      'another issuer',
      { claims: { iss: 'https://login.collectors.com/oauth2/default' } },
      'unexpected "iss" claim value',
    ],
    [
      'another client’s audience',
      { claims: { aud: 'brand-pcgs' } },
      'unexpected "aud" claim value',
    ],
    ['a key the service does not publish', { stranger: true }, 'signature verification failed'],
    ['no events claim', { claims: { events: undefined } }, 'missing required "events" claim'],
    [
      'events without the back-channel logout event',
      { claims: { events: { other: {} } } },
      'no back-channel logout event',
    ],
    ['a nonce', { claims: { nonce: 'n-1' } }, 'a nonce claim'],
    ['neither sub nor sid', { claims: { sub: undefined, sid: undefined } }, 'neither sub nor sid'],
    ['no jti', { claims: { jti: undefined } }, 'missing required "jti" claim'],
    [
      'an iat ten minutes old',
      { claims: { iat: now() - 600, exp: now() + 60 } },
      '"iat" claim timestamp check failed (too far in the past)',
    ],
    [
      'an exp past',
      { claims: { iat: now() - 130, exp: now() - 65 } },
      '"exp" claim timestamp check failed',
    ],
  ])('refuses a logout token with %s (400)', async (_what, change, reason) => {
    expect(await postLogout(await logoutToken(change))).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: reason },
    });
  });

  it('answers 503 when it cannot read the service’s keys, so that the service tries again', async () => {
    const unreachable = `http://127.0.0.1:${await freePort()}`;
    const cut = await startBrandSite({
      address: await brandSiteAddress(),
      brand: 'psa',
      signonUrl: unreachable,
      idpIssuer: issuer,
      client: BRAND,
    });
    try {
      const token = await logoutToken({ claims: { iss: unreachable } });
      const res = await fetch(`${cut.url}/backchannel-logout`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ logout_token: token }).toString(),
      });
      expect(res.status).toBe(503);
    } finally {
      await cut.close();
    }
  });

  it('refuses a logout token that is not a form post (400)', async () => {
    const answer = await postLogout(await logoutToken(), 'application/json');
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  /** An access token as the IdP issues one to psa's client. */
  function accessToken(change: Change = {}) {
    const claims = {
      iss: issuer,
      aud: 'api://default',
      iat: now(),
      exp: now() + 3600,
      jti: randomUUID(),
      cid: BRAND.clientId,
      uid: '00u-collector',
      sub: 'collector@example.com',
      CollectorsId: '4242',
      ...change.claims,
    };
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'idp', ...change.header })
      .sign(change.stranger ? keys.stranger : keys.idp);
  }

  async function callback(t: string, r?: string) {
    const query = new URLSearchParams({
      si: `si-${randomUUID()}`,
      t,
      rt: 'rt-1',
      ...(r ? { r } : {}),
    });
    return fetch(`${site.url}/auth/signin-callback?${query}`, { redirect: 'manual' });
  }

  it('takes t with Okta’s header (no typ) or the embedded IdP’s (at+jwt), keyed on uid; r only on its own origin', async () => {
    const plain = await callback(await accessToken(), `${site.url}/somewhere`);
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe(`${site.url}/somewhere`);
    expect(plain.headers.get('referrer-policy')).toBe('no-referrer');
    expect(plain.headers.get('set-cookie')).toMatch(
      /^brand_site_session=[\w-]{43}; .*HttpOnly; SameSite=Lax/,
    );
    const typed = await callback(
      await accessToken({ header: { typ: 'at+jwt' } }),
      'https://evil.example/',
    );
    expect(typed.status).toBe(303);
    expect(typed.headers.get('location')).toBe('/account');
    const { sessions } = await site.state();
    expect(sessions.slice(-2)).toEqual([
      expect.objectContaining({ uid: '00u-collector', collectorsId: 4242 }),
      expect.objectContaining({ uid: '00u-collector', collectorsId: 4242 }),
    ]);
  });

  it.each<[string, Change, string]>([
    ['signed by another key', { stranger: true }, 'signature verification failed'],
    ['for another audience', { claims: { aud: 'api://other' } }, 'unexpected "aud" claim value'],
    [
      'of another issuer',
      { claims: { iss: 'https://signin.collectors.com' } },
      'unexpected "iss" claim value',
    ],
    ['issued to another client', { claims: { cid: 'brand-pcgs' } }, 'issued to brand-pcgs'],
    [
      'expired',
      { claims: { iat: now() - 7200, exp: now() - 3600 } },
      '"exp" claim timestamp check failed',
    ],
    ['without uid', { claims: { uid: undefined } }, 'missing required "uid" claim'],
    ['of a two-day lifetime', { claims: { exp: now() + 2 * 86_400 } }, 'lifetime too long'],
  ])('refuses t %s: 400, no session', async (_what, change, reason) => {
    const before = (await site.state()).sessions.length;
    const res = await callback(await accessToken(change));
    expect(res.status).toBe(400);
    expect(res.headers.get('set-cookie')).toBeNull();
    const page = (await res.text()).replace(/&quot;/g, '"');
    expect(page).toContain(`the access token did not verify: ${reason}`);
    expect((await site.state()).sessions).toHaveLength(before);
  });

  it('ends the sessions a logout token names: by sid (and its sub), or every one of sub, of its client only', async () => {
    const uid = `00u-${randomUUID()}`;
    const signIn = async (si: string) => {
      const query = new URLSearchParams({ si, t: await accessToken({ claims: { uid } }) });
      const res = await fetch(`${site.url}/auth/signin-callback?${query}`, { redirect: 'manual' });
      expect(res.status).toBe(303);
    };
    const [a, b] = [`si-a-${uid}`, `si-b-${uid}`];
    await signIn(a);
    await signIn(b);
    const ended = async (claims: JWTPayload) =>
      (await postLogout(await logoutToken({ claims }))).status === 200
        ? ((await site.state()).logoutTokens.at(-1)?.endedSessions ?? -1)
        : -1;
    expect(await ended({ sub: 'someone-else', sid: a })).toBe(0);
    expect(await ended({ sub: uid, sid: a })).toBe(1);
    // The app's client never received these sessions.
    expect(await ended({ aud: APP.clientId, sub: uid, sid: undefined })).toBe(0);
    expect(await ended({ sub: uid, sid: undefined })).toBe(1);
    const mine = (await site.state()).sessions.filter((s) => s.uid === uid);
    expect(mine.map((s) => [s.si, s.endedBy])).toEqual([
      [a, 'back-channel-logout'],
      [b, 'back-channel-logout'],
    ]);
  });

  it('refuses a refresh posted from another site (403)', async () => {
    const res = await fetch(`${site.url}/refresh`, {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
  });
});
