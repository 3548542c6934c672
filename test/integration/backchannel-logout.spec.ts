import {
  SignJWT,
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import { BACKCHANNEL_LOGOUT_EVENT } from '../../src/backchannel/logout-token';
import { IDP_STATE_STORE } from '../../src/idp/provider/idp-state-store';
import { SigningKeys } from '../../src/idp/provider/signing-keys';
import { SESSION_STORE, type SessionStore } from '../../src/store/session-store';
import { Sessions } from '../../src/session/sessions';
import { Browser, BrowserResponse } from '../support/browser';
import { LogoutEndpoint } from '../support/logout-endpoint';
import {
  basicAuth,
  exchangeHandoff,
  jarCookie,
  locationOf,
  signInVia,
  sqliteStoreRow,
  throughBrandGrant,
  signOutFromThisSite,
  throughIdp,
} from '../support/signin-journey';
import { TestApp, startTestApp } from '../support/test-app';

async function until<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('back-channel logout (issue 7, OpenID Connect Back-Channel Logout 1.0)', () => {
  let t: TestApp;
  const psa = new LogoutEndpoint([503, 200]);
  const pcgs = new LogoutEndpoint([200]);
  const refusing = new LogoutEndpoint([400]);
  /** A brand that registered an endpoint, but that these collectors never came through. */
  const bystander = new LogoutEndpoint([200]);
  /** An app's back end (psamobile): it receives tokens from a hop, but never a session id. */
  const app = new LogoutEndpoint([200]);
  let jwks: ReturnType<typeof createLocalJWKSet>;

  beforeAll(async () => {
    const uris = {
      psa: await psa.start(),
      pcgs: await pcgs.start(),
      psajapan: await refusing.start(),
      lbe: await bystander.start(),
      psamobile: await app.start(),
    };
    t = await startTestApp({
      BACKCHANNEL_LOGOUT_URIS: JSON.stringify(uris),
      BACKCHANNEL_RETRY_MS: '20',
    });
    const keys = await request(t.url).get('/.well-known/jwks.json').expect(200);
    expect(keys.headers['cache-control']).toBe('public, max-age=300');
    jwks = createLocalJWKSet(keys.body as JSONWebKeySet);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await Promise.all([psa.stop(), pcgs.stop(), refusing.stop(), bystander.stop(), app.stop()]);
  });

  /** The `si` a brand received on its redirect, and its `t`. */
  function received(res: BrowserResponse): { si: string; t: string } {
    const target = locationOf(res);
    return {
      si: target.searchParams.get('si') ?? '',
      t: target.searchParams.get('t') ?? '',
    };
  }

  async function signedIn(brand = 'collectors') {
    const browser = new Browser();
    const { landing } = await signInVia(t, browser, `b=${brand}`);
    const sessionId = (await jarCookie(browser, t.url, 'sessionId')) ?? '';
    const record = await t.app.get(Sessions).get(sessionId);
    if (!record) throw new Error('no session');
    return { browser, sessionId, record, landing };
  }

  async function verified(token: string, audience: string) {
    expect(decodeProtectedHeader(token).typ).toBe('logout+jwt');
    const { payload } = await jwtVerify(token, jwks, {
      issuer: t.config.http.publicUrl,
      audience,
      algorithms: ['RS256'],
    });
    return payload;
  }

  const clientOf = (brand: 'psa' | 'pcgs' | 'psajapan' | 'psamobile') =>
    t.config.brandClients[brand]?.clientId ?? 'no client';

  it('sign-out tells each brand the sign-in handed a session to, with its si; none other (issue 49 item 5)', async () => {
    const before = {
      psa: psa.tokens.length,
      pcgs: pcgs.tokens.length,
      psajapan: refusing.tokens.length,
      lbe: bystander.tokens.length,
    };
    // psa first, then two signed-in hops: each brand receives a session (si) of the one sign-in.
    const { browser, record, landing } = await signedIn('psa');
    const atPsa = received(landing);
    const atPcgs = received(
      await throughBrandGrant(browser, await browser.get(`${t.url}/signin?b=pcgs`)),
    );
    const atJapan = received(
      await throughBrandGrant(browser, await browser.get(`${t.url}/signin?b=psajapan`)),
    );
    expect(new Set([atPsa.si, atPcgs.si, atJapan.si]).size).toBe(3);
    await signOutFromThisSite(browser, `${t.url}/logout/collectorsid?b=psa`);

    const pcgsToken = await until(() => pcgs.tokens[before.pcgs]);
    const claims = await verified(pcgsToken, clientOf('pcgs'));
    // The collector's user id as sub, the si pcgs received as sid.
    expect(claims).toMatchObject({ sub: record.sub, sid: atPcgs.si });
    // Issue 49 item 2: the logout token's sub is the user id, the `uid` of the `t` the brand got
    // (whose own `sub` is the login).
    expect(decodeJwt(atPcgs.t)).toMatchObject({ uid: claims.sub, sub: 'collector@example.com' });
    expect(claims.events).toEqual({ [BACKCHANNEL_LOGOUT_EVENT]: {} });
    expect(claims.nonce).toBeUndefined();
    expect(typeof claims.jti).toBe('string');

    // psa answered 503 first: a second attempt of the same token's jti, with psa's si.
    await until(() => (psa.tokens.length >= before.psa + 2 ? true : undefined));
    const [first, second] = await Promise.all(
      psa.tokens.slice(before.psa, before.psa + 2).map((tok) => verified(tok, clientOf('psa'))),
    );
    expect(first?.jti).toBe(second?.jti);
    expect(first).toMatchObject({ sub: record.sub, sid: atPsa.si });

    // psajapan refused the token (400): no retry.
    const refused = await until(() => refusing.tokens[before.psajapan]);
    expect(await verified(refused, clientOf('psajapan'))).toMatchObject({ sid: atJapan.si });

    // Each brand's delivery is recorded under the jti.
    const store = t.app.get<SessionStore>(SESSION_STORE);
    const recorded = await until(() => store.get(`backchannel-delivery:${String(claims.jti)}`));
    expect(JSON.parse(recorded)).toMatchObject({
      outcomes: [{ brand: 'pcgs', delivered: true, attempts: 1, status: 200 }],
    });
    await until(() =>
      t.logs.records.some((r) => r.msg === 'logout delivered' && r.brand === 'psa')
        ? true
        : undefined,
    );
    expect(refusing.tokens.length).toBe(before.psajapan + 1);
    // lbe registered an endpoint, but this sign-in handed it nothing.
    expect(bystander.tokens.length).toBe(before.lbe);
    expect(JSON.stringify(t.logs.records)).not.toContain(pcgsToken);
  }, 60_000);

  it('a collector who never came through a brand sends it nothing (issue 49 item 5)', async () => {
    const before = [psa, pcgs, refusing, bystander].map((b) => b.tokens.length);
    const { browser } = await signedIn('collectors');
    await signOutFromThisSite(browser, `${t.url}/logout/collectorsid`);
    // Another sign-out that does notify (pcgs) comes after: by then nothing came for the first.
    const other = await signedIn('pcgs');
    await signOutFromThisSite(other.browser, `${t.url}/logout/collectorsid?b=pcgs`);
    await until(() => pcgs.tokens[before[1] ?? 0]);
    expect([psa, pcgs, refusing, bystander].map((b) => b.tokens.length)).toEqual([
      before[0],
      (before[1] ?? 0) + 1,
      before[2],
      before[3],
    ]);
  }, 60_000);

  it('the brand code redirect (/handlebrandtokenredirect?b=pcgs) owes pcgs a logout token: its client as aud, no sid', async () => {
    const before = { pcgs: pcgs.tokens.length, psa: psa.tokens.length };
    // Signed in at the Collectors site (a session handed to no brand), then pcgs's own code flow.
    const { browser, record } = await signedIn('collectors');
    const start = await browser.get(`${t.url}/handlebrandtokenredirect?b=pcgs`);
    const callback = await throughIdp(browser, start, '/handlebrandtokenredirect');
    const handed = received(await browser.get(callback.href));
    expect(handed.t).not.toBe('');
    // The redirect hands pcgs tokens only: no session of its own to name.
    expect(handed.si).toBe('');
    await signOutFromThisSite(browser, `${t.url}/logout/collectorsid`);

    const claims = await verified(await until(() => pcgs.tokens[before.pcgs]), clientOf('pcgs'));
    expect(claims.sub).toBe(record.sub);
    expect(claims).not.toHaveProperty('sid');
    expect(decodeJwt(handed.t)).toMatchObject({ uid: claims.sub, cid: clientOf('pcgs') });
    // One token for the one grant, and nothing for psa, which this sign-in handed nothing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pcgs.tokens.length).toBe(before.pcgs + 1);
    expect(psa.tokens.length).toBe(before.psa);
  }, 60_000);

  it('an app’s hop (psamobile) owes the app a logout token with its client as aud, the uid as sub, and no sid', async () => {
    const before = app.tokens.length;
    const { browser, sessionId, record } = await signedIn('collectors');
    // The app's hop from the signed-in browser: a code for the app's back end, no session id (§4
    // step 5), and the browser's sessionId cookie cleared (§4 step 7).
    const hop = locationOf(
      await throughBrandGrant(browser, await browser.get(`${t.url}/signin?b=psamobile`)),
    );
    expect(hop.searchParams.has('si')).toBe(false);
    const credentials = t.config.brandClients.psamobile;
    const redeemed = await exchangeHandoff(
      t,
      basicAuth(credentials?.clientId ?? '', credentials?.clientSecret ?? ''),
      { code: hop.searchParams.get('code') ?? '' },
    );
    expect(redeemed.status).toBe(200);
    const uid = decodeJwt(String(redeemed.json.access_token)).uid;
    expect(await jarCookie(browser, t.url, 'sessionId')).toBeUndefined();
    // The collector then signs out at the IdP (its end-session page, from another app): the IdP's
    // logout token ends this sign-in's session here, and the app is told.
    const endSession = new URL(`${t.config.idp.issuer}/v1/logout`);
    endSession.searchParams.set('id_token_hint', record.tokens.idToken ?? '');
    const page = await browser.get(endSession.href);
    const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(page.body);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(form?.[2] ?? '')?.[1] ?? '';
    await browser.post(new URL(form?.[1] ?? '', endSession).href, { xsrf, logout: 'yes' });
    await until(async () => ((await t.app.get(Sessions).get(sessionId)) ? undefined : true));

    const claims = await verified(await until(() => app.tokens[before]), clientOf('psamobile'));
    expect(claims.aud).toBe(clientOf('psamobile'));
    expect(claims.sub).toBe(uid);
    expect(claims.sub).toBe(record.sub);
    expect(claims).not.toHaveProperty('sid');
    expect(claims.events).toEqual({ [BACKCHANNEL_LOGOUT_EVENT]: {} });
  }, 60_000);

  it('accepts the IdP’s logout token and ends the sessions of that IdP session', async () => {
    const { browser, sessionId, record, landing } = await signedIn('pcgs');
    const before = pcgs.tokens.length;
    // The collector ends the IdP session directly (e.g. from another app): the IdP tells this service.
    const endSession = new URL(`${t.config.idp.issuer}/v1/logout`);
    endSession.searchParams.set('id_token_hint', record.tokens.idToken ?? '');
    const page = await browser.get(endSession.href);
    const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(page.body);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(form?.[2] ?? '')?.[1] ?? '';
    await browser.post(new URL(form?.[1] ?? '', endSession).href, { xsrf, logout: 'yes' });

    await until(async () => ((await t.app.get(Sessions).get(sessionId)) ? undefined : true));
    expect(
      t.logs.records.some(
        (r) => r.msg === 'logout token accepted' && typeof r.ended === 'number' && r.ended >= 1,
      ),
    ).toBe(true);
    // ...and passes it on to the brand that received the session, naming the si it received.
    const token = await until(() => pcgs.tokens[before]);
    expect(await verified(token, clientOf('pcgs'))).toMatchObject({
      sub: record.sub,
      sid: received(landing).si,
    });
    const collection = await browser.get(`${t.url}/collection`);
    expect(collection.status).toBe(302);
  }, 60_000);

  /**
   * A logout token as the IdP signs them (its current key, the first it publishes): issued now and
   * valid for two minutes unless `claims` says otherwise (`exp: undefined` leaves it out).
   */
  async function idpLogoutToken(
    claims: Record<string, unknown>,
    /** null: no typ header at all. */
    typ: string | null = 'logout+jwt',
  ): Promise<string> {
    const [jwk] = (await new SigningKeys(t.app.get<SessionStore>(IDP_STATE_STORE)).jwks()).keys;
    const row = { kid: jwk?.kid ?? '' };
    const key = await importJWK(jwk as JWK, 'RS256');
    const now = Math.floor(Date.now() / 1000);
    const payload = Object.fromEntries(
      Object.entries({
        events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
        jti: randomUUID(),
        iat: now,
        exp: now + 120,
        ...claims,
      }).filter(([, value]) => value !== undefined),
    );
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: row.kid, ...(typ ? { typ } : {}) })
      .setIssuer(t.config.idp.issuer)
      .setAudience(t.config.idp.clientId)
      .sign(key);
  }

  const postLogoutToken = (token: string) =>
    request(t.url).post('/backchannel-logout').type('form').send({ logout_token: token });

  it('accepts an IdP logout token once: the same jti again is refused and changes nothing', async () => {
    const first = await signedIn();
    const token = await idpLogoutToken({ sub: first.record.sub, jti: `replay-${randomUUID()}` });
    await request(t.url)
      .post('/backchannel-logout')
      .type('form')
      .send({ logout_token: token })
      .expect(200);
    expect(await t.app.get(Sessions).get(first.sessionId)).toBeUndefined();
    const second = await signedIn();
    const replay = await request(t.url)
      .post('/backchannel-logout')
      .type('form')
      .send({ logout_token: token })
      .expect(400);
    expect(replay.body.error_description).toMatch(/already used/);
    expect(await t.app.get(Sessions).get(second.sessionId)).toBeDefined();
  }, 60_000);

  it.each([
    ['a nonce', { sub: 'x', nonce: 'n' }, /nonce/],
    ['no sub or sid', {}, /no sub or sid/],
    ['no event', { sub: 'x', events: { other: {} } }, /events/],
  ])('refuses an IdP-signed token with %s', async (_label, claims, says) => {
    const token = await idpLogoutToken(claims);
    const res = await request(t.url)
      .post('/backchannel-logout')
      .type('form')
      .send({ logout_token: token })
      .expect(400);
    expect(res.body.error_description).toMatch(says);
  });

  // Issue 50 item 9 (Back-Channel Logout 1.0 §2.4: exp REQUIRED, iat the time of issue): a token
  // without an expiry, or dated ahead so that it outlives the memory of its jti, ends nothing.
  it.each([
    ['no exp', { exp: undefined }, /no exp/],
    ['an iat a day ahead', { iat: Math.floor(Date.now() / 1000) + 86_400 }, /in the future/],
    [
      'an iat and exp a day ahead',
      {
        iat: Math.floor(Date.now() / 1000) + 86_400,
        exp: Math.floor(Date.now() / 1000) + 86_520,
      },
      /in the future/,
    ],
  ])(
    'refuses an IdP-signed logout token with %s, and ends nothing',
    async (_label, claims, says) => {
      const victim = await signedIn();
      const res = await postLogoutToken(
        await idpLogoutToken({ sub: victim.record.sub, ...claims }),
      ).expect(400);
      expect(res.body).toMatchObject({ error: 'invalid_request' });
      expect(res.body.error_description).toMatch(says);
      expect(await t.app.get(Sessions).get(victim.sessionId)).toBeDefined();
    },
    60_000,
  );

  it('accepts an iat within the clock skew, and remembers the jti until its exp (issue 50 item 9)', async () => {
    const victim = await signedIn();
    const now = Math.floor(Date.now() / 1000);
    const jti = `skew-${randomUUID()}`;
    const token = await idpLogoutToken({
      sub: victim.record.sub,
      jti,
      iat: now + 30,
      exp: now + 90,
    });
    await postLogoutToken(token).expect(200);
    expect(await t.app.get(Sessions).get(victim.sessionId)).toBeUndefined();
    expect((await postLogoutToken(token).expect(400)).body.error_description).toMatch(
      /already used/,
    );
    // The jti is kept as long as the token could be accepted: its exp plus the skew, not longer.
    const key = `backchannel-jti:${createHash('sha256')
      .update(`${t.config.idp.issuer} ${jti}`)
      .digest('base64url')}`;
    const kept = sqliteStoreRow(t, key);
    expect(kept).toBeDefined();
    const until = (kept?.expiresAt ?? 0) / 1000;
    expect(until).toBeGreaterThanOrEqual(now + 90 + 60 - 2);
    expect(until).toBeLessThanOrEqual(now + 90 + 60 + 2);
  }, 60_000);

  // Issue 15 item 1 (Back-Channel Logout 1.0 §2.4, RFC 8725 §3.11): an IdP-signed token of another
  // type, with every logout claim right, ends no session.
  it.each(['at+jwt', 'JWT', null])(
    'refuses an IdP-signed logout token typed %s, and ends nothing',
    async (typ) => {
      const victim = await signedIn();
      const token = await idpLogoutToken({ sub: victim.record.sub }, typ);
      const res = await request(t.url)
        .post('/backchannel-logout')
        .type('form')
        .send({ logout_token: token })
        .expect(400);
      expect(res.body).toMatchObject({ error: 'invalid_request' });
      expect(await t.app.get(Sessions).get(victim.sessionId)).toBeDefined();
    },
    60_000,
  );

  it.each([
    ['no token', {}],
    ['not a JWT', { logout_token: 'nope' }],
    ['a token not signed by the IdP', { logout_token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' }],
  ])('refuses %s with 400 and changes nothing', async (_label, form) => {
    const res = await request(t.url)
      .post('/backchannel-logout')
      .type('form')
      .send(form)
      .expect(400);
    expect(res.body).toMatchObject({ error: 'invalid_request' });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
