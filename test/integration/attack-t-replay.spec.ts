import { Browser } from '../support/browser';
import { NAVIGATION_HEADERS, NavigatingBrowser } from '../support/navigating-browser';
import { jarCookie, locationOf, signInVia, signOutFromThisSite } from '../support/signin-journey';
import { RunningRedis, startRedis } from '../support/redis-server';
import { TestApp, startTestApp, useTestApp } from '../support/test-app';

/**
 * Issue 32 item 2, the attacker's view: one `t` signed three fresh browsers in, and after the
 * collector had signed out, the same `t` signed three more in. Now a `t` signs a browser in at most
 * once, on any instance, and never after the collector signed out of the sign-in it came from.
 */

/** What psa received at a sign-in through its link, and the browser that signed in. */
async function brandToken(t: TestApp): Promise<{ token: string; browser: Browser }> {
  const browser = new Browser();
  const { landing } = await signInVia(t, browser, 'b=psa');
  return { token: locationOf(landing).searchParams.get('t') ?? '', browser };
}

/** A fresh browser follows a link with `t`: whether it ends up with a session. */
async function signsIn(t: TestApp, token: string): Promise<boolean> {
  // A same-origin navigation: a cross-site one only offers a sign-in (attack-t-login-csrf.spec).
  const fresh = new NavigatingBrowser({ ...NAVIGATION_HEADERS, 'sec-fetch-site': 'same-origin' });
  await fresh.get(`${t.url}/collection?t=${encodeURIComponent(token)}`);
  return (await jarCookie(fresh, t.url, 'sessionId')) !== undefined;
}

const reasons = (t: TestApp) =>
  t.logs.records.filter((r) => r.context === 'TokenParamSignin').map((r) => r.reason);

describe('one instance', () => {
  const t = useTestApp();

  it('a t signs one browser in, and no second or third', async () => {
    const { token } = await brandToken(t);
    expect(await signsIn(t, token)).toBe(true);
    expect(await signsIn(t, token)).toBe(false);
    expect(await signsIn(t, token)).toBe(false);
    expect(reasons(t).filter((r) => r === 'already-used')).toHaveLength(2);
  });

  it('a t never signs in after the collector signed out of the sign-in it came from', async () => {
    const { token, browser } = await brandToken(t);
    await signOutFromThisSite(browser, `${t.url}/logout/collectorsid?b=psa`);
    expect(await signsIn(t, token)).toBe(false);
    expect(reasons(t)).toContain('session-ended');
  });
});

describe('two instances sharing Redis', () => {
  let redis: RunningRedis;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    redis = await startRedis();
    const env = { SESSION_STORE: 'redis', REDIS_URL: redis.url };
    a = await startTestApp(env);
    // The second instance serves the first one's issuer, as behind a balancer.
    b = await startTestApp({ ...env, PUBLIC_URL: a.config.http.publicUrl });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis?.stop();
  });

  it('a t used on one instance signs nobody in on the other', async () => {
    const { token } = await brandToken(a);
    expect(await signsIn(a, token)).toBe(true);
    expect(await signsIn(b, token)).toBe(false);
    expect(reasons(b)).toContain('already-used');
  });
});
