import { TOTP } from 'otpauth';
import type { Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { AccountStore, type NewAccount } from '../../src/idp/accounts/account-store';
import { FactorStore, type FactorType } from '../../src/idp/accounts/factor-store';
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH, DEMO_TOTP_SECRET } from '../../src/idp/demo-users';
import { contrastRatio } from '../support/contrast';
import {
  TEST_TIMEOUT_MS,
  newShellContext,
  startShellBrowser,
  type ShellBrowser,
} from '../support/shell-browser';
import {
  VISUAL_THEMES,
  VISUAL_WIDTHS,
  copyrightYear,
  layoutProblems,
  matchesBaseline,
  shotName,
  type VisualLocale,
  type VisualTheme,
} from '../support/visual';

/**
 * Issue 33 item 3, the sign-in steps' half: every step of the embedded IdP (§4), error states
 * included, walked in Chromium as a collector walks them, in en-US, fr-CA and ja-JP, light and dark,
 * each pictured at 390 and 1280 px, compared with its baseline and checked by the layout rules
 * (test/support/visual.ts). Each walk has accounts of its own, so nothing one walk does (a wrong
 * password, a code sent) changes what another shows. On the way it measures what a picture shows but
 * a glance misses: the boundary of each radio and checkbox (SC 1.4.11) and the example phone number
 * kept on one line.
 *
 * One spec file per locale (visual-signin.<locale>.spec.ts) calls pictureSigninSteps: the three walks
 * take about two minutes each, and Jest spreads files, not describe blocks, over its workers.
 */
let shell: ShellBrowser;

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

/**
 * WCAG 2.1 SC 1.4.11 on a radio or checkbox as Chromium paints it: the contrast of its boundary with
 * the background around it (the nearest ancestor that paints one). From 32 points around the control
 * the pixels are read inwards; on each line the boundary is the strongest of the first three pixels
 * that stand out from the background at all, and the control's figure is the weakest line's. A ring
 * smoothed into the background, or a corner that fades, is measured where it is faintest.
 */
async function boundaryContrast(page: Page, control: Locator): Promise<number> {
  await control.scrollIntoViewIfNeeded();
  const { box, background } = await control.evaluate((el) => {
    const r = el.getBoundingClientRect();
    let paint = 'rgb(255, 255, 255)';
    for (let n = el.parentElement; n; n = n.parentElement) {
      const colour = getComputedStyle(n).backgroundColor;
      if (colour !== 'transparent' && !/^rgba\(.*,\s*0\)$/.test(colour)) {
        paint = colour;
        break;
      }
    }
    return { box: { x: r.x, y: r.y, width: r.width, height: r.height }, background: paint };
  });
  const pad = 3;
  const png = PNG.sync.read(
    await page.screenshot({
      clip: {
        x: box.x - pad,
        y: box.y - pad,
        width: box.width + 2 * pad,
        height: box.height + 2 * pad,
      },
      animations: 'disabled',
      caret: 'hide',
    }),
  );
  const pixel = (x: number, y: number) => {
    const i = (y * png.width + x) * 4;
    return `rgb(${png.data[i]}, ${png.data[i + 1]}, ${png.data[i + 2]})`;
  };
  const [cx, cy] = [png.width / 2, png.height / 2];
  let weakest = Infinity;
  for (let k = 0; k < 32; k++) {
    const angle = (k / 32) * 2 * Math.PI;
    const standOut: number[] = [];
    let last = '';
    for (let d = Math.hypot(cx, cy); d >= 0 && standOut.length < 3; d -= 0.5) {
      const x = Math.floor(cx + d * Math.cos(angle));
      const y = Math.floor(cy + d * Math.sin(angle));
      if (x < 0 || y < 0 || x >= png.width || y >= png.height || `${x},${y}` === last) continue;
      last = `${x},${y}`;
      const ratio = contrastRatio(pixel(x, y), background);
      if (ratio >= 1.1) standOut.push(ratio);
    }
    weakest = Math.min(weakest, Math.max(1, ...standOut));
  }
  return weakest;
}

/** Each control of `selector` on the page whose boundary is below 3:1, as problems. */
async function faintControls(page: Page, selector: string, name: string): Promise<string[]> {
  const problems: string[] = [];
  // A focus ring would stand in for the boundary it surrounds.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const controls = await page.locator(selector).all();
  if (controls.length === 0) problems.push(`${name}: no ${selector} to measure`);
  for (const control of controls) {
    const ratio = await boundaryContrast(page, control);
    if (ratio < 3)
      problems.push(
        `${name}: ${selector} has a boundary at ${ratio.toFixed(2)}:1 (SC 1.4.11: 3:1)`,
      );
  }
  return problems;
}

/**
 * The example phone number of a hint or an error, with the "例：" that leads it in Japanese: the
 * number of lines it is drawn on (a break inside it reads as two numbers).
 */
async function exampleNumberLines(hint: Locator): Promise<number> {
  return hint.evaluate((el) => {
    const text = el.firstChild;
    const found = /(例：\u2060?)?\+\d[\d\s]*\d/.exec(text?.textContent ?? '');
    if (!text || !found) return 0;
    const range = document.createRange();
    range.setStart(text, found.index);
    range.setEnd(text, found.index + found[0].length);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
}

/** Registers the walks of one locale (both themes) with their app and Chromium. */
export function pictureSigninSteps(locale: VisualLocale): void {
  beforeAll(async () => {
    shell = await startShellBrowser({
      RATE_LIMIT_SIGNIN: '100000/60',
      RATE_LIMIT_SIGNIN_SESSION: '100000/60',
      RATE_LIMIT_CREDENTIAL_POSTS: '100000/60',
    });
  }, TEST_TIMEOUT_MS);
  afterAll(() => shell?.close());

  describe(`the sign-in steps in ${locale}`, () => {
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
            // As a browser without JavaScript posts it: the page's check of empty fields never
            // hears the submit, and the server's own checks answer.
            await page.evaluate(() => {
              window.addEventListener('submit', (event) => event.stopPropagation(), true);
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
          problems.push(...(await faintControls(page, '#field-acceptTerms', 'create-account')));
          // Issue 52 item 12: the page's own messages for the empty fields, before any post.
          await page.click('button[value="submit"]');
          await page.locator('#field-acceptTerms-error').waitFor();
          await shoot('create-account-required');
          await press('submit', true);
          await shoot('create-account-errors');
          // Issue 52 items 2 and 9: a password the server refuses; the names and the ticked box
          // come back, and the rules are marked, met or missed, under the field.
          await page.fill('#field-givenName', 'Robin');
          await page.fill('#field-familyName', 'Visual');
          await page.fill('#field-newPassword', 'collector');
          await page.check('#field-acceptTerms');
          await press();
          await shoot('create-account-weak');
          await page.fill('#field-newPassword', 'N3w!Collector-pass');
          problems.push(...(await faintControls(page, '#field-acceptTerms', 'terms accepted')));
          await press();
          await shoot('verify-email-code');

          // The password, a wrong one, and the recovery to a new one.
          await start();
          const email = await account('password', locale, theme);
          await page.fill('#field-email', email);
          await press();
          await shoot('password');
          await page.fill('#field-password', 'Not-the-passw0rd');
          // Issue 52 item 10: the password shown by its button.
          await page.click('.show-password');
          await shoot('password-shown');
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
          problems.push(...(await faintControls(page, 'input[type="radio"]', 'survey')));
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
            // The key is drawn in groups (one box each): the lines are the distinct tops.
            const lines = await page.locator('.totp .secret').evaluate((el) => {
              const text = document.createRange();
              text.selectNodeContents(el);
              return new Set([...text.getClientRects()].map((r) => Math.round(r.top))).size;
            });
            if (lines !== 1)
              problems.push(`${width} px: the authenticator key is split over ${lines} lines`);
          }
          await press('back');
          await page.check('input[name="factor"][value="sms"]');
          await press();
          await shoot('mfa-setup-phone');
          for (const { name: width, viewport } of VISUAL_WIDTHS) {
            await page.setViewportSize(viewport);
            const lines = await exampleNumberLines(page.locator('#field-phone-hint'));
            if (lines !== 1)
              problems.push(`${width} px: the example phone number is drawn on ${lines} lines`);
          }
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
          problems.push(
            ...(await faintControls(page, 'input[type="radio"]', 'choose-verify-factor')),
          );
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
}
