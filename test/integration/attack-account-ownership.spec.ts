import { randomUUID } from 'node:crypto';
import * as client from 'openid-client';
import { AccountStore } from '../../src/idp/accounts/account-store';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import { Browser, BrowserResponse } from '../support/browser';
import { buildApp, removeBuild, startProcessApp } from '../support/process-app';
import { EMAIL, locationOf, brandClient, signInVia } from '../support/signin-journey';
import {
  SigninDriver,
  StepResult,
  codeFromOutbox,
  csrfOf,
  errorSummary,
  formActionOf,
  signinText,
  stepTitle,
} from '../support/signin-steps';
import { TestApp, useTestApp } from '../support/test-app';

/**
 * Issue 15 item 2, account ownership, as an attacker would try it over HTTP with a cookie jar, against
 * the real app, its embedded IdP and real SQLite; codes are read from the IdP's outbox, which stands in
 * for the victim's mailbox (only the victim's side of a test reads it).
 *
 * - An address whose owner never proved it does not sign anybody in with a password: not through
 *   EmailCheck, and not through a recovery page's BACK either.
 * - Such a registration does not keep the owner out: their registration, or their recovery, replaces it.
 * - A password reset signs the account out everywhere: its IdP sessions, its refresh tokens (the IdP's
 *   introspection says inactive) and its sessions in this service (by OIDC Back-Channel Logout).
 */

const LONG = 60_000;
const ATTACKER_PASSWORD = 'Att4cker!owns-it';
const OWNER_PASSWORD = 'Own3r!real-one';
const SCOPE = { scope: 'openid customer profile email offline_access' };

const title = (step: string, locale = 'en-US'): string => signinText(locale, `steps.${step}.title`);
const victimEmail = (): string => `victim-${randomUUID()}@example.com`;

const t = useTestApp();
let idp: SigninDriver;

beforeAll(async () => {
  idp = await SigninDriver.for(t);
}, 30_000);

/** Posts a page's form and expects the next page (not the client). */
async function next(
  browser: Browser,
  page: BrowserResponse,
  values: Record<string, string>,
  action = 'submit',
): Promise<BrowserResponse> {
  return idp.next(browser, page, values, action);
}

/**
 * The attacker registers the victim's address with a password of their own and stops at the code
 * step (the code went to the victim's mailbox). Returns the attacker's browser on VerifyEmailCode.
 */
async function preRegister(email: string): Promise<{ browser: Browser; page: BrowserResponse }> {
  const browser = new Browser();
  const { page: first } = await idp.begin(browser, SCOPE);
  const create = await next(browser, first, { email });
  expect(stepTitle(create)).toBe(title('CreateAccount'));
  const verify = await next(browser, create, {
    givenName: 'Mallory',
    familyName: 'Squatter',
    newPassword: ATTACKER_PASSWORD,
    acceptTerms: 'true',
  });
  expect(stepTitle(verify)).toBe(title('VerifyEmailCode'));
  return { browser, page: verify };
}

/** Whatever page the attacker is on: a password field gets their password; the result. */
async function tryAttackerPassword(browser: Browser, page: BrowserResponse): Promise<StepResult> {
  if (!/name="password"/.test(page.body)) return { page };
  return idp.step(browser, page, { password: ATTACKER_PASSWORD });
}

describe('attack: pre-registering a victim’s address (issue 15 item 2)', () => {
  it(
    'does not sign the attacker in: EmailCheck → CreateAccount → Back → EmailCheck → password',
    async () => {
      const email = victimEmail();
      const { browser, page: verify } = await preRegister(email);
      const again = await next(browser, verify, {}, 'back');
      expect(stepTitle(again)).toBe(title('EmailCheck'));
      const after = await next(browser, again, { email });

      const result = await tryAttackerPassword(browser, after);
      expect(result.callback).toBeUndefined();
      // The address is not an account until its code is verified: EmailCheck offers registration.
      expect(stepTitle(after)).toBe(title('CreateAccount'));
    },
    LONG,
  );

  it(
    'does not sign the attacker in through recovery’s BACK either: ForgotPassword(victim) → Back → Back → password',
    async () => {
      const email = victimEmail();
      await preRegister(email);
      // Any EnterPassword will do to reach the recovery pages (here a demo collector's).
      const browser = new Browser();
      const { page: first } = await idp.begin(browser, SCOPE);
      const password = await next(browser, first, { email: 'survey@example.com' });
      const forgot = await next(browser, password, {}, 'forgot');
      const verify = await next(browser, forgot, { email });
      expect(stepTitle(verify)).toBe(title('VerifyRecoveryCode'));
      const backToForgot = await next(browser, verify, {}, 'back');
      const backToPassword = await next(browser, backToForgot, {}, 'back');
      expect(stepTitle(backToPassword)).toBe(title('EnterPassword'));

      const result = await tryAttackerPassword(browser, backToPassword);
      expect(result.callback).toBeUndefined();
      expect(result.page.status).toBe(400);
      expect(errorSummary(result.page)).toContain(signinText('en-US', 'errors.emailUnverified'));
    },
    LONG,
  );

  it(
    'does not keep the owner out: their own registration replaces it, and the attacker’s password is dead',
    async () => {
      const email = victimEmail();
      const attacker = await preRegister(email);

      const owner = new Browser();
      const { start, page: first } = await idp.begin(owner, SCOPE);
      const create = await next(owner, first, { email });
      expect(stepTitle(create)).toBe(title('CreateAccount'));
      const verify = await next(owner, create, {
        givenName: 'Olivia',
        familyName: 'Owner',
        newPassword: OWNER_PASSWORD,
        acceptTerms: 'true',
      });
      const welcome = await next(owner, verify, {
        code: await idp.codeFromOutbox(email, 'verify-email'),
      });
      expect(stepTitle(welcome)).toBe(title('WelcomeCollectors'));
      const name = await next(owner, welcome, {});
      const callback = await idp.done(owner, name, { givenName: 'Olivia', familyName: 'Owner' });
      expect(await idp.claims(start, callback)).toMatchObject({
        email,
        email_verified: true,
        given_name: 'Olivia',
      });

      // The attacker's half-registration is gone: its code step can send nothing more...
      const resend = await idp.step(attacker.browser, attacker.page, {}, 'resend');
      expect(resend.callback).toBeUndefined();
      expect(resend.page.status).toBe(400);
      // ...and the attacker's password opens nothing.
      const later = new Browser();
      const { page: again } = await idp.begin(later, SCOPE);
      const password = await next(later, again, { email });
      expect(stepTitle(password)).toBe(title('EnterPassword'));
      const refused = await tryAttackerPassword(later, password);
      expect(refused.callback).toBeUndefined();
      expect(refused.page.status).toBe(400);
      await idp.done(later, password, { password: OWNER_PASSWORD });
    },
    LONG,
  );

  it(
    'does not keep the owner out: their recovery replaces it, names and password, and the attacker’s password is dead',
    async () => {
      const email = victimEmail();
      await preRegister(email);

      const owner = new Browser();
      const { start, page: first } = await idp.begin(owner, SCOPE);
      // The owner mistyped at first (a demo collector's address), then chose "Forgot password".
      const password = await next(owner, first, { email: 'japan@example.com' });
      const forgot = await next(owner, password, {}, 'forgot');
      const verify = await next(owner, forgot, { email });
      const reset = await next(owner, verify, {
        code: await idp.codeFromOutbox(email, 'recover-password'),
      });
      expect(stepTitle(reset)).toBe(title('ResetPassword'));
      // The reset goes on with the sign-in (issue 52 item 15). The registration was the
      // attacker's: the owner gives their own name on the welcome steps.
      const welcome = await next(owner, reset, { newPassword: OWNER_PASSWORD });
      expect(stepTitle(welcome)).toBe(title('WelcomeCollectors'));
      const elsewhere = new Browser();
      const { page: other } = await idp.begin(elsewhere, SCOPE);
      const elsewherePassword = await next(elsewhere, other, { email });
      expect(stepTitle(elsewherePassword)).toBe(title('EnterPassword'));
      const refused = await tryAttackerPassword(elsewhere, elsewherePassword);
      expect(refused.callback).toBeUndefined();
      const name = await next(owner, welcome, {});
      expect(name.body).not.toContain('Mallory');
      const callback = await idp.done(owner, name, { givenName: 'Olivia', familyName: 'Owner' });
      const claims = await idp.claims(start, callback);
      expect(claims).toMatchObject({ email, email_verified: true, given_name: 'Olivia' });
      expect(JSON.stringify(claims)).not.toContain('Mallory');
    },
    LONG,
  );
});

describe('attack: a password someone else knew, after a reset (issue 15 item 2, ASVS 5.0 7.4.3)', () => {
  it(
    'a reset ends every session and refresh token: the old refresh token is inactive at the IdP and the old browser is signed out here',
    async () => {
      // A collector of the IdP, signed in through psa in the browser an attacker has (or had).
      const email = `reset-${randomUUID()}@example.com`;
      await t.app.get(AccountStore).createAccount({
        email,
        password: DEMO_PASSWORD,
        locale: 'en-US',
        givenName: 'Riley',
        familyName: 'Reset',
        acceptedTerms: true,
        flags: { emailVerified: true },
      });
      const old = new Browser();
      const { landing } = await signInVia(t, old, 'b=psa', { email });
      const rt = locationOf(landing).searchParams.get('rt') ?? '';
      expect(rt).not.toBe('');
      // psa's own grant (issue 49 item 3): introspected and refreshed as psa.
      const oidc = await brandClient(t, 'psa');
      expect((await client.tokenIntrospection(oidc, rt)).active).toBe(true);
      expect((await old.get(`${t.url}/collection`)).status).toBe(200);

      // The owner resets the password from another browser.
      const owner = new Browser();
      const ownerBegin = await idp.begin(owner);
      const password = await next(owner, ownerBegin.page, { email });
      const forgot = await next(owner, password, {}, 'forgot');
      const verify = await next(owner, forgot, { email });
      const reset = await next(owner, verify, {
        code: await idp.codeFromOutbox(email, 'recover-password'),
      });
      // The reset goes on with the sign-in (issue 52 item 15): nothing more to ask of this account.
      const { start: ownerStart } = ownerBegin;
      const signedIn = await idp.done(owner, reset, { newPassword: OWNER_PASSWORD });

      // At the IdP: the refresh token is dead, and so is the old browser's IdP session.
      expect((await client.tokenIntrospection(oidc, rt)).active).toBe(false);
      await expect(client.refreshTokenGrant(oidc, rt)).rejects.toThrow();
      // In this service: the old browser's session ended, told by the IdP's back-channel logout.
      expect(
        t.logs.records.some(
          (r) => r.msg === 'logout token accepted' && typeof r.ended === 'number' && r.ended >= 1,
        ),
      ).toBe(true);
      const collection = await old.get(`${t.url}/collection`);
      expect(collection.status).toBe(302);
      expect(locationOf(collection).pathname).toBe('/signin');
      const signinAgain = await old.visit(`${t.url}/signin?b=psa`, (next) =>
        new URL(next).pathname.startsWith('/handleloginredirect'),
      );
      expect(stepTitle(signinAgain)).toBe(title('EmailCheck'));

      // The owner's own sign-in, made by the reset, is the new one.
      expect((await idp.claims(ownerStart, signedIn)).email).toBe(email);
    },
    LONG,
  );
});

describe('the same, as `npm start` runs it (a real process)', () => {
  // In Jest's sandbox oidc-provider's SSRF guard cannot find its dispatcher and lets loopback
  // through; in a real process it refused the IdP's back-channel POST to this service, so the old
  // browser stayed signed in here (EmbeddedIdp's ownEndpointsFetch). Only a real process shows it.
  it('a reset signs the old browser out of this service', async () => {
    const main = buildApp();
    const app = await startProcessApp(main);
    try {
      const old = new Browser();
      await signInVia({ url: app.url } as TestApp, old, 'b=collectors');
      expect((await old.get(`${app.url}/collection`)).status).toBe(200);

      const owner = new Browser();
      let page = await owner.visit(`${app.url}/signin?b=collectors`);
      const submit = async (values: Record<string, string>, action = 'submit') => {
        const form = { csrf: csrfOf(page), ...values, action };
        page = await owner.follow(await owner.post(formActionOf(page), form));
      };
      await submit({ email: EMAIL });
      await submit({}, 'forgot');
      await submit({ email: EMAIL });
      await submit({ code: await codeFromOutbox(app.url, EMAIL, 'recover-password') });
      // The reset goes on with the sign-in (issue 52 item 15): the owner lands signed in.
      await submit({ newPassword: OWNER_PASSWORD });
      expect(new URL(page.url).pathname).toBe('/collection');

      const collection = await old.get(`${app.url}/collection`);
      expect(collection.status).toBe(302);
      expect(locationOf(collection).pathname).toBe('/signin');
      expect(app.logs().some((l) => l.msg === 'logout token accepted' && l.ended === 1)).toBe(true);
    } finally {
      await app.kill();
      removeBuild(main);
    }
  }, 180_000);
});
