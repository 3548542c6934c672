import type { Page } from 'playwright-core';
import { AccountStore, type NewAccount } from '../../src/idp/accounts/account-store';
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH } from '../../src/idp/demo-users';
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

/** An account for one walk: the same address in every run, so the pictures match. */
async function account(
  situation: string,
  locale: VisualLocale,
  theme: VisualTheme,
  flags: NewAccount['flags'] = {},
): Promise<string> {
  const email = `${situation}-${locale.toLowerCase()}-${theme}@example.com`;
  await shell.t.app.get(AccountStore).createAccount(
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
  return email;
}

/** The footer's copyright line carries the current year: it is painted over. */
const copyrightYear = (page: Page) => [page.locator('footer').getByText(/©/)];

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
      } finally {
        await context.close();
      }
      expect(problems).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
