import { NAVIGATION_HEADERS, NavigatingBrowser } from '../support/navigating-browser';
import { Browser } from '../support/browser';
import {
  jarCookie,
  locationOf,
  pageText,
  signInVia,
  signedOutLanding,
  throughIdpLogout,
} from '../support/signin-journey';
import { useTestApp } from '../support/test-app';
import { pressOnConfirmation } from '../support/token-offers';

/**
 * Issue 32 item 1 (login CSRF through `t`), the attacker's view: they sign in themselves, take the
 * `t` their brand received, and send a victim a link with it. Before, one click signed the victim's
 * browser into the attacker's account (here and onward at PSA), and a signed-in victim was switched
 * into it by a sign-out link whose `r` was this service's /collection?t=….
 */
const t = useTestApp();

/** The attacker's `t`: what PSA received at their sign-in (the demo user collector@example.com). */
async function attackersToken(): Promise<string> {
  const { landing } = await signInVia(t, new Browser(), 'b=psa');
  return locationOf(landing).searchParams.get('t') ?? '';
}

const victim = (site?: string) =>
  new NavigatingBrowser({ ...NAVIGATION_HEADERS, ...(site ? { 'sec-fetch-site': site } : {}) });

async function signedInAs(browser: Browser): Promise<number | undefined> {
  const res = await browser.get(`${t.url}/api/collectors-web/trpc/account.status`);
  const data = (JSON.parse(res.body) as { result: { data: { collectorsId?: number } } }).result
    .data;
  return data.collectorsId;
}

describe.each([
  ['another site', 'cross-site'],
  ['a link opened outside the browser', 'none'],
  ['a browser that sends no Fetch Metadata', undefined],
])('a t from %s', (_from, site) => {
  it('signs nobody in: the page names the account and asks', async () => {
    const token = await attackersToken();
    const browser = victim(site);
    const res = await browser.get(`${t.url}/signin?b=psa&t=${encodeURIComponent(token)}`);
    expect(res.status).toBe(302);
    expect(await jarCookie(browser, t.url, 'sessionId')).toBeUndefined();
    const offer = locationOf(res);
    expect(offer.pathname).toBe('/signin/continue');
    expect(offer.searchParams.has('t')).toBe(false);
    const page = await browser.get(offer.href);
    expect(page.status).toBe(200);
    const text = pageText(page.body);
    // The whole address (issue 50 item 2), and both answers.
    expect(text).toContain('Continue as collector@example.com');
    expect(text).toContain('Not you? Go on without signing in');
    expect(page.body).not.toContain(token);
    expect(await signedInAs(browser)).toBeUndefined();
  });
});

it('the collector who chooses the account is signed in, once', async () => {
  const token = await attackersToken();
  const browser = victim('cross-site');
  const offer = locationOf(
    await browser.get(`${t.url}/signin?b=psa&t=${encodeURIComponent(token)}`),
  );
  const page = await browser.get(offer.href);
  // The button on this page posts its form, from this origin (issue 50 item 7).
  const done = await pressOnConfirmation(t, browser, page, 'continue');
  expect(done.status).toBe(302);
  expect(locationOf(done).pathname).toBe('/signin');
  expect(await signedInAs(browser)).toBe(100001);
  // The offer is gone with its use.
  expect((await pressOnConfirmation(t, browser, page, 'continue')).status).toBe(400);
});

it('another site cannot confirm for the collector, nor can another browser', async () => {
  const token = await attackersToken();
  const browser = victim('cross-site');
  const offer = locationOf(
    await browser.get(`${t.url}/signin?b=psa&t=${encodeURIComponent(token)}`),
  );
  const page = await browser.get(offer.href);
  const forged = await pressOnConfirmation(t, browser, page, 'continue', {
    'sec-fetch-site': 'cross-site',
    origin: 'https://attacker.example',
  });
  expect(forged.status).toBe(403);
  const stranger = victim('same-origin');
  expect((await pressOnConfirmation(t, stranger, page, 'continue')).status).toBe(400);
  expect((await stranger.get(offer.href)).status).toBe(400);
  expect(await signedInAs(browser)).toBeUndefined();
});

it('a same-site hand-back from a brand (its Referer a brand origin) still signs in at once', async () => {
  const token = await attackersToken();
  const browser = victim('same-site');
  await browser.request(`${t.url}/signin?b=psa&t=${encodeURIComponent(token)}`, {
    headers: { referer: `${new URL(t.config.brands.psa.baseURL).origin}/orders` },
  });
  expect(await jarCookie(browser, t.url, 'sessionId')).toBeDefined();
});

it('a sign-out link whose r is this service’s own page never carries t onward', async () => {
  const token = await attackersToken();
  // The victim is signed in as someone else (japan@example.com).
  const browser = victim('same-origin');
  await signInVia(t, browser, 'b=collectors', { email: 'japan@example.com' });
  const mine = await signedInAs(browser);
  const r = `${t.config.http.publicUrl}/collection?t=${token}`;
  const out = await browser.get(
    `${t.url}/logout/collectorsid?b=collectors&r=${encodeURIComponent(r)}`,
  );
  const { landing } = await throughIdpLogout(browser, locationOf(out));
  const target = signedOutLanding(await browser.get(landing.href)).target;
  expect(target).toBe(`${t.config.http.publicUrl}/collection`);
  expect(target).not.toContain(token);
  expect(mine).not.toBe(100001);
});
