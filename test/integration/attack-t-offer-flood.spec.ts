import { Browser, type BrowserResponse } from '../support/browser';
import { NAVIGATION_HEADERS, NavigatingBrowser } from '../support/navigating-browser';
import { RunningRedis, redisCommand, startRedis } from '../support/redis-server';
import { jarCookie, locationOf, signInVia, signOutFromThisSite } from '../support/signin-journey';
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
 * one live offer, the cross-site path is limited per address and per token (past a limit the `t` is
 * dropped, as an invalid one is: the browser goes on without it and without an offer), a used or
 * ended token gets no offer, and the IdP is asked nothing until the collector confirms.
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

/** Where a navigation went: the confirmation page (an offer), or on without `t` and without one. */
const whereTo = (res: BrowserResponse) =>
  locationOf(res).pathname === '/signin/continue' ? 'offer' : locationOf(res).pathname;

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
    const answers: string[] = [];
    for (let i = 0; i < FLOOD; i++) {
      const browser = crossSiteBrowser();
      const res = await navigate(t, token, `198.51.100.${i + 1}`, browser);
      answers.push(whereTo(res));
      if (whereTo(res) === 'offer') last = { browser, offer: locationOf(res) };
    }
    // Limited per token: ten offers in an offer's lifetime, then the t is only dropped.
    expect(answers.slice(0, 10)).toEqual(Array(10).fill('offer'));
    expect(answers.slice(10)).toEqual(Array(FLOOD - 10).fill('/collection'));
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
    // The collector signs out on this service's own page (issue 50 item 4: a bare GET only asks).
    await signOutFromThisSite(browser, `${t.url}/logout/collectorsid?b=psa`);
    const offersBefore = liveOffersInSqlite(t);
    const asked = userinfoCalls(t.logs);
    for (let i = 0; i < 10; i++) {
      const res = await navigate(t, token, `192.0.2.${i + 1}`);
      expect(locationOf(res).pathname).toBe('/collection');
    }
    expect(liveOffersInSqlite(t)).toBe(offersBefore);
    expect(userinfoCalls(t.logs) - asked).toBe(0);
  });

  it('one address is limited across tokens: past the sign-in limit, a t is dropped without an offer', async () => {
    const { token } = await brandToken(t);
    // Tokens that do not verify cost a signature check each: they count too.
    for (let i = 0; i < 20; i++)
      await navigate(t, `eyJhbGciOiJSUzI1NiJ9.eyJqdGkiOiJ4In0.${i}`, '192.0.2.250');
    const asked = userinfoCalls(t.logs);
    const offersBefore = liveOffersInSqlite(t);
    const limited = await navigate(t, token, '192.0.2.250');
    expect(whereTo(limited)).toBe('/collection');
    expect(limited.headers.get('set-cookie')).toBeNull();
    expect(liveOffersInSqlite(t)).toBe(offersBefore);
    // The same t from another address is offered as ever.
    expect(whereTo(await navigate(t, token, '192.0.2.251'))).toBe('offer');
    expect(userinfoCalls(t.logs) - asked).toBe(0);
  });

  it('an IPv6 client counts by its /64: rotating the interface id buys no fresh budget', async () => {
    const { token } = await brandToken(t);
    // Each link from a new address inside one /64, as a host that rotates its interface id
    // (RFC 8981) would send them: one budget between them.
    for (let i = 0; i < 20; i++)
      await navigate(t, `eyJhbGciOiJSUzI1NiJ9.eyJqdGkiOiJ4In0.${i}`, `2001:db8:5:6::${i + 1}`);
    const offersBefore = liveOffersInSqlite(t);
    const limited = await navigate(t, token, '2001:db8:5:6:ffff:ffff:ffff:fffe');
    expect(whereTo(limited)).toBe('/collection');
    expect(liveOffersInSqlite(t)).toBe(offersBefore);
    // A neighbouring /64 is another client, and the same t is offered from it.
    expect(whereTo(await navigate(t, token, '2001:db8:5:7::1'))).toBe('offer');
  });

  it('an IPv4 client counts as itself whether it reaches the service as IPv4 or mapped IPv6', async () => {
    const { token } = await brandToken(t);
    for (let i = 0; i < 20; i++)
      await navigate(t, `eyJhbGciOiJSUzI1NiJ9.eyJqdGkiOiJ4In0.${i}`, '198.51.100.77');
    expect(whereTo(await navigate(t, token, '::ffff:198.51.100.77'))).toBe('/collection');
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
    const answers: string[] = [];
    for (let i = 0; i < FLOOD; i++)
      answers.push(whereTo(await navigate(i % 2 ? b : a, token, `198.51.100.${i + 1}`)));
    expect(answers.filter((a) => a === 'offer')).toHaveLength(10);
    expect(await liveOffersInRedis()).toBe(1);
    expect(userinfoCalls(a.logs, b.logs) - asked).toBe(0);
  });
});
