import { Browser } from '../support/browser';
import { signInVia, throughBrandGrant } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 32 item 5, the attacker's (or an eager script's) view: every signed-in /signin?b=collectors
 * made another year-long session and kept the earlier ones; one collector reached 116. Now a
 * browser keeps one session per brand of a sign-in: a repeated hop replaces the earlier one.
 */
const t = useTestApp({
  RATE_LIMIT_SIGNIN: '100000/60',
  RATE_LIMIT_SIGNIN_SESSION: '100000/60',
});

async function sessionsOf(browser: Browser): Promise<{ brand: string; current: boolean }[]> {
  const res = await browser.get(`${t.url}/api/collectors-web/trpc/account.sessions`);
  return (JSON.parse(res.body) as { result: { data: { brand: string; current: boolean }[] } })
    .result.data;
}

it('100 signed-in hops leave one session per brand, and the browser stays signed in', async () => {
  const browser = new Browser();
  await signInVia(t, browser, 'b=collectors');
  for (let i = 0; i < 100; i++) {
    const brand = i % 2 === 0 ? 'collectors' : 'psa';
    const res = await throughBrandGrant(browser, await browser.get(`${t.url}/signin?b=${brand}`));
    expect(res.status).toBe(302);
  }
  const sessions = await sessionsOf(browser);
  expect(sessions.map((s) => s.brand).sort()).toEqual(['collectors', 'psa']);
  expect(sessions.filter((s) => s.current)).toHaveLength(1);
  expect((await browser.get(`${t.url}/collection`)).status).toBe(200);
}, 120_000);
