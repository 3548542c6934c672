import {
  SignJWT,
  createLocalJWKSet,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { BACKCHANNEL_LOGOUT_EVENT } from '../../src/backchannel/logout-token';
import { IDP_STATE_STORE } from '../../src/idp/provider/idp-state-store';
import { SigningKeys } from '../../src/idp/provider/signing-keys';
import { SESSION_STORE, type SessionStore } from '../../src/store/session-store';
import { Sessions } from '../../src/session/sessions';
import { Browser } from '../support/browser';
import { jarCookie, signInVia } from '../support/signin-journey';
import { TestApp, startTestApp } from '../support/test-app';

/** A brand's back-channel endpoint, played by a small local server: it answers with `statuses` in turn. */
class BrandEndpoint {
  readonly tokens: string[] = [];
  private readonly server: http.Server;
  constructor(private readonly statuses: number[]) {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const token = new URLSearchParams(body).get('logout_token');
        if (token && req.headers['content-type'] === 'application/x-www-form-urlencoded')
          this.tokens.push(token);
        res.statusCode =
          this.statuses.length > 1 ? (this.statuses.shift() ?? 200) : (this.statuses[0] ?? 200);
        res.end();
      });
    });
  }
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/backchannel-logout`;
  }
  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

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
  const psa = new BrandEndpoint([503, 200]);
  const pcgs = new BrandEndpoint([200]);
  const refusing = new BrandEndpoint([400]);
  let jwks: ReturnType<typeof createLocalJWKSet>;

  beforeAll(async () => {
    const uris = {
      psa: await psa.start(),
      pcgs: await pcgs.start(),
      goldin: await refusing.start(),
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
    await Promise.all([psa.stop(), pcgs.stop(), refusing.stop()]);
  });

  async function signedIn() {
    const browser = new Browser();
    await signInVia(t, browser, 'b=collectors');
    const sessionId = (await jarCookie(browser, t.url, 'sessionId')) ?? '';
    const record = await t.app.get(Sessions).get(sessionId);
    if (!record) throw new Error('no session');
    return { browser, sessionId, record };
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

  it('sign-out sends every registered brand a signed logout token, retrying a failing one', async () => {
    const { browser, record } = await signedIn();
    const before = {
      psa: psa.tokens.length,
      pcgs: pcgs.tokens.length,
      goldin: refusing.tokens.length,
    };
    await browser.get(`${t.url}/logout/collectorsid?b=psa`);

    const pcgsToken = await until(() => pcgs.tokens[before.pcgs]);
    const claims = await verified(pcgsToken, t.config.brandClients.pcgs?.clientId ?? 'pcgs');
    expect(claims).toMatchObject({ sub: record.sub, sid: record.idpSid });
    expect(claims.events).toEqual({ [BACKCHANNEL_LOGOUT_EVENT]: {} });
    expect(claims.nonce).toBeUndefined();
    expect(typeof claims.jti).toBe('string');
    expect(record.idpSid).toEqual(expect.any(String));

    // psa answered 503 first: a second attempt, with the same jti.
    await until(() => (psa.tokens.length >= before.psa + 2 ? true : undefined));
    const [first, second] = await Promise.all(
      psa.tokens
        .slice(before.psa, before.psa + 2)
        .map((tok) => verified(tok, t.config.brandClients.psa?.clientId ?? 'psa')),
    );
    expect(first?.jti).toBe(second?.jti);
    expect(first?.jti).toBe(claims.jti);

    // goldin refused the token (400): no retry.
    await until(() => refusing.tokens[before.goldin]);

    // Each brand's delivery is recorded under the jti.
    const store = t.app.get<SessionStore>(SESSION_STORE);
    const recorded = await until(() => store.get(`backchannel-delivery:${String(claims.jti)}`));
    const outcomes = (
      JSON.parse(recorded) as {
        outcomes: { brand: string; delivered: boolean; attempts: number; status?: number }[];
      }
    ).outcomes;
    expect(outcomes).toEqual(
      expect.arrayContaining([
        { brand: 'psa', delivered: true, attempts: 2, status: 200 },
        { brand: 'pcgs', delivered: true, attempts: 1, status: 200 },
        { brand: 'goldin', delivered: false, attempts: 1, status: 400 },
      ]),
    );
    expect(refusing.tokens.length).toBe(before.goldin + 1);
    expect(t.logs.records.some((r) => r.msg === 'logout delivered' && r.brand === 'psa')).toBe(
      true,
    );
    expect(JSON.stringify(t.logs.records)).not.toContain(pcgsToken);
  }, 60_000);

  it('accepts the IdP’s logout token and ends the sessions of that IdP session', async () => {
    const { browser, sessionId, record } = await signedIn();
    const before = pcgs.tokens.length;
    // The collector ends the IdP session directly (e.g. from another app): the IdP tells this service.
    const endSession = new URL(`${t.config.idp.issuer}/v1/logout`);
    endSession.searchParams.set('id_token_hint', record.tokens.idToken ?? '');
    const page = await browser.get(endSession.href);
    const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(page.body);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(form?.[2] ?? '')?.[1] ?? '';
    await browser.post(new URL(form?.[1] ?? '', endSession).href, { xsrf, logout: 'yes' });

    await until(async () => ((await t.app.get(Sessions).get(sessionId)) ? undefined : true));
    expect(t.logs.records.some((r) => r.msg === 'logout token accepted' && r.ended === 1)).toBe(
      true,
    );
    // ...and passes it on to the brands.
    const token = await until(() => pcgs.tokens[before]);
    expect((await verified(token, t.config.brandClients.pcgs?.clientId ?? 'pcgs')).sub).toBe(
      record.sub,
    );
    const collection = await browser.get(`${t.url}/collection`);
    expect(collection.status).toBe(302);
  }, 60_000);

  /** A logout token as the IdP signs them (its current key, the first it publishes). */
  async function idpLogoutToken(
    claims: Record<string, unknown>,
    /** null: no typ header at all. */
    typ: string | null = 'logout+jwt',
  ): Promise<string> {
    const [jwk] = (await new SigningKeys(t.app.get<SessionStore>(IDP_STATE_STORE)).jwks()).keys;
    const row = { kid: jwk?.kid ?? '' };
    const key = await importJWK(jwk as JWK, 'RS256');
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
      jti: randomUUID(),
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: row.kid, ...(typ ? { typ } : {}) })
      .setIssuer(t.config.idp.issuer)
      .setAudience(t.config.idp.clientId)
      .setIssuedAt(now)
      .sign(key);
  }

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
