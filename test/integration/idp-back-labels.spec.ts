import { randomUUID } from 'node:crypto';
import { AccountStore } from '../../src/idp/accounts/account-store';
import { FactorStore } from '../../src/idp/accounts/factor-store';
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH } from '../../src/idp/demo-users';
import type { Locale } from '../../src/shared/locale';
import { Browser, BrowserResponse } from '../support/browser';
import { SigninDriver, signinText, stepTitle, textOf } from '../support/signin-steps';
import { useTestApp } from '../support/test-app';

const LONG = 120_000;
const LOCALES: readonly Locale[] = ['en-US', 'en-CA', 'fr-CA', 'ja-JP'];

/**
 * Issue 33: the back action of every sign-in step says where it leads. "Use a different email" only
 * where it returns to the email step; "Verify another way" where a second-factor step returns to the
 * choice of factor (an account with several); "Back" where it returns to the step before (the
 * password, the recovery or unlock email, the locked-out page). Each label is checked against the
 * step the button really leads to, over HTTP, in every locale.
 */
const LABEL_BY_DESTINATION: Readonly<Record<string, string>> = {
  EmailCheck: 'useDifferentEmail',
  ChooseVerifyFactor: 'verifyAnotherWay',
};

describe('each sign-in step’s back action is labelled with where it leads (issue 33)', () => {
  const t = useTestApp({
    RATE_LIMIT_SIGNIN: '100000/60',
    RATE_LIMIT_SIGNIN_SESSION: '100000/60',
  });
  let idp: SigninDriver;

  beforeAll(async () => {
    idp = await SigninDriver.for(t);
  }, 30_000);

  /** An account of this test's own (demo password), with these verified second factors. */
  async function newAccount(locale: Locale, factors: ('email' | 'sms')[] = []): Promise<string> {
    const email = `back-${randomUUID()}@example.com`;
    const account = await t.app.get(AccountStore).createAccount(
      {
        email,
        password: DEMO_PASSWORD,
        locale,
        givenName: 'Pat',
        familyName: 'Back',
        acceptedTerms: true,
        flags: { emailVerified: true },
      },
      { passwordHash: DEMO_PASSWORD_HASH },
    );
    const store = t.app.get(FactorStore);
    for (const type of factors) {
      const { factor } = await store.startEnrolment(account.id, type, { phone: '+15555550123' });
      await store.confirmEnrolment(account.id, factor.id);
    }
    return email;
  }

  it.each(LOCALES)(
    '%s',
    async (locale) => {
      const browser = new Browser();
      const title = (step: string) => signinText(locale, `steps.${step}.title`);
      const seen: string[] = [];

      /** Checks the page is `step`. */
      const at = (page: BrowserResponse, step: string) => {
        expect({ step, title: stepTitle(page) }).toEqual({ step, title: title(step) });
        return page;
      };
      /** Presses the page's back button: it leads to `to`, and its label says so. */
      const back = async (page: BrowserResponse, from: string, to: string) => {
        at(page, from);
        const button = /<button\b[^>]*value="back"[^>]*>([\s\S]*?)<\/button>/.exec(page.body);
        const label = textOf(button?.[1] ?? '');
        const landed = at(await idp.next(browser, page, {}, 'back'), to);
        const expected = signinText(locale, `buttons.${LABEL_BY_DESTINATION[to] ?? 'previous'}`);
        expect({ from, to, label }).toEqual({ from, to, label: expected });
        seen.push(`${from} -> ${to}`);
        return landed;
      };
      const next = async (page: BrowserResponse, values: Record<string, string>, action?: string) =>
        idp.next(browser, page, values, action);

      const { page: first } = await idp.begin(browser, { ui_locales: locale });
      let email = at(first, 'EmailCheck');

      // Registration: its two steps return to the email step.
      const newEmail = `new-${randomUUID()}@example.com`;
      const create = await next(email, { email: newEmail });
      email = await back(create, 'CreateAccount', 'EmailCheck');
      const created = await next(at(await next(email, { email: newEmail }), 'CreateAccount'), {
        givenName: 'Pat',
        familyName: 'New',
        newPassword: 'N3w!Collector-pass',
        acceptTerms: 'true',
      });
      email = await back(created, 'VerifyEmailCode', 'EmailCheck');

      // The password and its recovery: back one step at a time, to the email only from the password.
      const several = await newAccount(locale, ['email', 'sms']);
      let password = await next(email, { email: several });
      const forgot = await next(password, {}, 'forgot');
      const recoveryCode = await next(forgot, { email: several });
      const forgotAgain = await back(recoveryCode, 'VerifyRecoveryCode', 'ForgotPassword');
      password = await back(forgotAgain, 'ForgotPassword', 'EnterPassword');
      email = await back(password, 'EnterPassword', 'EmailCheck');

      // Several second factors: the code step returns to their choice, the choice to the email.
      const choose = await next(await next(email, { email: several }), { password: DEMO_PASSWORD });
      const code = await next(at(choose, 'ChooseVerifyFactor'), { factor: 'email' });
      const chooseAgain = await back(code, 'VerifyFactor', 'ChooseVerifyFactor');
      email = await back(chooseAgain, 'ChooseVerifyFactor', 'EmailCheck');

      // One second factor (the demo authenticator app): its code step returns to the email.
      const totp = await next(await next(email, { email: 'totp@example.com' }), {
        password: DEMO_PASSWORD,
      });
      email = await back(totp, 'VerifyFactor', 'EmailCheck');

      // A locked account and its unlocking.
      const lockedEmail = await newAccount(locale);
      const accounts = t.app.get(AccountStore);
      const lockedAccount = await accounts.findByEmail(lockedEmail);
      if (!lockedAccount) throw new Error('no account');
      await accounts.lockOut(lockedAccount.id);
      const locked = await next(await next(email, { email: lockedEmail }), {
        password: DEMO_PASSWORD,
      });
      const unlock = await next(at(locked, 'LockedOut'), {}, 'unlock');
      const unlockCode = await next(unlock, { email: lockedEmail });
      const unlockAgain = await back(unlockCode, 'VerifyUnlockCode', 'UnlockAccount');
      const lockedAgain = await back(unlockAgain, 'UnlockAccount', 'LockedOut');
      await back(lockedAgain, 'LockedOut', 'EmailCheck');

      expect(seen).toHaveLength(11);
    },
    LONG,
  );
});
