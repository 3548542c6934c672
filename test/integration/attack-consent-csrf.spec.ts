import { decodeJwt } from 'jose';
import { AccountProfiles } from '../../src/session/account-profiles';
import { NAVIGATION_HEADERS, NavigatingBrowser } from '../support/navigating-browser';
import { locationOf, signInVia } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 15 item 10, as an attacker would send it: /signin?acceptedTermsAndConditions=true is a GET
 * that changes a stored consent, so any page could make a signed-in collector's browser request it
 * (an image, a frame, a link from another site). Only a top-level navigation from this service, a
 * brand or the IdP may change it; anything else leaves the consent as it was, and the sign-in goes on.
 */
const t = useTestApp({
  RATE_LIMIT_SIGNIN: '100000/60',
  RATE_LIMIT_SIGNIN_SESSION: '100000/60',
});

const brandPage = () => `${t.config.http.publicUrl}/demo/brand/psa`;

/** A collector signed in through psa, with no consent recorded; their browser and subject. */
async function signedIn(): Promise<{ browser: NavigatingBrowser; sub: string }> {
  const browser = new NavigatingBrowser();
  const { landing } = await signInVia(t, browser, 'b=psa');
  // The user id, `uid` in an access token (its `sub` is the login: issue 49 item 2).
  const { uid } = decodeJwt(locationOf(landing).searchParams.get('t') ?? '');
  const sub = typeof uid === 'string' ? uid : '';
  expect(sub).not.toBe('');
  return { browser, sub };
}

const consentOf = async (sub: string) =>
  (await t.app.get(AccountProfiles).get(sub)).acceptedTermsAndConditions;

it.each([
  [
    'an image on another site',
    { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image', 'sec-fetch-site': 'cross-site' },
  ],
  [
    'a frame on another site',
    { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe', 'sec-fetch-site': 'cross-site' },
  ],
  [
    'a link from another site',
    { ...NAVIGATION_HEADERS, 'sec-fetch-site': 'cross-site', referer: 'https://evil.example/' },
  ],
  [
    'a link from another site with its Referer stripped',
    { ...NAVIGATION_HEADERS, 'sec-fetch-site': 'cross-site' },
  ],
  ['a script’s fetch', { 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'cross-site' }],
])(
  '%s: the consent stays as it was, the request is logged',
  async (_name, headers) => {
    const { browser, sub } = await signedIn();
    expect(await consentOf(sub)).toBeUndefined();
    const res = await browser.request(`${t.url}/signin?b=psa&acceptedTermsAndConditions=true`, {
      headers,
    });
    expect(res.status).toBe(302);
    expect(await consentOf(sub)).toBeUndefined();
    const id = res.headers.get('x-request-id');
    expect(
      t.logs.records.some(
        (r) => r.event === 'consent-ignored' && (r.req as { id?: string } | undefined)?.id === id,
      ),
    ).toBe(true);
  },
  60_000,
);

it.each([
  ['a link from the brand', { 'sec-fetch-site': 'cross-site', referer: brandPage }],
  ['a typed or bookmarked address', { 'sec-fetch-site': 'none' }],
])(
  '%s: the consent is recorded',
  async (_name, extra) => {
    const { browser, sub } = await signedIn();
    const headers = Object.fromEntries(
      Object.entries(extra).map(([k, v]) => [k, typeof v === 'function' ? v() : v]),
    );
    await browser.request(`${t.url}/signin?b=psa&acceptedTermsAndConditions=true`, {
      headers: { ...NAVIGATION_HEADERS, ...headers },
    });
    expect(await consentOf(sub)).toBe(true);
  },
  60_000,
);
