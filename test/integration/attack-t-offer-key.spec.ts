import { Browser } from '../support/browser';
import { NAVIGATION_HEADERS, NavigatingBrowser } from '../support/navigating-browser';
import { jarCookie, locationOf, signInVia } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';
import { confirmationForm, crossSiteBrowser, pressOnConfirmation } from '../support/token-offers';

/**
 * Issue 50 item 7, the attacker's view of the offer key `k` (/signin/continue?k=…): it was written to
 * the access log with every view of the page and every redirect to it; a confirmation from another
 * browser took the offer before checking its binding, so it burnt the collector's offer; "Not you?"
 * only left, with the offer still standing; and the confirmation was a GET link, which anything that
 * can make the browser navigate can follow. Now `k` is redacted like `t`, the binding and the form's
 * CSRF token are checked before the offer is taken, "Not you?" ends it, and both answers are a
 * same-origin form post.
 */
const t = useTestApp();

/** A collector's browser that followed a cross-site link with `t`, on the confirmation page. */
async function offered() {
  const { landing } = await signInVia(t, new Browser(), 'b=psa');
  const token = locationOf(landing).searchParams.get('t') ?? '';
  const browser = crossSiteBrowser();
  const offer = locationOf(await browser.get(`${t.url}/collection?t=${encodeURIComponent(token)}`));
  const page = await browser.get(offer.href);
  expect(page.status).toBe(200);
  return { browser, offer, page, key: offer.searchParams.get('k') ?? '' };
}

const signedIn = async (browser: Browser) =>
  (await jarCookie(browser, t.url, 'sessionId')) !== undefined;

it('k never reaches a log line: not the redirect to the page, not the page, not its post', async () => {
  const { browser, page, key } = await offered();
  expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const lines = () =>
    t.logs.records.filter(
      (r) => r.msg === 'request completed' && JSON.stringify(r).includes('/signin/continue'),
    );
  // The redirect's Location and the page's own request line.
  expect(lines().length).toBeGreaterThanOrEqual(2);
  expect(t.logs.text).not.toContain(key);
  expect(JSON.stringify(lines())).toContain('/signin/continue?k=[Redacted]');
  await pressOnConfirmation(t, browser, page, 'continue');
  expect(await signedIn(browser)).toBe(true);
  expect(t.logs.text).not.toContain(key);
});

it('another browser cannot take the offer, even with k and the page’s CSRF token: the collector still can', async () => {
  const { browser, page, offer } = await offered();
  const stranger = new NavigatingBrowser({
    ...NAVIGATION_HEADERS,
    'sec-fetch-site': 'same-origin',
  });
  expect((await stranger.get(offer.href)).status).toBe(400);
  for (const button of ['continue', 'decline'] as const)
    expect((await pressOnConfirmation(t, stranger, page, button)).status).toBe(400);
  expect(await signedIn(stranger)).toBe(false);
  // The collector's offer is as it was.
  const done = await pressOnConfirmation(t, browser, page, 'continue');
  expect(done.status).toBe(302);
  expect(await signedIn(browser)).toBe(true);
});

it('"Not you?" ends the offer: nobody is signed in, and it cannot be confirmed afterwards', async () => {
  const { browser, page, offer } = await offered();
  const declined = await pressOnConfirmation(t, browser, page, 'decline');
  expect(declined.status).toBe(302);
  expect(locationOf(declined).pathname).toBe('/collection');
  expect(await signedIn(browser)).toBe(false);
  expect((await browser.get(offer.href)).status).toBe(400);
  expect((await pressOnConfirmation(t, browser, page, 'continue')).status).toBe(400);
  expect(await signedIn(browser)).toBe(false);
});

describe('confirming is a same-origin form post from the page', () => {
  it('a GET, the old link with confirm=1, signs nobody in and leaves the offer', async () => {
    const { browser, page, offer } = await offered();
    const res = await browser.request(`${offer.href}&confirm=1`, {
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(res.status).toBe(200);
    expect(await signedIn(browser)).toBe(false);
    expect((await pressOnConfirmation(t, browser, page, 'continue')).status).toBe(302);
    expect(await signedIn(browser)).toBe(true);
  });

  it.each([
    ['another site', { 'sec-fetch-site': 'cross-site', origin: 'https://attacker.example' }],
    [
      'a sibling site',
      { 'sec-fetch-site': 'same-site', origin: 'https://forgotten.collectors.com' },
    ],
    ['an opaque origin', { 'sec-fetch-site': 'cross-site', origin: 'null' }],
  ])('a post from %s is refused (403) and leaves the offer', async (_from, headers) => {
    const { browser, page } = await offered();
    const forged = await pressOnConfirmation(t, browser, page, 'continue', headers);
    expect(forged.status).toBe(403);
    expect(await signedIn(browser)).toBe(false);
    expect((await pressOnConfirmation(t, browser, page, 'continue')).status).toBe(302);
  });

  it.each([
    ['without the page’s CSRF token', undefined],
    ['with another CSRF token', 'x'.repeat(32)],
  ])('a post %s is refused (403) and leaves the offer', async (_how, csrf) => {
    const { browser, page } = await offered();
    const { action, fields } = confirmationForm(page);
    const form: Record<string, string> = { k: fields.k ?? '', action: 'continue' };
    if (csrf !== undefined) form.csrf = csrf;
    const forged = await browser.request(new URL(action, t.url).href, {
      form,
      headers: { 'sec-fetch-site': 'same-origin', origin: new URL(t.url).origin },
    });
    expect(forged.status).toBe(403);
    expect(await signedIn(browser)).toBe(false);
    expect((await pressOnConfirmation(t, browser, page, 'continue')).status).toBe(302);
  });
});
