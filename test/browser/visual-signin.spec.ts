import { TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { AccountStore, type NewAccount } from '../../src/idp/accounts/account-store';
import { FactorStore, type FactorType } from '../../src/idp/accounts/factor-store';
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH, DEMO_TOTP_SECRET } from '../../src/idp/demo-users';
import {
  TEST_TIMEOUT_MS,
  newShellContext,
  startShellBrowser,
  type ShellBrowser,
} from '../support/shell-browser';
import {
  VISUAL_LOCALES,
  VISUAL_THEMES,
  VISUAL_WIDTHS,
  type VisualLocale,
  type VisualTheme,
  layoutProblems,
  matchesBaseline,
  shotName,
} from '../support/visual';

/**
 * Issue 33 item 3, the sign-in steps' half: every step of the embedded IdP (§4), error states
 * included, walked in Chromium as a collector walks them, in en-US, fr-CA and ja-JP, light and dark,
 * each pictured at 390 and 1280 px, compared with its baseline and checked by the layout rules
 * (test/support/visual.ts). Each walk has accounts of its own, so nothing one walk does (a wrong
 * password, a code sent) changes what another shows.
 */
let shell: ShellBrowser;
beforeAll(async () => {
  shell = await startShellBrowser({
    RATE_LIMIT_SIGNIN: '100000/60',
    RATE_LIMIT_SIGNIN_SESSION: '100000/60',
    RATE_LIMIT_CREDENTIAL_POSTS: '100000/60',
  });
}, TEST_TIMEOUT_MS);
afterAll(() => shell?.close());

/** The phone number the SMS factors of these walks use: its masked form shows on the pages. */
const PHONE = '+15555550123';

/**
 * An account for one walk: the same address in every run, so the pictures match. `factors` are
 * enrolled and confirmed as a collector would have done at an earlier set-up (the authenticator
 * app with the demo secret, so a code can be made for the confirmation).
 */
async function account(
  situation: string,
  locale: VisualLocale,
  theme: VisualTheme,
  flags: NewAccount['flags'] = {},
  factors: readonly FactorType[] = [],
): Promise<string> {
  const email = `${situation}-${locale.toLowerCase()}-${theme}@example.com`;
  const created = await shell.t.app.get(AccountStore).createAccount(
    {
      email,
      password: DEMO_PASSWORD,
      locale,
      givenName: 'Robin',
      familyName: 'Visual',
      acceptedTerms: true,
      flags: { emailVerified: true, ...flags },
    },
    { passwordHash: DEMO_PASSWORD_HASH },
  );
  const store = shell.t.app.get(FactorStore);
  for (const type of factors) {
    // The choice lists the factors oldest first: a millisecond apart, their order is the same in
    // every run.
    await new Promise((resolve) => setTimeout(resolve, 2));
    const { factor } = await store.startEnrolment(created.id, type, {
      email,
      phone: PHONE,
      secret: DEMO_TOTP_SECRET,
    });
    const code = type === 'totp' ? new TOTP({ secret: DEMO_TOTP_SECRET }).generate() : undefined;
    await store.confirmEnrolment(created.id, factor.id, code);
  }
  return email;
}

/** The footer's copyright line carries the current year: it is painted over. */
const copyrightYear = (page: Page) => [page.locator('footer').getByText(/©/)];

/**
 * An authenticator app's enrolment shows a QR code and a secret made for it alone: both are painted
 * over (their boxes keep one size: a 200 px code, a secret of fixed length), with the year.
 */
const totpSecrets = (page: Page) => [
  ...copyrightYear(page),
  page.locator('.totp .qr'),
  page.locator('.totp .secret'),
];

/** The code the embedded IdP's outbox holds for an address (local only), newest first. */
async function codeSentTo(email: string): Promise<string> {
  const res = await fetch(
    `${shell.t.url}/idp/outbox/messages.json?to=${encodeURIComponent(email)}`,
  );
  const { messages } = (await res.json()) as { messages: { text: string }[] };
  const code = /\b(\d{6})\b/.exec(messages[0]?.text ?? '')?.[1];
  if (!code) throw new Error(`no code sent to ${email}`);
  return code;
}

describe.each(VISUAL_LOCALES)('the sign-in steps in %s', (locale) => {
  it.each(VISUAL_THEMES)(
    'every step, at both widths, in the %s theme, matches its baseline and the layout rules',
    async (theme) => {
      const context = await newShellContext(shell, { theme });
      const page = await context.newPage();
      const problems: string[] = [];
      /** Pictures the step at both widths, then goes back to the desktop width. */
      const shoot = async (
        step: string,
        volatile: (p: Page) => ReturnType<Page['locator']>[] = copyrightYear,
      ) => {
        await page.evaluate(() => document.fonts.ready);
        for (const { name: width, viewport } of VISUAL_WIDTHS) {
          await page.setViewportSize(viewport);
          const name = shotName(`signin-${step}`, locale, width, theme);
          for (const problem of await layoutProblems(page)) problems.push(`${name}: ${problem}`);
          const mismatch = await matchesBaseline(page, name, volatile(page));
          if (mismatch) problems.push(mismatch);
        }
      };
      const press = async (action = 'submit', skipValidation = false) => {
        if (skipValidation)
          await page.evaluate(() => {
            const form = document.querySelector('form');
            if (form) form.noValidate = true;
          });
        await Promise.all([page.waitForNavigation(), page.click(`button[value="${action}"]`)]);
      };
      const start = async () => {
        const lang = locale === 'en-US' ? '' : `&lang=${locale}`;
        await page.goto(`${shell.t.url}/signin?b=collectors${lang}`);
        await page.waitForURL(/\/idp\/signin\//);
      };
      const withPassword = async (email: string) => {
        await start();
        await page.fill('#field-email', email);
        await press();
        await page.fill('#field-password', DEMO_PASSWORD);
        await press();
      };

      try {
        await start();
        await shoot('email');
        await page.fill('#field-email', 'name@example');
        await press();
        await shoot('email-invalid');

        // Registration.
        await page.fill('#field-email', `new-${locale.toLowerCase()}-${theme}@example.com`);
        await press();
        await shoot('create-account');
        await press('submit', true);
        await shoot('create-account-errors');
        await page.fill('#field-givenName', 'Robin');
        await page.fill('#field-familyName', 'Visual');
        await page.fill('#field-newPassword', 'N3w!Collector-pass');
        await page.check('#field-acceptTerms');
        await press();
        await shoot('verify-email-code');

        // The password, a wrong one, and the recovery to a new one.
        await start();
        const email = await account('password', locale, theme);
        await page.fill('#field-email', email);
        await press();
        await shoot('password');
        await page.fill('#field-password', 'Not-the-passw0rd');
        await press();
        await shoot('password-wrong');
        await press('forgot');
        await shoot('forgot-password');
        await press();
        await shoot('verify-recovery-code');
        await page.fill('#field-code', await codeSentTo(email));
        await press();
        await shoot('reset-password');

        // An authenticator app's code.
        await withPassword('totp@example.com');
        await shoot('verify-factor-totp');

        // A locked account and its unlocking.
        const locked = await account('locked', locale, theme);
        await shell.t.app
          .get(AccountStore)
          .findByEmail(locked)
          .then((a) => shell.t.app.get(AccountStore).lockOut(a?.id ?? ''));
        await withPassword(locked);
        await shoot('locked-out');
        await press('unlock');
        await shoot('unlock-account');
        await page.fill('#field-email', locked);
        await press();
        await shoot('verify-unlock-code');

        // The steps an account's state asks for after the password (§4).
        await withPassword(await account('expired', locale, theme, { passwordExpired: true }));
        await shoot('update-expired-password');
        await withPassword(await account('migrating', locale, theme, { isMigrating: true }));
        await shoot('welcome');
        await press();
        await shoot('name');
        await withPassword(await account('survey', locale, theme, { surveyPending: true }));
        await shoot('survey');
        await withPassword(await account('mfa', locale, theme, { mfaSetupRequired: true }));
        await shoot('mfa-prompt');
        await press();
        await shoot('mfa-next');
        // §4 SetupMfa: an authenticator app's enrolment, then (back) a phone's, to its end.
        await page.check('input[name="factor"][value="totp"]');
        await press();
        await shoot('mfa-verify-new-totp', totpSecrets);
        for (const { name: width, viewport } of VISUAL_WIDTHS) {
          await page.setViewportSize(viewport);
          const lines = await page.locator('.totp .secret').evaluate((el) => {
            const text = document.createRange();
            text.selectNodeContents(el);
            return text.getClientRects().length;
          });
          if (lines !== 1)
            problems.push(`${width} px: the authenticator key is split over ${lines} lines`);
        }
        await press('back');
        await page.check('input[name="factor"][value="sms"]');
        await press();
        await shoot('mfa-setup-phone');
        await page.fill('#field-phone', '+1 555 555 0123');
        await press();
        await shoot('mfa-verify-new-sms');
        // The app left with Back lends the phone's page neither its QR code nor its key.
        if (await page.locator('.totp').count())
          problems.push('the phone code page shows the abandoned authenticator app');
        await page.fill('#field-code', await codeSentTo(PHONE));
        await press();
        await shoot('mfa-success');

        // Several factors: the choice at sign-in (§4 ChooseVerifyFactor); with a set-up pending, the
        // proof of a current factor before another is added (SetupMfa.VerifyCurrentFactor).
        const several = await account('several', locale, theme, { mfaSetupRequired: true }, [
          'totp',
          'email',
          'sms',
        ]);
        await withPassword(several);
        await shoot('choose-verify-factor');
        await page.check('input[name="factor"][value="email"]');
        await press();
        await page.fill('#field-code', await codeSentTo(several));
        await press();
        await press();
        await shoot('mfa-verify-current');
      } finally {
        await context.close();
      }
      expect(problems).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
