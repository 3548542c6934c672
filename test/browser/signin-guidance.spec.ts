import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { AccountStore, type NewAccount } from '../../src/idp/accounts/account-store';
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH } from '../../src/idp/demo-users';
import { commonText } from '../support/signin-steps';
import {
  TEST_TIMEOUT_MS,
  UNLIMITED_SIGNINS,
  seriousViolations,
  useShellBrowser,
} from '../support/shell-browser';
import { VISUAL_LOCALES, VISUAL_THEMES, pictureProblems } from '../support/visual';

/**
 * Issue 52 items 7, 13 and 16 in Chromium, where a collector looks: a brand's sign-in names where
 * it leads under the heading (pictured in en-US, fr-CA and ja-JP, at 390 and 1280 px, light and
 * dark); the authenticator app's set-up says to scan the QR code before it asks for the code, and
 * its key, selected with one click, is the one the app needs; the name step's "Use a different
 * email" leads back to the email. The steps these items change are pictured by the sign-in walk
 * (visual-signin-walk.ts).
 */
const fixture = useShellBrowser({ signedIn: false, env: UNLIMITED_SIGNINS });

const text = (locale: string, key: string, args: Record<string, string> = {}) =>
  commonText(locale, `signin.${key}`, args);

async function newAccount(flags: NewAccount['flags']): Promise<string> {
  const email = `guide-${randomUUID()}@example.com`;
  await fixture.shell.t.app.get(AccountStore).createAccount(
    {
      email,
      password: DEMO_PASSWORD,
      locale: 'en-US',
      givenName: 'Robin',
      familyName: 'Guide',
      acceptedTerms: true,
      flags: { emailVerified: true, ...flags },
    },
    { passwordHash: DEMO_PASSWORD_HASH },
  );
  return email;
}

async function press(page: Page, action = 'submit'): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.click(`button[value="${action}"]`)]);
}

/** From /signin to the page after the password. */
async function signInAs(page: Page, email: string, query = 'b=collectors'): Promise<void> {
  await page.goto(`${fixture.shell.t.url}/signin?${query}`);
  await page.waitForURL(/\/idp\/signin\//);
  await page.fill('#field-email', email);
  await press(page);
  await page.fill('#field-password', DEMO_PASSWORD);
  await press(page);
}

describe.each(VISUAL_LOCALES)('a brand’s sign-in, in %s', (locale) => {
  it.each(VISUAL_THEMES)(
    'says under the heading where it leads, in the page’s language (%s theme)',
    async (theme) => {
      const context = await fixture.context({ theme });
      const page = await context.newPage();
      const lang = locale === 'en-US' ? '' : `&lang=${locale}`;
      await page.goto(`${fixture.shell.t.url}/signin?b=psa${lang}`);
      await page.waitForURL(/\/idp\/signin\//);
      await page.waitForSelector('#field-email');
      const line = page.locator('.signin-destination');
      expect(await line.innerText()).toBe(text(locale, 'guide.continueTo', { brand: 'PSA' }));
      // Under the heading, above the intro.
      const [heading, destination, intro] = await Promise.all(
        ['h1', '.signin-destination', '.intro'].map((s) => page.locator(s).boundingBox()),
      );
      expect(destination?.y).toBeGreaterThanOrEqual((heading?.y ?? 0) + (heading?.height ?? 0));
      expect(intro?.y).toBeGreaterThanOrEqual((destination?.y ?? 0) + (destination?.height ?? 0));
      expect(await seriousViolations(page)).toEqual([]);

      expect(await pictureProblems(page, 'signin-email-psa', locale, theme)).toEqual([]);

      // Without a brand of its own (this product's), no such line.
      await page.goto(`${fixture.shell.t.url}/signin?b=collectors${lang}`);
      await page.waitForSelector('#field-email');
      expect(await page.locator('.signin-destination').count()).toBe(0);
      await context.close();
    },
    TEST_TIMEOUT_MS,
  );
});

describe('the authenticator app’s set-up (item 7)', () => {
  it(
    'says to scan the QR code before the code, and its key, selected in one click, works',
    async () => {
      const context = await fixture.context({ theme: 'light' });
      const page = await context.newPage();
      await signInAs(page, await newAccount({ mfaSetupRequired: true }));
      await press(page);
      await page.check('input[name="factor"][value="totp"]');
      await press(page);
      await page.waitForSelector('.totp .qr svg');

      expect(await page.locator('.intro').innerText()).toBe(text('en-US', 'guide.totpScan'));
      const boxes = await Promise.all(
        ['.intro', '.totp .qr', '.totp .secret', '#field-code'].map((s) =>
          page.locator(s).boundingBox(),
        ),
      );
      // Read top to bottom: scan, the QR code, the key if it cannot be scanned, then the code.
      for (let i = 1; i < boxes.length; i++) {
        const above = boxes[i - 1];
        expect(boxes[i]?.y).toBeGreaterThanOrEqual((above?.y ?? 0) + (above?.height ?? 0) - 1);
      }
      // Shown in groups of four.
      const groups = await page.locator('.totp .secret__group').allInnerTexts();
      expect(groups.length).toBeGreaterThan(1);
      expect(groups.slice(0, -1).every((g) => /^[A-Z2-7]{4}$/.test(g))).toBe(true);

      // One click selects the whole key, and what is selected is the key itself, without gaps.
      await page.click('.totp .secret');
      const selected = await page.evaluate(() => window.getSelection()?.toString() ?? '');
      expect(selected).toBe(groups.join(''));

      const code = new TOTP({ secret: Secret.fromBase32(selected) }).generate();
      await page.fill('#field-code', code);
      await press(page);
      expect(await page.locator('h1').innerText()).toBe(
        text('en-US', 'steps.SetupMfa.Success.title'),
      );
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    },
    TEST_TIMEOUT_MS,
  );

  it.each(VISUAL_LOCALES)(
    'the sign-in code step says the code comes from the app (%s)',
    async (locale) => {
      const context = await fixture.context({ theme: 'light' });
      const page = await context.newPage();
      const lang = locale === 'en-US' ? '' : `&lang=${locale}`;
      await signInAs(page, 'totp@example.com', `b=collectors${lang}`);
      expect(await page.locator('.intro').innerText()).toBe(text(locale, 'guide.totpCode'));
      await context.close();
    },
    TEST_TIMEOUT_MS,
  );
});

describe('a way out of the name step (item 16)', () => {
  it(
    '"Use a different email" leads back to the email step',
    async () => {
      const context = await fixture.context({ theme: 'light' });
      const page = await context.newPage();
      await signInAs(page, await newAccount({ isMigrating: true }));
      await press(page);
      expect(await page.locator('h1').innerText()).toBe(text('en-US', 'steps.EnterNameInfo.title'));
      const way = page.getByRole('button', { name: text('en-US', 'buttons.useDifferentEmail') });
      await Promise.all([page.waitForNavigation(), way.click()]);
      expect(await page.locator('h1').innerText()).toBe(text('en-US', 'steps.EmailCheck.title'));
      await page.locator('#field-email').waitFor();
      await context.close();
    },
    TEST_TIMEOUT_MS,
  );
});
