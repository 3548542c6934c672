import { Browser } from '../support/browser';
import { NAVIGATION_HEADERS, NavigatingBrowser } from '../support/navigating-browser';
import { RunningRedis, redisCommand, startRedis } from '../support/redis-server';
import { jarCookie, locationOf, signInVia } from '../support/signin-journey';
import { TestApp, startTestApp, useTestApp } from '../support/test-app';
import {
  crossSiteBrowser,
  liveOffersInSqlite,
  pressOnConfirmation,
  userinfoCalls,
} from '../support/token-offers';

/**
 * Issue 50 item 1, the attacker's view: one `t` (their own, or one already used) sent on many
 * cross-site navigations. Before, each wrote a new offer to the store (1.8 kB, five minutes) and
 * asked the IdP's userinfo once, before any rate limit: 5,000 requests gave 5,000 offers and 5,000
 * userinfo calls (with Okta, the organisation's userinfo rate limit spent). Now a token has at most
 * one live offer, the cross-site path is limited per address and per token, a used or ended token
 * gets no offer, and the IdP is asked nothing until the collector confirms.
 */

const FLOOD = 60;

/** What psa received at a sign-in through its link, and the browser that signed in. */
async function brandToken(t: TestApp): Promise<{ token: string; browser: Browser }> {
  const browser = new Browser();
  const { landing } = await signInVia(t, browser, 'b=psa');
  return { token: locationOf(landing).searchParams.get('t') ?? '', browser };
}

/** One cross-site navigation with `t`, from `address` (the service trusts one proxy here). */
async function navigate(t: TestApp, token: string, address: string, browser = crossSiteBrowser()) {
  return browser.request(`${t.url}/collection?t=${encodeURIComponent(token)}`, {
    headers: { 'x-forwarded-for': address },
  });
}

describe('one instance, SQLite', () => {
  const t = useTestApp({
    TRUST_PROXY: '1',
    // Issue 50 item 1 counts the cross-site path per address with the sign-in limit.
    RATE_LIMIT_SIGNIN: '20/60',
    RATE_LIMIT_SIGNIN_SESSION: '1000/60',
  });

  it('one t from many addresses leaves one live offer, and the IdP is asked nothing until the collector confirms', async () => {
    const { token } = await brandToken(t);
    const asked = userinfoCalls(t.logs);
    let last: { browser: NavigatingBrowser; offer: URL } | undefined;
    const statuses: number[] = [];
    for (let i = 0; i < FLOOD; i++) {
      const browser = crossSiteBrowser();
      const res = await navigate(t, token, `198.51.100.${i + 1}`, browser);
      statuses.push(res.status);
      if (res.status === 302 && locationOf(res).pathname === '/signin/continue')
        last = { browser, offer: locationOf(res) };
    }
    const offered = statuses.filter((s) => s === 302).length;
    expect(offered).toBeGreaterThan(0);
    // Limited per token: the rest are refused, and say when to come back.
    expect(offered).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(FLOOD - offered);
    expect(liveOffersInSqlite(t)).toBe(1);
    expect(userinfoCalls(t.logs) - asked).toBe(0);

    // The last browser's offer is the live one; the collector confirms it: now, and only now, the
    // IdP is asked (once).
    if (!last) throw new Error('no offer');
    const page = await last.browser.get(last.offer.href);
    expect(page.status).toBe(200);
    const done = await pressOnConfirmation(t, last.browser, page, 'continue');
    expect(done.status).toBe(302);
    expect(await jarCookie(last.browser, t.url, 'sessionId')).toBeDefined();
    expect(userinfoCalls(t.logs) - asked).toBe(1);
    expect(liveOffersInSqlite(t)).toBe(0);
  });

  it('an earlier offer of the same t is no longer live once a later one replaced it', async () => {
    const { token } = await brandToken(t);
    const first = crossSiteBrowser();
    const firstOffer = locationOf(await navigate(t, token, '198.51.100.201', first));
    const firstPage = await first.get(firstOffer.href);
    expect(firstPage.status).toBe(200);
    const second = crossSiteBrowser();
    const secondOffer = locationOf(await navigate(t, token, '198.51.100.202', second));
    expect(secondOffer.pathname).toBe('/signin/continue');
    expect((await first.get(firstOffer.href)).status).toBe(400);
    expect((await pressOnConfirmation(t, first, firstPage, 'continue')).status).toBe(400);
    expect(await jarCookie(first, t.url, 'sessionId')).toBeUndefined();
    expect((await second.get(secondOffer.href)).status).toBe(200);
  });

  it('a used t gets no offer at all, however often it is sent, and the IdP is not asked', async () => {
    const { token } = await brandToken(t);
    // The collector's own same-origin hand-back uses it.
    const owner = new NavigatingBrowser({ ...NAVIGATION_HEADERS, 'sec-fetch-site': 'same-origin' });
    await owner.get(`${t.url}/collection?t=${encodeURIComponent(token)}`);
    expect(await jarCookie(owner, t.url, 'sessionId')).toBeDefined();
    const offersBefore = liveOffersInSqlite(t);
    const asked = userinfoCalls(t.logs);
    for (let i = 0; i < FLOOD; i++) {
      const res = await navigate(t, token, `203.0.113.${i + 1}`);
      expect(res.status).toBe(302);
      expect(locationOf(res).pathname).toBe('/collection');
    }
    expect(liveOffersInSqlite(t)).toBe(offersBefore);
    expect(userinfoCalls(t.logs) - asked).toBe(0);
  });

  it('a t whose sign-in ended gets no offer either', async () => {
    const { token, browser } = await brandToken(t);
    await browser.get(`${t.url}/logout/collectorsid?b=psa`);
    const offersBefore = liveOffersInSqlite(t);
    const asked = userinfoCalls(t.logs);
    for (let i = 0; i < 10; i++) {
      const res = await navigate(t, token, `192.0.2.${i + 1}`);
      expect(locationOf(res).pathname).toBe('/collection');
    }
    expect(liveOffersInSqlite(t)).toBe(offersBefore);
    expect(userinfoCalls(t.logs) - asked).toBe(0);
  });

  it('one address is limited across tokens: past the sign-in limit, 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      // Tokens that do not verify cost a signature check each: they count too.
      const res = await navigate(t, `eyJhbGciOiJSUzI1NiJ9.eyJqdGkiOiIke2l9In0.${i}`, '192.0.2.250');
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    }
    expect(statuses.slice(0, 20)).not.toContain(429);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
  });
});

describe('two instances sharing Redis', () => {
  let redis: RunningRedis;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    redis = await startRedis();
    const env = {
      SESSION_STORE: 'redis',
      REDIS_URL: redis.url,
      TRUST_PROXY: '1',
      RATE_LIMIT_SIGNIN_SESSION: '1000/60',
    };
    a = await startTestApp(env);
    // The second instance serves the first one's issuer, as behind a balancer.
    b = await startTestApp({ ...env, PUBLIC_URL: a.config.http.publicUrl });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis?.stop();
  });

  const liveOffersInRedis = async () =>
    ((await redisCommand(redis.port, 'KEYS', 'cs:token-offer:*')) as string[]).length;

  it('one t sent to both instances leaves one live offer, counted against one limit', async () => {
    const { token } = await brandToken(a);
    const asked = userinfoCalls(a.logs, b.logs);
    const statuses: number[] = [];
    for (let i = 0; i < FLOOD; i++)
      statuses.push((await navigate(i % 2 ? b : a, token, `198.51.100.${i + 1}`)).status);
    const offered = statuses.filter((s) => s === 302).length;
    expect(offered).toBeGreaterThan(0);
    expect(offered).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(FLOOD - offered);
    expect(await liveOffersInRedis()).toBe(1);
    expect(userinfoCalls(a.logs, b.logs) - asked).toBe(0);
  });
});
