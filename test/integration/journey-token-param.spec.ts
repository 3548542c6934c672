import { SignJWT, decodeJwt, generateKeyPair, importJWK } from 'jose';
import { IDP_STATE_STORE } from '../../src/idp/provider/idp-state-store';
import { SigningKeys } from '../../src/idp/provider/signing-keys';
import type { SessionStore } from '../../src/store/session-store';
import { Sessions } from '../../src/session/sessions';
import type { Browser, BrowserResponse } from '../support/browser';
import { NAVIGATION_HEADERS, NavigatingBrowser } from '../support/navigating-browser';
import {
  cookieAttributes,
  jarCookie,
  locationOf,
  setCookies,
  signInVia,
  sqliteStoreRow,
  signOutFromThisSite,
} from '../support/signin-journey';
import { TestApp, startTestApp, useTestApp } from '../support/test-app';

/**
 * Issue 14 item 7, "`t` means something" (§4 App start step 3, Token handling), over HTTP with cookie
 * jars against the real app, its embedded IdP and SQLite. Every `t` that should work is one a brand
 * really received: a collector signs in through /signin?b=psa in one jar, and the `t` of the brand
 * redirect is taken from there. Only the attack tests make tokens of their own.
 */

const LONG = 90_000;
const WARN = 40; // pino's level number for warn

/** A collector's browser: Fetch Metadata of a top-level navigation on every page visit. */
/**
 * A browser whose navigations come from this service (Sec-Fetch-Site: same-origin): its `t` signs in
 * at once. From another site, or a sibling host that is no brand, a `t` only offers the sign-in
 * (attack-t-login-csrf.spec, issue 32 item 1; attack-t-sibling-site.spec, issue 50 item 3).
 */
const newBrowser = () =>
  new NavigatingBrowser({ ...NAVIGATION_HEADERS, 'sec-fetch-site': 'same-origin' });

/** Signs `email` in through /signin?b=psa; returns the jar and the `t` PSA received. */
async function brandToken(
  t: TestApp,
  email = 'collector@example.com',
): Promise<{ browser: Browser; token: string; si: string }> {
  const browser = newBrowser();
  const { landing } = await signInVia(t, browser, 'b=psa', { email });
  const target = locationOf(landing);
  expect(target.pathname).toBe('/demo/brand/psa');
  const token = target.searchParams.get('t') ?? '';
  expect(token).not.toBe('');
  return { browser, token, si: target.searchParams.get('si') ?? '' };
}

/** The names of the cookies a response sets (not clears). */
function written(res: BrowserResponse): string[] {
  return [...setCookies(res)]
    .filter(([, header]) => cookieAttributes(header).get('max-age') !== '0')
    .map(([name]) => name)
    .sort();
}

/** The names of the cookies a response clears. */
function cleared(res: BrowserResponse): string[] {
  return [...setCookies(res)]
    .filter(([, header]) => cookieAttributes(header).get('max-age') === '0')
    .map(([name]) => name)
    .sort();
}

/** Warnings of one request (by the request id the response carries). */
function warningsOf(t: TestApp, res: BrowserResponse): Record<string, unknown>[] {
  const id = res.headers.get('x-request-id');
  return t.logs.records.filter(
    (r) => r.level === WARN && (r.req as { id?: string } | undefined)?.id === id,
  );
}

/** Whether the jar now reaches /collection as a signed-in collector (200) or is sent to /signin. */
async function collectionAs(t: TestApp, browser: Browser): Promise<'signed-in' | 'to-signin'> {
  const res = await browser.get(`${t.url}/collection`);
  if (res.status === 200) return 'signed-in';
  expect(res.status).toBe(302);
  expect(locationOf(res).pathname).toBe('/signin');
  return 'to-signin';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('`t` on a page signs in (issue 14 item 7)', () => {
  const t = useTestApp({
    RATE_LIMIT_SIGNIN: '100000/60',
    RATE_LIMIT_SIGNIN_SESSION: '100000/60',
  });

  it(
    "a brand's t opens /collection in a fresh jar, bound to it, and leaves the URL",
    async () => {
      const { token, si } = await brandToken(t);
      const claims = decodeJwt(token);

      const fresh = newBrowser();
      const first = await fresh.get(`${t.url}/collection?x=1&t=${encodeURIComponent(token)}`);
      // The token leaves the URL by a redirect to the same page, never cached, without a Referer.
      expect(first.status).toBe(302);
      expect(first.headers.get('location')).toBe('/collection?x=1');
      expect(first.headers.get('cache-control')).toBe('no-store');
      expect(first.headers.get('referrer-policy')).toBe('no-referrer');
      // A session of this browser's own: sessionId and its binding, both HttpOnly. No token cookie.
      expect(written(first)).toEqual(['sessionBinding', 'sessionId']);
      for (const header of setCookies(first).values())
        expect(cookieAttributes(header).has('httponly')).toBe(true);

      const page = await fresh.follow(first);
      expect(page.status).toBe(200);
      expect(page.url).toBe(`${t.url}/collection?x=1`);
      expect(page.body).not.toContain(token);
      // No request after the first carried t.
      for (const visited of fresh.history.slice(1)) expect(visited.url).not.toContain('t=');

      // The session: a new family, bound to this jar, recording where it came from; the token's
      // lifetime, no ID token, no refresh token.
      const sessions = t.app.get(Sessions);
      const sessionId = (await jarCookie(fresh, t.url, 'sessionId')) ?? '';
      const record = await sessions.get(sessionId);
      const brandSession = await sessions.get(si);
      expect(record).toMatchObject({
        startedBy: 'handed-over-token',
        collectorsId: claims.CollectorsId,
        // The user id the token names as `uid` (its `sub` is the login: issue 49 item 2).
        sub: claims.uid,
        tokens: { accessToken: token, expiresAt: claims.exp },
      });
      expect(record?.tokens.refreshToken).toBeUndefined();
      expect(record?.tokens.idToken).toBeUndefined();
      expect(record?.bindingHash).toEqual(expect.any(String));
      expect(record?.family).toEqual(expect.any(String));
      expect(record?.family).not.toBe(brandSession?.family);
      expect(sessionId).not.toBe(si);

      // Bound like any other: the sessionId cookie alone (another jar) signs nobody in.
      const thief = newBrowser();
      await thief.jar.setCookie(`sessionId=${sessionId}; Path=/`, t.url);
      expect(await collectionAs(t, thief)).toBe('to-signin');
      expect(await collectionAs(t, fresh)).toBe('signed-in');
    },
    LONG,
  );

  it(
    '/signin with t in a fresh jar: signed in by the token, straight on to the brand without the IdP',
    async () => {
      const { token } = await brandToken(t);
      const fresh = newBrowser();
      const first = await fresh.get(`${t.url}/signin?b=psa&t=${encodeURIComponent(token)}`);
      expect(first.headers.get('location')).toBe('/signin?b=psa');
      expect(written(first)).toEqual(['sessionBinding', 'sessionId']);
      const onward = locationOf(await fresh.get(`${t.url}/signin?b=psa`));
      expect(onward.pathname).toBe('/demo/brand/psa');
      // The session holds the handed-over access token only: that is what the brand gets, no rt.
      expect(onward.searchParams.get('t')).toBe(token);
      expect(onward.searchParams.has('rt')).toBe(false);
      expect(onward.searchParams.get('si')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    },
    LONG,
  );

  it(
    'a t of another collector while signed in is ignored and logged; the same collector’s changes nothing',
    async () => {
      const signedIn = await brandToken(t, 'collector@example.com');
      const other = await brandToken(t, 'japan@example.com');
      const mine = decodeJwt(signedIn.token).CollectorsId;
      const theirs = decodeJwt(other.token).CollectorsId;
      expect(theirs).not.toBe(mine);
      const browser = signedIn.browser;
      const sessionId = await jarCookie(browser, t.url, 'sessionId');
      const binding = await jarCookie(browser, t.url, 'sessionBinding');

      const res = await browser.get(`${t.url}/collection?t=${encodeURIComponent(other.token)}`);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/collection');
      expect(written(res)).toEqual([]);
      expect(await jarCookie(browser, t.url, 'sessionId')).toBe(sessionId);
      expect(await jarCookie(browser, t.url, 'sessionBinding')).toBe(binding);
      const record = await t.app.get(Sessions).get(sessionId);
      expect(record?.collectorsId).toBe(mine);
      expect(record?.startedBy).toBeUndefined();
      expect(warningsOf(t, res)).toEqual([
        expect.objectContaining({
          context: 'TokenParamSignin',
          reason: 'other-collector',
          path: '/collection',
          collectorsId: mine,
          tokenCollectorsId: theirs,
        }),
      ]);
      expect(t.logs.text).not.toContain(other.token);
      expect(await collectionAs(t, browser)).toBe('signed-in');

      // The signed-in collector's own t: nothing to do, nothing to warn about.
      const own = await browser.get(`${t.url}/collection?t=${encodeURIComponent(signedIn.token)}`);
      expect(own.headers.get('location')).toBe('/collection');
      expect(written(own)).toEqual([]);
      expect(warningsOf(t, own)).toEqual([]);
      expect(await jarCookie(browser, t.url, 'sessionId')).toBe(sessionId);
    },
    LONG,
  );

  it.each([
    ['a fetch (cors)', { 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }],
    ['an image (no-cors)', { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }],
    [
      'a frame (navigate, but not top-level)',
      { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' },
    ],
  ])(
    '%s with a valid t signs nobody in, and t still leaves the URL',
    async (_name, headers) => {
      const { token } = await brandToken(t);
      const sub = newBrowser();
      const res = await sub.request(`${t.url}/collection?t=${encodeURIComponent(token)}`, {
        headers,
      });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/collection');
      expect(written(res)).toEqual([]);
      expect(warningsOf(t, res)).toEqual([
        expect.objectContaining({ context: 'TokenParamSignin', reason: 'not-a-navigation' }),
      ]);
      expect(await collectionAs(t, sub)).toBe('to-signin');

      // The same token on a top-level navigation does sign in: it was the request, not the token.
      const top = newBrowser();
      const nav = await top.get(`${t.url}/collection?t=${encodeURIComponent(token)}`);
      expect(written(nav)).toEqual(['sessionBinding', 'sessionId']);
      expect(await collectionAs(t, top)).toBe('signed-in');
    },
    LONG,
  );

  it(
    'a browser that sends no Fetch Metadata is offered the sign-in, as from another site (issue 32 item 1); the logout landing never signs in',
    async () => {
      const { token } = await brandToken(t);
      const plain = new NavigatingBrowser({});
      const res = await plain.get(`${t.url}/collection?t=${encodeURIComponent(token)}`);
      expect(written(res)).toEqual(['signinBinding']);
      expect(res.headers.get('location')).toMatch(/^\/signin\/continue\?k=/);

      const leaving = newBrowser();
      const out = await leaving.get(`${t.url}/handlelogoutredirect?t=${encodeURIComponent(token)}`);
      expect(out.status).toBe(302);
      expect(out.headers.get('location')).toBe('/handlelogoutredirect');
      expect(written(out)).toEqual([]);
    },
    LONG,
  );
});

describe('attack: a forged, unsigned, expired, foreign or mistyped t signs nobody in (issue 14 item 7, issue 15 item 1)', () => {
  let t: TestApp;
  let legit: string;
  let idToken: string;
  const bad = new Map<string, { token: string; reason: string }>();

  beforeAll(async () => {
    t = await startTestApp({
      RATE_LIMIT_SIGNIN: '100000/60',
      RATE_LIMIT_SIGNIN_SESSION: '100000/60',
    });
    const { browser, token } = await brandToken(t);
    legit = token;
    const record = await t.app
      .get(Sessions)
      .get((await jarCookie(browser, t.url, 'sessionId')) ?? '');
    idToken = record?.tokens.idToken ?? '';

    const claims = decodeJwt(legit);
    const now = Math.floor(Date.now() / 1000);
    // The IdP's own current signing key: tokens it never issued but that carry a valid signature.
    const [jwk] = (await new SigningKeys(t.app.get<SessionStore>(IDP_STATE_STORE)).jwks()).keys;
    if (!jwk?.kid) throw new Error('no signing key');
    const idpKey = await importJWK(jwk, 'RS256');
    const header = { alg: 'RS256', typ: 'at+jwt', kid: jwk.kid };
    const signed = (extra: Record<string, unknown>) =>
      new SignJWT({ ...claims, ...extra }).setProtectedHeader(header).sign(idpKey);
    // A key of the attacker's own, published nowhere, under the IdP's key id.
    const attacker = await generateKeyPair('RS256');
    const forged = await new SignJWT({ ...claims, CollectorsId: 1 })
      .setProtectedHeader(header)
      .sign(attacker.privateKey);
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64(claims)}.`;
    // HS256 keyed with the IdP's public key, which anyone can fetch (algorithm confusion).
    const confused = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: jwk.kid })
      .sign(new TextEncoder().encode(JSON.stringify({ kty: 'RSA', n: jwk.n, e: jwk.e })));

    bad.set('forged (another key)', { token: forged, reason: 'invalid' });
    // Its empty signature is refused by shape, before parsing (issue 15 item 1).
    bad.set('unsigned (alg none)', { token: unsigned, reason: 'malformed' });
    bad.set('HS256 with the public key', { token: confused, reason: 'invalid' });
    bad.set('expired an hour ago', {
      token: await signed({ iat: now - 7200, exp: now - 3600 }),
      reason: 'expired',
    });
    bad.set('expired inside the clock tolerance', {
      token: await signed({ iat: now - 600, exp: now - 2 }),
      reason: 'expired',
    });
    bad.set('another audience', { token: await signed({ aud: 'api://other' }), reason: 'invalid' });
    bad.set('another issuer', {
      token: await signed({ iss: 'https://login.example/oauth2/default' }),
      reason: 'invalid',
    });
    bad.set('another client (cid)', {
      token: await signed({ cid: 'another-application' }),
      reason: 'other-client',
    });
    bad.set('the ID token', { token: idToken, reason: 'invalid' });
    // Issue 15 item 1: correctly signed by the IdP, yet no access token (RFC 9068 §4, RFC 8725 §3.11).
    const typed = (typ: string, extra: Record<string, unknown> = {}) =>
      new SignJWT({ ...claims, ...extra })
        .setProtectedHeader({ alg: 'RS256', typ, kid: jwk.kid })
        .sign(idpKey);
    const { sub: _sub, ...withoutSub } = claims;
    const { uid: _uid, ...withoutUid } = claims;
    bad.set('typ logout+jwt', { token: await typed('logout+jwt'), reason: 'invalid' });
    bad.set('typ JWT', { token: await typed('JWT'), reason: 'invalid' });
    bad.set('no sub', {
      token: await new SignJWT(withoutSub).setProtectedHeader(header).sign(idpKey),
      reason: 'invalid',
    });
    // Issue 49 item 2: the user id is the only collector key; `sub` is the login.
    bad.set('no uid', {
      token: await new SignJWT(withoutUid).setProtectedHeader(header).sign(idpKey),
      reason: 'no-subject',
    });
    bad.set('iat in the future', { token: await signed({ iat: now + 3600 }), reason: 'invalid' });
    bad.set('exp 1e308', { token: await signed({ exp: 1e308 }), reason: 'invalid' });
    bad.set('a lifetime over the maximum', {
      token: await signed({ iat: now - 60, exp: now + 8 * 86_400 }),
      reason: 'invalid',
    });
    bad.set('a Bearer prefix', { token: `Bearer ${legit}`, reason: 'malformed' });
    bad.set('a CR LF after it', { token: `${legit}\r\n`, reason: 'malformed' });
    bad.set('two tokens joined by a comma', { token: `${legit},${legit}`, reason: 'malformed' });
    bad.set('tampered payload', {
      token: legit.replace(/\.[^.]+\./, `.${b64({ ...claims, CollectorsId: 1 })}.`),
      reason: 'invalid',
    });
  }, LONG);
  afterAll(() => t.close());

  it('the control: the brand’s own t does sign a fresh jar in', async () => {
    const browser = newBrowser();
    const res = await browser.get(`${t.url}/collection?t=${encodeURIComponent(legit)}`);
    expect(written(res)).toEqual(['sessionBinding', 'sessionId']);
    expect(await collectionAs(t, browser)).toBe('signed-in');
  });

  it.each([
    'forged (another key)',
    'unsigned (alg none)',
    'HS256 with the public key',
    'expired an hour ago',
    'expired inside the clock tolerance',
    'another audience',
    'another issuer',
    'another client (cid)',
    'the ID token',
    'tampered payload',
    // Issue 15 item 1.
    'typ logout+jwt',
    'typ JWT',
    'no sub',
    'no uid',
    'iat in the future',
    'exp 1e308',
    'a lifetime over the maximum',
    'a Bearer prefix',
    'a CR LF after it',
    'two tokens joined by a comma',
  ])('%s: no session, t leaves the URL, the reason is logged without the token', async (name) => {
    const { token, reason } = bad.get(name) ?? { token: '', reason: '' };
    expect(token).not.toBe('');
    const browser = newBrowser();
    const res = await browser.get(`${t.url}/collection?t=${encodeURIComponent(token)}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/collection');
    expect(written(res)).toEqual([]);
    expect(warningsOf(t, res)).toEqual([
      expect.objectContaining({ context: 'TokenParamSignin', reason, path: '/collection' }),
    ]);
    expect(t.logs.text).not.toContain(token);
    expect(await collectionAs(t, browser)).toBe('to-signin');
  });
});

describe('with short-lived access tokens (IDP_ACCESS_TOKEN_TTL_SECONDS)', () => {
  const TTL = 8;
  const t = useTestApp({ IDP_ACCESS_TOKEN_TTL_SECONDS: String(TTL) });

  it(
    "a t-session lasts the token's lifetime, then ends (and /signin goes through the IdP again)",
    async () => {
      const signedIn = await brandToken(t);
      const { exp } = decodeJwt(signedIn.token);
      if (exp === undefined) throw new Error('no exp');
      expect(exp - Date.now() / 1000).toBeLessThanOrEqual(TTL);

      const fresh = newBrowser();
      await fresh.get(`${t.url}/collection?t=${encodeURIComponent(signedIn.token)}`);
      const sessionId = (await jarCookie(fresh, t.url, 'sessionId')) ?? '';
      expect(await collectionAs(t, fresh)).toBe('signed-in');
      // The store forgets the session when the token expires, not in a year (§9 is for sessions a
      // refresh token can keep alive).
      const sessions = t.app.get(Sessions);
      const row = sqliteStoreRow(t, await sessions.keyOf(sessionId));
      expect(row?.expiresAt).toBeGreaterThan(Date.now());
      expect(Math.abs((row?.expiresAt ?? 0) - exp * 1000)).toBeLessThanOrEqual(1500);

      // Still signed in inside the last 30 s (no refresh margin without a refresh token), until exp.
      await sleep(exp * 1000 - Date.now() + 1200);
      expect(await collectionAs(t, fresh)).toBe('to-signin');
      expect(await sessions.get(sessionId)).toBeUndefined();
      const again = await fresh.get(`${t.url}/signin?b=psa`);
      expect(locationOf(again).href).toMatch(`${t.config.idp.issuer}/v1/authorize?`);

      // The IdP sign-in of the first jar has a refresh token: it is refreshed, not ended.
      expect(await collectionAs(t, signedIn.browser)).toBe('signed-in');
    },
    LONG,
  );

  it(
    'token cookies: never written, not after a refresh either; stale ones are cleared; sign-out clears them',
    async () => {
      const browser = newBrowser();
      const { landing } = await signInVia(t, browser, 'b=psa');
      const landingToken = locationOf(landing).searchParams.get('t') ?? '';
      // The landing writes the session cookies only, and the binding of the silent trip to the IdP
      // for the brand's own grant (issue 31 item 4); the landing of that grant writes none.
      const first = browser.history.find((r) => new URL(r.url).pathname === '/handleloginredirect');
      expect(first && written(first)).toEqual(['sessionBinding', 'sessionId', 'signinBinding']);
      expect(written(landing)).toEqual([]);

      // A short-lived token is refreshed on the next read (it is inside the refresh margin).
      const sessions = t.app.get(Sessions);
      const sessionId = (await jarCookie(browser, t.url, 'sessionId')) ?? '';
      const before = await sessions.get(sessionId);
      const page = await browser.get(`${t.url}/collection`);
      expect(page.status).toBe(200);
      const after = await sessions.get(sessionId);
      expect(after?.tokens.accessToken).not.toBe(before?.tokens.accessToken);
      expect(after?.tokens.refreshToken).not.toBe(before?.tokens.refreshToken);
      expect(after?.tokens.accessToken).not.toBe(landingToken);
      // No token cookie after the refresh, so none can be stale.
      expect(written(page)).toEqual([]);
      const jarNames = (await browser.jar.getCookies(t.url)).map((c) => c.key);
      expect(jarNames).not.toContain('accessToken');
      expect(jarNames).not.toContain('refreshToken');

      // Token cookies an earlier version left behind (plain and JSON-wrapped) are cleared.
      await browser.jar.setCookie('accessToken=eyJhbGciOiJSUzI1NiJ9.e30.c2ln; Path=/', t.url);
      await browser.jar.setCookie(
        `refreshToken=${encodeURIComponent(JSON.stringify({ refreshToken: 'old' }))}; Path=/`,
        t.url,
      );
      const cleaning = await browser.get(`${t.url}/collection`);
      expect(cleaning.status).toBe(200);
      expect(cleared(cleaning)).toEqual(['accessToken', 'refreshToken']);
      expect((await browser.jar.getCookies(t.url)).map((c) => c.key)).not.toContain('accessToken');

      // Sign-out clears the three token cookies (§4 Sign-out step 2) and the binding.
      const out = await signOutFromThisSite(browser, `${t.url}/logout/collectorsid?b=psa`);
      expect(cleared(out)).toEqual(['accessToken', 'refreshToken', 'sessionBinding', 'sessionId']);
      const left = (await browser.jar.getCookies(t.url)).map((c) => c.key);
      for (const name of ['accessToken', 'refreshToken', 'sessionId', 'sessionBinding'])
        expect(left).not.toContain(name);
      expect(await sessions.get(sessionId)).toBeUndefined();
    },
    LONG,
  );
});
