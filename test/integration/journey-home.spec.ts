import { Browser } from '../support/browser';
import { locationOf, pageDataOf, signedOutLanding, throughIdp } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 33 item 4: the bare address a newcomer opens after `npm start`. From `/` a signed-out person
 * reaches sign-in and, once signed in, the landing; a signed-in one reaches the landing at once; the
 * language asked for at `/` is kept at every hop. Before, `/` answered the 404 error page.
 */
const t = useTestApp();

describe('GET /', () => {
  it('signed out: to /collection, then sign-in, then back to /collection signed in', async () => {
    const browser = new Browser();
    const home = await browser.get(`${t.url}/`);
    expect(home.status).toBe(302);
    expect(locationOf(home).pathname).toBe('/collection');
    const shell = await browser.get(locationOf(home).href);
    expect(shell.status).toBe(302);
    expect(locationOf(shell).pathname).toBe('/signin');
    const start = await browser.get(locationOf(shell).href);
    const callback = await throughIdp(browser, start);
    const landing = await browser.get(callback.href);
    expect(landing.status).toBe(302);
    const page = await browser.get(locationOf(landing).href);
    expect(new URL(page.url).pathname).toBe('/collection');
    expect(page.status).toBe(200);
    expect(pageDataOf(page.body)).toMatchObject({ locale: 'en-US' });
    // Signed in now: `/` leads straight to the landing, which renders.
    const again = await browser.get(`${t.url}/`);
    expect(locationOf(again).pathname).toBe('/collection');
    expect((await browser.get(locationOf(again).href)).status).toBe(200);
  }, 60_000);

  it.each([
    ['?lang=fr-CA', '/fr-CA/collection', 'fr-CA'],
    ['?l=ja-JP', '/ja-JP/collection', 'ja-JP'],
    ['?b=psajapan', '/ja-JP/collection', 'ja-JP'],
    ['', '/collection', 'en-US'],
  ])('%s keeps the language: %s, then sign-in in %s', async (query, path, locale) => {
    const browser = new Browser();
    const home = await browser.get(`${t.url}/${query}`);
    expect(locationOf(home).pathname).toBe(path);
    expect(locationOf(home).search).toBe('');
    const shell = await browser.get(locationOf(home).href);
    const signin = locationOf(shell);
    expect(signin.pathname).toBe('/signin');
    const step = await browser.follow(await browser.get(signin.href));
    expect(step.body).toContain(`lang="${locale}"`);
  });

  it('carries nothing but the language: an `r` at `/` goes nowhere', async () => {
    const home = await new Browser().get(`${t.url}/?r=https://evil.example/&b=psa&lang=fr-CA`);
    expect(home.headers.get('location')).toBe('/fr-CA/collection');
  });

  it('a `t` at `/` meets the token rule first (an unusable one is dropped), then the same', async () => {
    const browser = new Browser();
    const home = await browser.get(`${t.url}/?t=abc&lang=fr-CA`);
    expect(home.headers.get('location')).toBe('/?lang=fr-CA');
    const next = await browser.get(locationOf(home).href);
    expect(next.headers.get('location')).toBe('/fr-CA/collection');
  });
});

/**
 * Issue 33: the sign-out landing opened with no sign-out of ours behind it (a bookmark, a shared
 * link) takes its brand and language from its own query, as every other page does (§5); it showed
 * the collectors brand in English whatever it was asked.
 */
describe('GET /handlelogoutredirect without a state of ours', () => {
  it.each([
    ['?b=psa&lang=ja-JP', 'psa', 'ja-JP', '/signin?b=psa&lang=ja-JP'],
    ['?lang=fr-CA', 'collectors', 'fr-CA', '/signin?lang=fr-CA'],
    ['?b=psajapan', 'psajapan', 'ja-JP', '/signin?b=psajapan&lang=ja-JP'],
    ['', 'collectors', 'en-US', '/signin'],
    ['?b=nosuchbrand&state=forged', 'collectors', 'en-US', '/signin'],
  ])('%s: brand %s, in %s, nothing signed out, on to %s', async (query, brand, locale, target) => {
    const page = signedOutLanding(await new Browser().get(`${t.url}/handlelogoutredirect${query}`));
    expect(page).toMatchObject({ brand, locale, signedOut: false, target });
  });
});
