import { Browser } from '../support/browser';
import {
  locationOf,
  signInVia,
  throughBrandGrant,
  signOutFromThisSite,
} from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 15 item 10, as an attacker would try it: a page elsewhere links (or frames, or redirects) a
 * signed-in collector to the IdP's logout endpoint. Without an id_token_hint or a relying party's
 * registered landing, the confirmation must not submit itself: the collector stays signed in unless
 * they press the button. This service's own sign-out still signs out at once.
 */
const t = useTestApp({
  RATE_LIMIT_SIGNIN: '100000/60',
  RATE_LIMIT_SIGNIN_SESSION: '100000/60',
});

const AUTO_SUBMIT = "document.getElementById('op.logoutForm').submit()";

it.each([
  ['a bare link to the logout endpoint', ''],
  [
    'a stranger’s post_logout_redirect_uri',
    '?post_logout_redirect_uri=https%3A%2F%2Fevil.example%2F',
  ],
  ['the service’s client id, no landing and no hint', '?client_id=collectors-signon'],
])(
  '%s: the confirmation waits for the collector',
  async (_name, query) => {
    const browser = new Browser();
    await signInVia(t, browser, 'b=collectors');
    const page = await browser.get(`${t.config.idp.issuer}/v1/logout${query}`);
    if (page.status === 200) {
      expect(page.body).not.toContain(AUTO_SUBMIT);
    } else {
      // oidc-provider refuses an unregistered landing outright: also no logout.
      expect(page.status).toBe(400);
    }
    // Still signed in at the IdP: a new sign-in goes straight through, asking nothing.
    const again = await throughBrandGrant(browser, await browser.get(`${t.url}/signin?b=psa`));
    expect(locationOf(again).pathname).toBe('/demo/brand/psa');
  },
  60_000,
);

it('this service’s own sign-out (id_token_hint, registered landing) submits itself', async () => {
  const browser = new Browser();
  await signInVia(t, browser, 'b=collectors');
  const out = await signOutFromThisSite(browser, `${t.url}/logout/collectorsid?b=collectors`);
  const endSession = locationOf(out);
  expect(endSession.searchParams.get('id_token_hint')).toEqual(expect.any(String));
  const page = await browser.get(endSession.href);
  expect(page.status).toBe(200);
  expect(page.body).toContain(AUTO_SUBMIT);
}, 60_000);
