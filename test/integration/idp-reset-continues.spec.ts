import { randomUUID } from 'node:crypto';
import { TOTP } from 'otpauth';
import { AccountStore, type NewAccount } from '../../src/idp/accounts/account-store';
import { FactorStore } from '../../src/idp/accounts/factor-store';
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH, DEMO_TOTP_SECRET } from '../../src/idp/demo-users';
import { Browser, BrowserResponse } from '../support/browser';
import {
  SigninDriver,
  fieldErrors,
  noticeText,
  signinText,
  stepTitle,
  textOf,
} from '../support/signin-steps';
import { useTestApp } from '../support/test-app';
import { UNLIMITED_SIGNINS } from '../support/test-config';

const LONG = 120_000;
const NEW_PASSWORD = 'N3w!Collector-pass';
const MAX_AGE = { max_age: '3600' };

const title = (step: string): string => signinText('en-US', `steps.${step}.title`);
const introOf = (page: BrowserResponse): string =>
  textOf(/<p class="intro">([\s\S]*?)<\/p>/.exec(page.body)?.[1] ?? '');

/**
 * Issue 52 item 15: after a password reset (ForgotPassword → VerifyRecoveryCode → ResetPassword) the
 * sign-in goes on to the next step the account needs (its second factor, the welcome, or done), as
 * after a replaced expired password, instead of asking for the new password again. Through the
 * real embedded IdP over HTTP: the recovery code stays single-use, the IdP session the sign-in ends
 * with is a new one whose auth_time is the reset's, and a second factor is still asked for.
 */
describe('a password reset continues the sign-in (issue 52 item 15)', () => {
  const t = useTestApp(UNLIMITED_SIGNINS);
  let idp: SigninDriver;

  beforeAll(async () => {
    idp = await SigninDriver.for(t);
  }, 30_000);

  /** An account of this test's own (demo password); `totp` enrols the demo authenticator app. */
  async function newAccount(
    flags: NewAccount['flags'] = {},
    factors: ('totp' | 'email')[] = [],
  ): Promise<{ email: string; id: string }> {
    const email = `reset-${randomUUID()}@example.com`;
    const account = await t.app.get(AccountStore).createAccount(
      {
        email,
        password: DEMO_PASSWORD,
        locale: 'en-US',
        givenName: 'Pat',
        familyName: 'Reset',
        acceptedTerms: true,
        flags: { emailVerified: true, ...flags },
      },
      { passwordHash: DEMO_PASSWORD_HASH },
    );
    const store = t.app.get(FactorStore);
    for (const type of factors) {
      const { factor } = await store.startEnrolment(account.id, type, {
        email,
        secret: DEMO_TOTP_SECRET,
      });
      const code = type === 'totp' ? new TOTP({ secret: DEMO_TOTP_SECRET }).generate() : undefined;
      await store.confirmEnrolment(account.id, factor.id, code);
    }
    return { email, id: account.id };
  }

  /** From a new authorization to the ResetPassword step; returns it and the recovery code. */
  async function toResetStep(browser: Browser, email: string) {
    // max_age: the ID token then says when the collector authenticated (OIDC Core §3.1.2.1).
    const { start, page } = await idp.begin(browser, MAX_AGE);
    const password = await idp.next(browser, page, { email });
    const forgot = await idp.next(browser, password, {}, 'forgot');
    const verify = await idp.next(browser, forgot, { email });
    expect(stepTitle(verify)).toBe(title('VerifyRecoveryCode'));
    const code = await idp.codeFromOutbox(email, 'recover-password');
    const reset = await idp.next(browser, verify, { code });
    expect(stepTitle(reset)).toBe(title('ResetPassword'));
    return { start, verify, reset, code };
  }

  it(
    'without a second factor: signed in at once, in a fresh IdP session whose auth_time is the reset',
    async () => {
      const { email, id } = await newAccount();
      // An earlier sign-in in another browser: the session a reset must end.
      const earlier = new Browser();
      const before = await idp.begin(earlier, MAX_AGE);
      const earlierPassword = await idp.next(earlier, before.page, { email });
      const earlierClaims = await idp.claims(
        before.start,
        await idp.done(earlier, earlierPassword, { password: DEMO_PASSWORD }),
      );
      // auth_time counts whole seconds: the reset comes in a later one.
      await new Promise((resolve) => setTimeout(resolve, 1_100));

      const browser = new Browser();
      const { start, verify, reset } = await toResetStep(browser, email);
      const resetAt = Math.floor(Date.now() / 1000);
      const callback = await idp.done(browser, reset, { newPassword: NEW_PASSWORD });
      const claims = await idp.claims(start, callback);
      expect(claims.sub).toBe(id);
      expect(claims.auth_time).toBeGreaterThanOrEqual(resetAt);
      expect(claims.auth_time).toBeGreaterThan(earlierClaims.auth_time ?? Infinity);
      expect(claims.sid).toBeDefined();
      expect(claims.sid).not.toBe(earlierClaims.sid);

      // The earlier session was ended by the reset: a new authorization there asks for the email.
      const again = await idp.begin(earlier);
      expect(stepTitle(again.page)).toBe(title('EmailCheck'));

      // The recovery step's form, posted again, moves nothing: the interaction is over.
      const replayedForm = await idp.step(browser, verify, {
        code: await idp.codeFromOutbox(email, 'recover-password'),
      });
      expect(replayedForm.callback).toBeUndefined();
      expect(replayedForm.page.status).toBeGreaterThanOrEqual(400);
      expect(stepTitle(replayedForm.page)).not.toBe(title('ResetPassword'));
    },
    LONG,
  );

  it(
    'the recovery code is single-use: replayed in a new recovery, it is refused',
    async () => {
      const { email } = await newAccount();
      const browser = new Browser();
      const { reset, code } = await toResetStep(browser, email);
      await idp.done(browser, reset, { newPassword: NEW_PASSWORD });

      const other = new Browser();
      const { page } = await idp.begin(other);
      const password = await idp.next(other, page, { email });
      const forgot = await idp.next(other, password, {}, 'forgot');
      const verify = await idp.next(other, forgot, { email });
      const replayed = await idp.step(other, verify, { code });
      expect(replayed.page.status).toBe(400);
      expect(fieldErrors(replayed.page).code).toBe(signinText('en-US', 'errors.codeInvalid'));
      expect(stepTitle(await idp.current(other, replayed.page))).toBe(title('VerifyRecoveryCode'));
      // The new password is the account's now.
      const fresh = new Browser();
      const first = await idp.begin(fresh);
      const passwordStep = await idp.next(fresh, first.page, { email });
      await idp.done(fresh, passwordStep, { password: NEW_PASSWORD });
    },
    LONG,
  );

  it(
    'with an authenticator app: the reset leads to its code, never past it',
    async () => {
      const { email } = await newAccount({}, ['totp']);
      const browser = new Browser();
      const { start, reset } = await toResetStep(browser, email);
      const resetAt = Math.floor(Date.now() / 1000);
      const factor = await idp.next(browser, reset, { newPassword: NEW_PASSWORD });
      expect(stepTitle(factor)).toBe(title('VerifyFactor'));
      expect(noticeText(factor)).toBe(signinText('en-US', 'notices.passwordReset'));
      expect(introOf(factor)).toBe(signinText('en-US', 'guide.totpCode'));
      // The enrolment used the current period's code: the next one is accepted once.
      const code = new TOTP({ secret: DEMO_TOTP_SECRET }).generate({
        timestamp: Date.now() + 30_000,
      });
      const claims = await idp.claims(start, await idp.done(browser, factor, { code }));
      expect(claims.auth_time).toBeGreaterThanOrEqual(resetAt);
    },
    LONG,
  );

  it(
    'with an emailed factor: its code is sent on the way, and the sign-in ends with it',
    async () => {
      const { email } = await newAccount({}, ['email']);
      const browser = new Browser();
      const { reset } = await toResetStep(browser, email);
      const factor = await idp.next(browser, reset, { newPassword: NEW_PASSWORD });
      expect(stepTitle(factor)).toBe(title('VerifyFactor'));
      expect(textOf(noticeText(factor) ?? '')).toContain(email);
      const code = await idp.codeFromOutbox(email, 'mfa-email');
      await idp.done(browser, factor, { code });
    },
    LONG,
  );

  it(
    'an account the welcome steps still wait for goes on to them',
    async () => {
      const { email } = await newAccount({ isMigrating: true });
      const browser = new Browser();
      const { reset } = await toResetStep(browser, email);
      const welcome = await idp.next(browser, reset, { newPassword: NEW_PASSWORD });
      expect(stepTitle(welcome)).toBe(title('WelcomeCollectors'));
      expect(noticeText(welcome)).toBe(signinText('en-US', 'notices.passwordReset'));
    },
    LONG,
  );
});
