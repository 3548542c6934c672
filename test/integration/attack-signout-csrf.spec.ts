import { Sessions } from '../../src/session/sessions';
import { Browser, BrowserResponse } from '../support/browser';
import { NAVIGATION_HEADERS, NavigatingBrowser } from '../support/navigating-browser';
import {
  jarCookie,
  locationOf,
  pageText,
  signInVia,
  signedOutLanding,
  throughBrandGrant,
  throughIdpLogout,
} from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 50 item 4 (sign-out CSRF), the attacker's view. A page anywhere sent a signed-in collector's
 * browser to GET /logout/collectorsid (a link, an image, a redirect): the session ended here and,
 * through `id_token_hint`, at the IdP. It is the first step of a chain: `t` acts only on a browser
 * without a session (issue 32), so the attacker signs the victim out, then sends a link with the
 * attacker's own `t`. Now a sign-out that does not come from this service or a brand's page ends
 * nothing: a page of this service asks, and only its own form, posted from this site with the token
 * it carries for this browser, signs out. The brand's sign-out link still signs out at once.
 */
const t = useTestApp({
  RATE_LIMIT_SIGNIN: '100000/60',
  RATE_LIMIT_SIGNIN_SESSION: '100000/60',
});

const ATTACKER = 'https://evil.example';
/** What a browser sends on a top-level navigation from another site that links here. */
const FROM_ATTACKER = {
  ...NAVIGATION_HEADERS,
  'sec-fetch-site': 'cross-site',
  referer: `${ATTACKER}/`,
};

/** A navigation from a page of this service (its own sign-out links). */
const SAME_ORIGIN = { ...NAVIGATION_HEADERS, 'sec-fetch-site': 'same-origin' };

/** A brand's origin in this environment (psa's base URL, one of the redirect policy's origins). */
const brandOrigin = () => new URL(t.config.brands.psa.baseURL).origin;

/**
 * A collector signed in here and at the IdP, in a browser that sends no header of its own: each
 * request below says where it comes from.
 */
async function signedInVictim(): Promise<{ browser: NavigatingBrowser; sessionId: string }> {
  const browser = new NavigatingBrowser({});
  await signInVia(t, browser, 'b=collectors');
  return { browser, sessionId: (await jarCookie(browser, t.url, 'sessionId')) ?? '' };
}

async function isLive(sessionId: string): Promise<boolean> {
  return (await t.app.get(Sessions).get(sessionId)) !== undefined;
}

/** Still signed in at the IdP: a brand's sign-in goes straight through, asking nothing. */
async function stillAtIdp(browser: Browser): Promise<boolean> {
  const start = await browser.request(`${t.url}/signin?b=psa`, { headers: SAME_ORIGIN });
  const landed = await throughBrandGrant(browser, start);
  return landed.status === 302 && locationOf(landed).pathname === '/demo/brand/psa';
}

/** The confirmation page's form: where it posts and the token it carries. */
function formOf(page: BrowserResponse): { action: string; csrf: string } {
  const form = /<form[^>]*method="post"[^>]*>/.exec(page.body)?.[0] ?? '';
  const action = /action="([^"]+)"/.exec(form)?.[1] ?? '';
  const csrf = /<input type="hidden" name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  return { action: new URL(action.replace(/&amp;/g, '&'), t.url).href, csrf };
}

/** The collector presses 'Sign out' on the page: a same-origin form post, as Chromium sends it. */
const pressSignOut = (browser: Browser, page: BrowserResponse) => {
  const { action, csrf } = formOf(page);
  return browser.request(action, {
    form: { csrf },
    headers: { ...SAME_ORIGIN, origin: t.url },
  });
};

describe.each<[string, () => Record<string, string>]>([
  ['a link on another site', () => FROM_ATTACKER],
  [
    'another site with no-referrer',
    () => ({ ...NAVIGATION_HEADERS, 'sec-fetch-site': 'cross-site' }),
  ],
  [
    'a sibling subdomain that is no brand',
    () => ({
      ...NAVIGATION_HEADERS,
      'sec-fetch-site': 'same-site',
      referer: 'http://evil.localhost/',
    }),
  ],
  [
    'a link opened outside the browser',
    () => ({ ...NAVIGATION_HEADERS, 'sec-fetch-site': 'none' }),
  ],
  ['a browser that sends no Fetch Metadata and no Referer', () => ({})],
  [
    'an image on a brand’s page',
    () => ({
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'image',
      'sec-fetch-site': 'cross-site',
      referer: `${brandOrigin()}/forum`,
    }),
  ],
  [
    'a frame on a brand’s page',
    () => ({
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'iframe',
      'sec-fetch-site': 'cross-site',
      referer: `${brandOrigin()}/`,
    }),
  ],
])('a sign-out from %s', (_from, headers) => {
  it('ends nothing: a page of this service asks, and the collector stays signed in here and at the IdP', async () => {
    const { browser, sessionId } = await signedInVictim();
    const res = await browser.request(
      `${t.url}/logout/collectorsid?b=psa&r=${encodeURIComponent(`${brandOrigin()}/`)}`,
      { headers: headers() },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // So that its own form's post says where it comes from (Origin), and nothing leaves the site.
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    const text = pageText(res.body);
    expect(text).toContain('Sign out of Collectors?');
    expect(text).toContain('Stay signed in');
    expect(await isLive(sessionId)).toBe(true);
    expect(await stillAtIdp(browser)).toBe(true);
  });
});

describe('the confirmation', () => {
  it('another site cannot post it: 403, with or without a token, and nothing ends', async () => {
    const { browser, sessionId } = await signedInVictim();
    const page = await browser.request(`${t.url}/logout/collectorsid?b=psa`, {
      headers: FROM_ATTACKER,
    });
    const { action, csrf } = formOf(page);
    for (const form of [{}, { csrf }] as Record<string, string>[]) {
      const res = await browser.request(action, {
        form,
        headers: { ...FROM_ATTACKER, origin: ATTACKER },
      });
      expect(res.status).toBe(403);
      expect(res.headers.get('location')).toBeNull();
    }
    // A form in a sandboxed frame (Origin: null), and a sibling subdomain.
    for (const origin of ['null', 'http://evil.localhost']) {
      const res = await browser.request(action, {
        form: { csrf },
        headers: { ...SAME_ORIGIN, origin },
      });
      expect(res.status).toBe(403);
    }
    expect(await isLive(sessionId)).toBe(true);
  });

  it('a token shown to another browser (the attacker’s) signs nobody out: the page asks again', async () => {
    const { browser, sessionId } = await signedInVictim();
    const attacker = new NavigatingBrowser(FROM_ATTACKER);
    await signInVia(t, attacker, 'b=collectors', { email: 'japan@example.com' });
    const theirs = await attacker.get(`${t.url}/logout/collectorsid?b=psa`);
    // Even were the victim's browser to post it from this site (it cannot: the page above).
    const res = await pressSignOut(browser, theirs);
    expect(res.status).toBe(200);
    expect(pageText(res.body)).toContain('Sign out of Collectors?');
    expect(await isLive(sessionId)).toBe(true);
    // Nor one from a browser with no session at all.
    const stranger = await new NavigatingBrowser(FROM_ATTACKER).get(
      `${t.url}/logout/collectorsid?b=psa`,
    );
    expect((await pressSignOut(browser, stranger)).status).toBe(200);
    expect(await isLive(sessionId)).toBe(true);
  });

  it('the collector who presses Sign out is signed out, once, and the query (but t) reaches the landing', async () => {
    const { browser, sessionId } = await signedInVictim();
    const query = 'b=psa&lang=fr-CA&foo=bar&t=not-carried';
    const page = await browser.request(`${t.url}/logout/collectorsid?${query}`, {
      headers: FROM_ATTACKER,
    });
    // In the sign-out's language.
    expect(page.body).toContain('<html lang="fr-CA"');
    expect(pageText(page.body)).toContain('Se déconnecter de Collectors?');
    expect(formOf(page).action).not.toContain('t=');
    const out = await pressSignOut(browser, page);
    const endSession = locationOf(out);
    expect(endSession.pathname).toBe('/oauth2/default/v1/logout');
    expect(endSession.searchParams.get('id_token_hint')).toEqual(expect.any(String));
    expect(await isLive(sessionId)).toBe(false);
    const { landing } = await throughIdpLogout(browser, endSession);
    const landed = signedOutLanding(await browser.get(landing.href));
    expect(landed.signedOut).toBe(true);
    expect(landed.locale).toBe('fr-CA');
    const target = new URL(landed.target, t.url);
    expect(target.pathname).toBe('/signin');
    expect(Object.fromEntries(target.searchParams)).toEqual({
      b: 'psa',
      lang: 'fr-CA',
      foo: 'bar',
      signedOut: 'true',
    });
    // The page's token is spent: posting it again asks again.
    const again = await pressSignOut(browser, page);
    expect(again.status).toBe(200);
  });
});

describe('where a sign-out goes ahead at once', () => {
  it('the brand’s sign-out link (a navigation from its site): no extra click, and r reaches the landing', async () => {
    const { browser, sessionId } = await signedInVictim();
    const r = `${brandOrigin()}/signed-out`;
    const out = await browser.request(
      `${t.url}/logout/collectorsid?b=psa&r=${encodeURIComponent(r)}&t=not-carried`,
      {
        headers: {
          ...NAVIGATION_HEADERS,
          'sec-fetch-site': 'cross-site',
          referer: `${brandOrigin()}/`,
        },
      },
    );
    expect(await isLive(sessionId)).toBe(false);
    const { landing } = await throughIdpLogout(browser, locationOf(out));
    expect(signedOutLanding(await browser.get(landing.href)).target).toBe(r);
  });

  it('this service’s own sign-out link (same-origin)', async () => {
    const { browser, sessionId } = await signedInVictim();
    const out = await browser.request(`${t.url}/logout/collectorsid?b=collectors`, {
      headers: SAME_ORIGIN,
    });
    expect(locationOf(out).pathname).toBe('/oauth2/default/v1/logout');
    expect(await isLive(sessionId)).toBe(false);
  });
});

it('the chain stops at its first step: the victim is still signed in, so the attacker’s t changes nothing', async () => {
  // The attacker's own `t`, as PSA received it at their sign-in.
  const { landing } = await signInVia(t, new Browser(), 'b=psa', { email: 'japan@example.com' });
  const token = locationOf(landing).searchParams.get('t') ?? '';
  const { browser, sessionId } = await signedInVictim();
  await browser.request(`${t.url}/logout/collectorsid?b=collectors`, { headers: FROM_ATTACKER });
  const back = await browser.request(`${t.url}/collection?t=${encodeURIComponent(token)}`, {
    headers: FROM_ATTACKER,
  });
  expect(locationOf(back).pathname).toBe('/collection');
  expect(await jarCookie(browser, t.url, 'sessionId')).toBe(sessionId);
  const status = await browser.request(`${t.url}/api/collectors-web/trpc/account.status`, {
    headers: { 'sec-fetch-site': 'same-origin' },
  });
  expect(JSON.parse(status.body)).toMatchObject({ result: { data: { collectorsId: 100001 } } });
});
