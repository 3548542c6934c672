import { decodeJwt } from 'jose';
import { AccountStore } from '../../src/idp/accounts/account-store';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import { Browser } from '../support/browser';
import * as client from 'openid-client';
import { brandClient, jarCookie, locationOf, pageText, signInVia } from '../support/signin-journey';
import { textOf } from '../support/signin-steps';
import { TestApp, useTestApp } from '../support/test-app';
import { crossSiteBrowser, pressOnConfirmation, userinfoCalls } from '../support/token-offers';

/**
 * Issue 50 item 2, the attacker's view: they register cx@example.com, sign in through a brand and send
 * the collector (collector@example.com) a link with their `t`. The page asked "Continue as
 * c•••@example.com", which is what the collector's own account reads too: one click signed the
 * victim into the attacker's account. Whoever holds a `t` can read its whole address from userinfo,
 * so masking it protected nobody. Now the page shows the whole address, set apart, and the
 * collector number the token carries; the two accounts read differently at a glance.
 */
const t = useTestApp();

/** What psa received at a sign-in of `email`. */
async function brandToken(app: TestApp, email: string): Promise<string> {
  const { landing } = await signInVia(app, new Browser(), 'b=psa', { email });
  return locationOf(landing).searchParams.get('t') ?? '';
}

/** The confirmation page a cross-site link with `token` leads a fresh browser to. */
async function confirmationFor(token: string) {
  const browser = crossSiteBrowser();
  const offer = locationOf(
    await browser.get(`${t.url}/signin?b=psa&t=${encodeURIComponent(token)}`),
  );
  expect(offer.pathname).toBe('/signin/continue');
  const page = await browser.get(offer.href);
  expect(page.status).toBe(200);
  return { browser, page };
}

/** The text of the page's account box (class token-account). */
function accountBox(html: string): string {
  return textOf(/<dl class="token-account">([\s\S]*?)<\/dl>/.exec(html)?.[1] ?? '');
}

it('the attacker’s look-alike account reads as what it is: the whole address and its collector number', async () => {
  const attacker = await t.app.get(AccountStore).createAccount({
    email: 'cx@example.com',
    password: DEMO_PASSWORD,
    locale: 'en-US',
    givenName: 'Casey',
    familyName: 'Xavier',
    acceptedTerms: true,
    flags: { emailVerified: true },
  });
  const theirs = await brandToken(t, 'cx@example.com');
  const mine = await brandToken(t, 'collector@example.com');
  // Issue 49 item 2: the token carries the login as `sub`, so nothing needs the IdP to name it.
  expect(decodeJwt(theirs).sub).toBe('cx@example.com');

  const asked = userinfoCalls(t.logs);
  const lure = await confirmationFor(theirs);
  const own = await confirmationFor(mine);
  expect(userinfoCalls(t.logs) - asked).toBe(0);

  // The name too, as the session that handed each token over knew it (asked of no IdP now).
  expect(accountBox(lure.page.body)).toBe(
    `Name Casey Xavier Email address cx@example.com Collector number ${attacker.collectorsId}`,
  );
  expect(accountBox(own.page.body)).toBe(
    'Name Casey Collector Email address collector@example.com Collector number 100001',
  );
  const text = pageText(lure.page.body);
  expect(text).toContain('Continue as cx@example.com');
  expect(text).not.toContain('•••');
  expect(text).not.toContain('collector@example.com');
  // The address stands in a box of its own, not only inside a sentence.
  expect(lure.page.body).toMatch(/<dd class="token-account__login">cx@example.com<\/dd>/);

  // A collector who reads it and declines stays signed out; one who confirms their own is signed in.
  await pressOnConfirmation(t, lure.browser, lure.page, 'decline');
  expect(await jarCookie(lure.browser, t.url, 'sessionId')).toBeUndefined();
  await pressOnConfirmation(t, own.browser, own.page, 'continue');
  expect(await jarCookie(own.browser, t.url, 'sessionId')).toBeDefined();
});

it('the whole address, however long: never cut or masked', async () => {
  const email = `${'collector.with.a.very.long.name'.repeat(3)}@example.com`;
  await t.app.get(AccountStore).createAccount({
    email,
    password: DEMO_PASSWORD,
    locale: 'en-US',
    acceptedTerms: true,
    flags: { emailVerified: true },
  });
  const { page } = await confirmationFor(await brandToken(t, email));
  expect(accountBox(page.body)).toMatch(
    new RegExp(`^Email address ${email.replace(/\./g, '\\.')} `),
  );
});

it('an address that only looks like the collector’s (a Cyrillic с) is spelled out beneath it', async () => {
  const lookalike = '\u0441ollector@example.com';
  const attacker = await t.app.get(AccountStore).createAccount({
    email: lookalike,
    password: DEMO_PASSWORD,
    locale: 'en-US',
    acceptedTerms: true,
    flags: { emailVerified: true },
  });
  const { page } = await confirmationFor(await brandToken(t, lookalike));
  expect(accountBox(page.body)).toBe(
    `Email address ${lookalike} Collector number ${attacker.collectorsId}`,
  );
  expect(pageText(page.body)).toContain(
    'so it may only look like yours. Written out: [U+0441]ollector@example.com',
  );
});

it('a t this service never handed over (a brand’s own refresh) gets no offer: it could not be named without asking the IdP', async () => {
  // The attacker refreshes the grant their brand received with the brand's own client: a valid t
  // for their account, with a jti this service never recorded.
  const { landing } = await signInVia(t, new Browser(), 'b=psa', {
    email: 'collector@example.com',
  });
  const rt = locationOf(landing).searchParams.get('rt') ?? '';
  const refreshed = await client.refreshTokenGrant(await brandClient(t, 'psa'), rt);
  const asked = userinfoCalls(t.logs);
  const browser = crossSiteBrowser();
  const onward = locationOf(
    await browser.get(`${t.url}/signin?b=psa&t=${encodeURIComponent(refreshed.access_token)}`),
  );
  // On without the t and without an offer: the sign-in goes through the IdP, as with no t at all.
  expect(onward.pathname).toBe('/signin');
  expect(onward.searchParams.get('t')).toBeNull();
  expect(await jarCookie(browser, t.url, 'signinBinding')).toBeUndefined();
  expect(userinfoCalls(t.logs) - asked).toBe(0);
  expect(t.logs.records.some((r) => r.reason === 'not-handed-over')).toBe(true);
});
