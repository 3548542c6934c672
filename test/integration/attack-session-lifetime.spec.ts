import Database from 'better-sqlite3';
import Redis from 'ioredis';
import * as client from 'openid-client';
import { Browser } from '../support/browser';
import { NAVIGATION_HEADERS, NavigatingBrowser } from '../support/navigating-browser';
import { startRedis, type RunningRedis } from '../support/redis-server';
import {
  jarCookie,
  locationOf,
  brandClient,
  serviceClient,
  signInVia,
  signOutFromThisSite,
  throughBrandGrant,
  throughIdp,
} from '../support/signin-journey';
import { Sessions } from '../../src/session/sessions';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Issue 15 item 9, as an attacker would use the gaps: a copy of the session store (a backup of the
 * SQLite file, a Redis dump) must hold no token; a session stolen and left unused must end on its own
 * (idle timeout), and one kept busy must still end (absolute lifetime), brand hops included; an ended
 * session's refresh token must be revoked at the IdP, not merely forgotten here.
 */
const LIMITS = { RATE_LIMIT_SIGNIN: '100000/60', RATE_LIMIT_SIGNIN_SESSION: '100000/60' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A collector signed in through psa's link: what psa received (t, rt: a grant of its own, issue 31
 * item 4), the session's own refresh token, and the browser.
 */
async function signedInAtPsa(t: TestApp) {
  const browser = new Browser();
  const { landing } = await signInVia(t, browser, 'b=psa');
  const target = locationOf(landing);
  const si = target.searchParams.get('si') ?? '';
  const session = await t.app.get(Sessions).get(si);
  return {
    browser,
    t: target.searchParams.get('t') ?? '',
    rt: target.searchParams.get('rt') ?? '',
    sessionRt: session?.tokens.refreshToken ?? '',
  };
}

/**
 * The brand code redirect (/handlebrandtokenredirect?b=pcgs) in a browser signed in at the IdP:
 * what pcgs received on its tokenURL.
 */
async function throughBrandCode(t: TestApp, browser: Browser): Promise<{ t: string; rt: string }> {
  const start = await browser.get(`${t.url}/handlebrandtokenredirect?b=pcgs`);
  const callback = await throughIdp(browser, start, '/handlebrandtokenredirect');
  const target = locationOf(await browser.get(callback.href));
  expect(target.pathname).toBe('/demo/brand/pcgs');
  return { t: target.searchParams.get('t') ?? '', rt: target.searchParams.get('rt') ?? '' };
}

/** A fresh browser follows a link with `t` from this site: whether it ends up with a session. */
async function tSignsIn(t: TestApp, token: string): Promise<boolean> {
  const fresh = new NavigatingBrowser({ ...NAVIGATION_HEADERS, 'sec-fetch-site': 'same-origin' });
  await fresh.get(`${t.url}/collection?t=${encodeURIComponent(token)}`);
  return (await jarCookie(fresh, t.url, 'sessionId')) !== undefined;
}

/** Whether the browser still reaches /collection signed in. */
async function signedIn(t: TestApp, browser: Browser): Promise<boolean> {
  const res = await browser.get(`${t.url}/collection`);
  return res.status === 200;
}

describe('a copy of the store holds no token', () => {
  it('SQLite: the session file has neither the access nor the refresh token', async () => {
    const t = await startTestApp(LIMITS);
    try {
      const web = await signedInAtPsa(t);
      // A mobile app's handoff code holds tokens for a minute: sealed too.
      const app = new Browser();
      await signInVia(t, app, 'b=psamobile');
      expect(web.t).not.toBe('');
      expect(web.rt).not.toBe('');
      if (t.config.sessionStore.kind !== 'sqlite') throw new Error('expected SQLite');
      const db = new Database(t.config.sessionStore.file, { readonly: true });
      const dump = db
        .prepare<[], { key: string; value: string }>('SELECT key, value FROM kv')
        .all()
        .map((r) => `${r.key} ${r.value}`)
        .join('\n');
      db.close();
      expect(dump).toMatch(/^session:/m);
      expect(dump).toMatch(/^handoff:/m);
      for (const secret of [web.t, web.rt, web.t.split('.')[2] ?? 'x']) {
        expect(dump).not.toContain(secret);
      }
      expect(dump).not.toMatch(/eyJ[A-Za-z0-9_-]+\.eyJ/);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('Redis: a dump of every value has no token', async () => {
    let redis: RunningRedis | undefined;
    let t: TestApp | undefined;
    try {
      redis = await startRedis();
      t = await startTestApp({ ...LIMITS, SESSION_STORE: 'redis', REDIS_URL: redis.url });
      const web = await signedInAtPsa(t);
      const reader = new Redis(redis.url);
      // This service's records; the embedded IdP stands in for Okta (local and dev only) and keeps
      // its own artefacts under cs:idp:, as Okta keeps its own.
      const keys = (await reader.keys('*')).filter((k) => !k.startsWith('cs:idp:'));
      const values: string[] = [];
      for (const key of keys) {
        if ((await reader.type(key)) === 'string') values.push(`${key} ${await reader.get(key)}`);
      }
      await reader.quit();
      const dump = values.join('\n');
      expect(dump).toContain('session:');
      expect(dump).not.toContain(web.t);
      expect(dump).not.toContain(web.rt);
    } finally {
      await t?.close();
      await redis?.stop();
    }
  }, 60_000);
});

describe('sessions have an end (ASVS 5.0 7.3.1, 7.3.2)', () => {
  it('a session left unused past the idle timeout ends, and its refresh token is revoked', async () => {
    const t = await startTestApp({ ...LIMITS, SESSION_IDLE_TIMEOUT_SECONDS: '2' });
    try {
      const web = await signedInAtPsa(t);
      const oidc = await serviceClient(t);
      expect(await signedIn(t, web.browser)).toBe(true);
      expect((await client.tokenIntrospection(oidc, web.sessionRt)).active).toBe(true);
      await sleep(3_000);
      expect(await signedIn(t, web.browser)).toBe(false);
      // Ended as a sign-out ends it: its refresh token is no longer good at the IdP either.
      expect(t.logs.records.filter((r) => r.event === 'session-ended').at(-1)).toMatchObject({
        reason: 'lapsed',
      });
      expect((await client.tokenIntrospection(oidc, web.sessionRt)).active).toBe(false);
      // The brand's own grant outlives a lapse here (issue 31 item 4): the collector did not sign out.
      // It was issued to psa's client (issue 49 item 3): only psa's credentials can introspect it.
      const psa = await brandClient(t, 'psa');
      expect((await client.tokenIntrospection(psa, web.rt)).active).toBe(true);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('a session kept busy still ends at its absolute lifetime, brand hops included', async () => {
    const t = await startTestApp({
      ...LIMITS,
      SESSION_MAX_LIFETIME_SECONDS: '4',
      SESSION_IDLE_TIMEOUT_SECONDS: '4',
    });
    try {
      const web = await signedInAtPsa(t);
      const oidc = await serviceClient(t);
      const started = Date.now();
      // Busy all along: a page every half second, and a hop to another brand (a fresh session of
      // the same sign-in) half-way.
      let hopped = false;
      while (Date.now() - started < 3_000) {
        expect(await signedIn(t, web.browser)).toBe(true);
        if (!hopped && Date.now() - started > 1_500) {
          const hop = await throughBrandGrant(
            web.browser,
            await web.browser.get(`${t.url}/signin?b=pcgs`),
          );
          expect(locationOf(hop).pathname).toBe('/demo/brand/pcgs');
          hopped = true;
        }
        await sleep(500);
      }
      expect(hopped).toBe(true);
      await sleep(Math.max(0, 4_500 - (Date.now() - started)));
      expect(await signedIn(t, web.browser)).toBe(false);
      // The sign-in's refresh token died with the session.
      expect((await client.tokenIntrospection(oidc, web.sessionRt)).active).toBe(false);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('a victim’s si planted as the attacker’s sessionId cookie: the attacker’s sign-in ends nothing of the victim’s', async () => {
    const t = await startTestApp(LIMITS);
    try {
      const victim = await signedInAtPsa(t);
      const si = (await jarCookie(victim.browser, t.url, 'sessionId')) ?? '';
      expect(await t.app.get(Sessions).get(si)).toBeDefined();
      const attacker = new Browser();
      await attacker.jar.setCookie(`sessionId=${si}; Path=/`, t.url);
      await signInVia(t, attacker, 'b=collectors');
      // The landing ends only a session this browser holds the binding of.
      expect(await t.app.get(Sessions).get(si)).toBeDefined();
      const oidc = await serviceClient(t);
      expect((await client.tokenIntrospection(oidc, victim.sessionRt)).active).toBe(true);
      expect(await signedIn(t, victim.browser)).toBe(true);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('an app’s hop in between (which clears sessionId, §4 step 7) does not keep a brand’s earlier grant alive (issue 49 item 4)', async () => {
    const t = await startTestApp(LIMITS);
    try {
      const first = await signedInAtPsa(t);
      const psa = await brandClient(t, 'psa');
      // The app's hop: its own grant, and the browser's sessionId cookie cleared.
      await throughBrandGrant(
        first.browser,
        await first.browser.get(`${t.url}/signin?b=psamobile`),
      );
      expect(await jarCookie(first.browser, t.url, 'sessionId')).toBeUndefined();
      // psa again: a new sign-in of this browser (silently, at the IdP), then psa's new grant.
      const again = await first.browser.get(`${t.url}/signin?b=psa`);
      const callback = await throughIdp(first.browser, again);
      const landing = locationOf(
        await throughBrandGrant(first.browser, await first.browser.get(callback.href)),
      );
      const rt = landing.searchParams.get('rt') ?? '';
      expect(rt).not.toBe('');
      expect((await client.tokenIntrospection(psa, rt)).active).toBe(true);
      expect((await client.tokenIntrospection(psa, first.rt)).active).toBe(false);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('signing in again revokes the previous session’s refresh token, and the brand’s earlier grant once it receives a new one (issue 49 item 4)', async () => {
    const t = await startTestApp(LIMITS);
    try {
      const first = await signedInAtPsa(t);
      const oidc = await serviceClient(t);
      const psa = await brandClient(t, 'psa');
      // Back through the IdP's steps while signed in (§4 after-login step 3): a new authentication.
      const again = await first.browser.get(`${t.url}/signin?b=psa&returnToSignIn=true`);
      const callback = await throughIdp(first.browser, again);
      const landing = locationOf(
        await throughBrandGrant(first.browser, await first.browser.get(callback.href)),
      );
      const rt = landing.searchParams.get('rt') ?? '';
      expect(rt).not.toBe('');
      expect(rt).not.toBe(first.rt);
      expect((await client.tokenIntrospection(oidc, first.sessionRt)).active).toBe(false);
      expect((await client.tokenIntrospection(psa, rt)).active).toBe(true);
      // psa received new tokens in this browser: the grant it received here before is revoked, with
      // psa's own credentials (it was issued to psa's client), so one grant per brand stays live.
      expect((await client.tokenIntrospection(psa, first.rt)).active).toBe(false);
      await expect(client.refreshTokenGrant(psa, first.rt)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe('the brand code redirect binds what it hands out as a brand hop does (docs/brand-contract.md §6-§8)', () => {
  it('a second brand code redirect in the browser revokes the rt the first one gave pcgs', async () => {
    const t = await startTestApp(LIMITS);
    try {
      const { browser } = await signedInAtPsa(t);
      const pcgs = await brandClient(t, 'pcgs');
      const first = await throughBrandCode(t, browser);
      expect((await client.tokenIntrospection(pcgs, first.rt)).active).toBe(true);
      const second = await throughBrandCode(t, browser);
      expect(second.rt).not.toBe('');
      expect(second.rt).not.toBe(first.rt);
      expect((await client.tokenIntrospection(pcgs, second.rt)).active).toBe(true);
      // One live grant per brand per browser: the earlier one is refused at the IdP.
      expect((await client.tokenIntrospection(pcgs, first.rt)).active).toBe(false);
      await expect(client.refreshTokenGrant(pcgs, first.rt)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    } finally {
      await t.close();
    }
  }, 60_000);

  it('sign-out revokes the rt of the brand code redirect, and its t handed back signs nobody in', async () => {
    const t = await startTestApp(LIMITS);
    try {
      const { browser } = await signedInAtPsa(t);
      const pcgs = await brandClient(t, 'pcgs');
      const handed = await throughBrandCode(t, browser);
      expect((await client.tokenIntrospection(pcgs, handed.rt)).active).toBe(true);
      await signOutFromThisSite(browser, `${t.url}/logout/collectorsid?b=pcgs`);
      expect((await client.tokenIntrospection(pcgs, handed.rt)).active).toBe(false);
      await expect(client.refreshTokenGrant(pcgs, handed.rt)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      // The t itself is still valid until it expires (§7), yet it starts no session here any more.
      expect(await tSignsIn(t, handed.t)).toBe(false);
      expect(
        t.logs.records.filter((r) => r.context === 'TokenParamSignin').map((r) => r.reason),
      ).toContain('session-ended');
    } finally {
      await t.close();
    }
  }, 60_000);
});
