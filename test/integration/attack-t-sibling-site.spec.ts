import { Browser } from '../support/browser';
import { NAVIGATION_HEADERS, NavigatingBrowser } from '../support/navigating-browser';
import { jarCookie, locationOf, signInVia } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 50 item 3, the attacker's view: they control some host of the family's site (a forgotten
 * `*.collectors.com`, a user-content one) and link from it with their own `t`. The navigation is
 * `Sec-Fetch-Site: same-site`, which signed the victim's browser in at once, no question asked. Now
 * only a same-origin navigation, or a same-site one whose Origin or Referer is a brand origin of the
 * redirect policy, signs in at once; every other one gets the confirmation page.
 */
const t = useTestApp();

async function attackersToken(): Promise<string> {
  const { landing } = await signInVia(t, new Browser(), 'b=psa');
  return locationOf(landing).searchParams.get('t') ?? '';
}

/** A victim's browser following a link with `t` from a sibling host, with these headers. */
async function follow(headers: Record<string, string>) {
  const token = await attackersToken();
  const browser = new NavigatingBrowser({
    ...NAVIGATION_HEADERS,
    'sec-fetch-site': 'same-site',
    ...headers,
  });
  const res = await browser.get(`${t.url}/collection?t=${encodeURIComponent(token)}`);
  expect(res.status).toBe(302);
  return {
    to: locationOf(res).pathname,
    signedIn: (await jarCookie(browser, t.url, 'sessionId')) !== undefined,
  };
}

const brandOrigin = () => new URL(t.config.brands.psa.baseURL).origin;

describe.each([
  ['a sibling host that is no brand', { referer: 'https://forgotten.collectors.com/page' }],
  ['a sibling host that sends no Referer (Referrer-Policy: no-referrer)', {}],
  [
    'a sibling host whose Origin is no brand, even with a brand Referer',
    // The local configuration's psa base (dev.psacard.com), a brand origin of the policy.
    { origin: 'https://forgotten.collectors.com', referer: 'https://dev.psacard.com/' },
  ],
  ['a sibling host with an opaque Origin', { origin: 'null' }],
])('a same-site link from %s', (_from, headers) => {
  it('signs nobody in: the page names the account and asks', async () => {
    expect(await follow(headers)).toEqual({ to: '/signin/continue', signedIn: false });
  });
});

describe('what still signs in at once', () => {
  it('the brand origin used above is one of the policy', () => {
    expect(brandOrigin()).toBe('https://dev.psacard.com');
  });

  it('a brand on a sibling host, by its Referer', async () => {
    expect(await follow({ referer: `${brandOrigin()}/orders` })).toEqual({
      to: '/collection',
      signedIn: true,
    });
  });

  it('a brand on a sibling host, by its Origin', async () => {
    expect(await follow({ origin: brandOrigin() })).toEqual({ to: '/collection', signedIn: true });
  });

  it('a page of this service (same-origin)', async () => {
    expect(await follow({ 'sec-fetch-site': 'same-origin' })).toEqual({
      to: '/collection',
      signedIn: true,
    });
  });
});
