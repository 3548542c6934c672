import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { luminance } from '../support/contrast';
import { AccountStore } from '../../src/idp/accounts/account-store';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import type { Locale } from '../../src/shared/locale';
import {
  LOCALES,
  PHONE,
  type ShellBrowser,
  TEST_TIMEOUT_MS,
  newShellContext,
  seriousViolations,
  startShellBrowser,
} from '../support/shell-browser';

/**
 * Issue 33, what a collector sees on the IdP's sign-in steps, in Chromium on the real app: no step
 * shows a `{placeholder}` in any language (error states included), the terms checkbox sits beside its
 * label on a phone, the steps follow the shell's dark theme and keep AA contrast in it, and Japanese
 * headings use a Japanese face and never break inside a word.
 */
describe('the sign-in step pages (issue 33)', () => {
  let shell: ShellBrowser;
  const open: BrowserContext[] = [];

  beforeAll(async () => {
    shell = await startShellBrowser({
      RATE_LIMIT_SIGNIN: '100000/60',
      RATE_LIMIT_SIGNIN_SESSION: '100000/60',
    });
  }, TEST_TIMEOUT_MS);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await shell?.close();
  });

  async function newPage(
    options: { theme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {},
  ): Promise<Page> {
    const context = await newShellContext(shell, options);
    open.push(context);
    return context.newPage();
  }

  const langParam = (locale: Locale) => (locale === 'en-US' ? '' : `&lang=${locale}`);

  /** The first step, as a brand's sign-in link opens it. */
  async function openSignin(page: Page, locale: Locale): Promise<void> {
    await page.goto(`${shell.t.url}/signin?b=collectors${langParam(locale)}`);
    await page.waitForURL(/\/idp\/signin\//);
  }

  /** A verified account of our own, so that wrong passwords lock nobody else's. */
  async function newAccount(locale: Locale): Promise<string> {
    const email = `steps-${randomUUID()}@example.com`;
    await shell.t.app.get(AccountStore).createAccount({
      email,
      password: DEMO_PASSWORD,
      locale,
      givenName: 'Pat',
      familyName: 'Steps',
      acceptedTerms: true,
      flags: { emailVerified: true },
    });
    return email;
  }

  /** Presses a step's button and waits for the page it leads to. */
  async function press(page: Page, action = 'submit', skipValidation = false): Promise<void> {
    if (skipValidation) {
      // As a browser without JavaScript posts it (the form says novalidate, and the page's own
      // check of empty fields never hears the submit): the server's own checks answer.
      await page.evaluate(() => {
        window.addEventListener('submit', (event) => event.stopPropagation(), true);
      });
    }
    await Promise.all([page.waitForNavigation(), page.click(`button[value="${action}"]`)]);
  }

  const heading = (page: Page) => page.locator('h1').innerText();

  describe('no placeholder in any step, error states included', () => {
    it.each(LOCALES)(
      '%s',
      async (locale) => {
        const page = await newPage();
        const seen: string[] = [];
        /** What each page shows must have every value filled in. */
        const check = async (what: string) => {
          const text = await page.evaluate(() => document.body.innerText);
          seen.push(`${what}: ${await heading(page)}`);
          expect({ what, placeholders: text.match(/\{[a-zA-Z]+\}/g) ?? [] }).toEqual({
            what,
            placeholders: [],
          });
        };

        await openSignin(page, locale);
        await check('EmailCheck');
        await page.fill('#field-email', 'name@example');
        await press(page);
        await check('EmailCheck, an invalid address');

        // Registration: its errors, then the code step and a wrong code.
        await page.fill('#field-email', `new-${randomUUID()}@example.com`);
        await press(page);
        await check('CreateAccount');
        await press(page, 'submit', true);
        await check('CreateAccount, nothing filled in');
        await page.fill('#field-givenName', 'Pat');
        await page.fill('#field-familyName', 'New');
        await page.fill('#field-newPassword', 'weak');
        await page.check('#field-acceptTerms');
        await press(page, 'submit', true);
        await check('CreateAccount, a weak password');
        await page.fill('#field-newPassword', 'N3w!Collector-pass');
        await page.check('#field-acceptTerms');
        await press(page);
        await check('VerifyEmailCode');
        await page.fill('#field-code', '000000');
        await press(page);
        await check('VerifyEmailCode, a wrong code');
        await press(page, 'resend');
        await check('VerifyEmailCode, a new code sent');
        await press(page, 'back');

        // The password step, a wrong password, and the recovery.
        const email = await newAccount(locale);
        await page.fill('#field-email', email);
        await press(page);
        await check('EnterPassword');
        expect(await page.locator('.signin-account__email').innerText()).toBe(email);
        await page.fill('#field-password', 'Not-the-passw0rd');
        await press(page);
        await check('EnterPassword, a wrong password');
        // Said once, at the field: a form of one field has no summary to repeat it (issue 52
        // item 9).
        expect(await page.locator('.error-summary').count()).toBe(0);
        expect(await page.locator('#field-password-error').count()).toBe(1);
        await press(page, 'forgot');
        await check('ForgotPassword');
        await press(page);
        await check('VerifyRecoveryCode');
        await page.fill('#field-code', '000000');
        await press(page);
        await check('VerifyRecoveryCode, a wrong code');
        await press(page, 'back');
        await press(page, 'back');
        await press(page, 'back');

        // An authenticator app: its code step offers no new code.
        await page.fill('#field-email', 'totp@example.com');
        await press(page);
        await page.fill('#field-password', DEMO_PASSWORD);
        await press(page);
        await check('VerifyFactor (authenticator app)');
        expect(await page.locator('button[value="resend"]').count()).toBe(0);
        await page.fill('#field-code', '000000');
        await press(page);
        await check('VerifyFactor, a wrong code');
        await press(page, 'back');

        // A locked account and its unlocking.
        await page.fill('#field-email', 'locked@example.com');
        await press(page);
        await page.fill('#field-password', DEMO_PASSWORD);
        await press(page);
        await check('LockedOut');
        await press(page, 'unlock');
        await check('UnlockAccount');
        await page.fill('#field-email', 'locked@example.com');
        await press(page);
        await check('VerifyUnlockCode');
        expect(seen).toHaveLength(18);
      },
      TEST_TIMEOUT_MS,
    );
  });

  it.each(LOCALES)(
    '%s: on a phone, the terms checkbox sits beside its label, on its first line',
    async (locale) => {
      const page = await newPage({ viewport: PHONE });
      await openSignin(page, locale);
      await page.fill('#field-email', `new-${randomUUID()}@example.com`);
      await press(page);
      const box = await page.locator('#field-acceptTerms').boundingBox();
      const label = await page.locator('label[for="field-acceptTerms"]').boundingBox();
      const lineHeight = await page
        .locator('label[for="field-acceptTerms"]')
        .evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
      if (!box || !label) throw new Error('no checkbox or label');
      expect(box.x + box.width).toBeLessThanOrEqual(label.x);
      const middle = box.y + box.height / 2;
      expect(middle).toBeGreaterThanOrEqual(label.y);
      expect(middle).toBeLessThanOrEqual(label.y + lineHeight);
      // The label wraps inside the card rather than overflowing the phone's width.
      expect(label.x + label.width).toBeLessThanOrEqual(PHONE.width);
    },
    TEST_TIMEOUT_MS,
  );

  describe('the dark theme (the shell’s theme cookie)', () => {
    const colours = (page: Page) =>
      page.evaluate(() => {
        const card = document.querySelector('.signin-card');
        const shellFrame = document.querySelector('.shell');
        if (!card || !shellFrame) throw new Error('no card');
        return {
          card: getComputedStyle(card).backgroundColor,
          page: getComputedStyle(shellFrame).backgroundColor,
          text: getComputedStyle(card).color,
        };
      });

    it.each(['en-US', 'fr-CA', 'ja-JP'] as const)(
      '%s: the steps are dark, and pass axe, error states included',
      async (locale) => {
        const page = await newPage({ theme: 'dark' });
        await openSignin(page, locale);
        const dark = await colours(page);
        expect(luminance(dark.card)).toBeLessThan(0.05);
        expect(luminance(dark.page)).toBeLessThan(0.05);
        expect(luminance(dark.text)).toBeGreaterThan(0.7);
        expect(await seriousViolations(page)).toEqual([]);

        await page.fill('#field-email', `new-${randomUUID()}@example.com`);
        await press(page);
        await press(page, 'submit', true);
        expect(await page.locator('.error-summary').count()).toBe(1);
        expect(await seriousViolations(page)).toEqual([]);
        await press(page, 'back');

        await page.fill('#field-email', await newAccount(locale));
        await press(page);
        await page.fill('#field-password', 'Not-the-passw0rd');
        await press(page);
        expect(await page.locator('#field-password-error').count()).toBe(1);
        expect(await seriousViolations(page)).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );

    it('without the cookie the steps stay light', async () => {
      const page = await newPage();
      await openSignin(page, 'en-US');
      expect(luminance((await colours(page)).card)).toBeGreaterThan(0.8);
    });
  });

  describe('Japanese', () => {
    /** Words of the steps' headings that a line break must not split. */
    const WORDS = ['サインイン', 'アカウント', 'パスワード', 'メール', 'ロック', '作成', '入力'];

    /** The words of `selector`'s text that the rendered lines split, at the page's width. */
    const splitWords = (page: Page, selector: string) =>
      page.locator(selector).evaluate((el, words) => {
        const node = el.firstChild;
        if (!node || node.nodeType !== Node.TEXT_NODE) return ['(not one text node)'];
        const text = node.textContent ?? '';
        const range = document.createRange();
        const tops: number[] = [];
        for (let i = 0; i < text.length; i++) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          tops.push(Math.round(range.getBoundingClientRect().top));
        }
        const split: string[] = [];
        for (const word of words) {
          for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
            if (tops[at] !== tops[at + word.length - 1]) split.push(word);
          }
        }
        return split;
      }, WORDS);

    it(
      'headings use a Japanese face and break only between words',
      async () => {
        const page = await newPage({ viewport: { width: 320, height: 700 } });
        await openSignin(page, 'ja-JP');
        const font = await page
          .locator('h1')
          .evaluate((el) => getComputedStyle(el).fontFamily.split(',')[0]?.trim());
        expect(font).toMatch(/Hiragino Sans/);
        expect(await page.locator('h1').evaluate((el) => getComputedStyle(el).lineBreak)).toBe(
          'strict',
        );

        const email = await newAccount('ja-JP');
        const headings: string[] = [];
        const splits: string[] = [];
        const look = async () => {
          headings.push(await heading(page));
          for (const width of [250, 270, 290, 320]) {
            await page.setViewportSize({ width, height: 700 });
            for (const word of await splitWords(page, 'h1'))
              splits.push(`${await heading(page)} at ${width}px: ${word}`);
          }
        };
        await look();
        await page.fill('#field-email', `new-${randomUUID()}@example.com`);
        await press(page);
        await look();
        await press(page, 'back');
        await page.fill('#field-email', email);
        await press(page);
        await look();
        await press(page, 'back');
        await page.fill('#field-email', 'locked@example.com');
        await press(page);
        await page.fill('#field-password', DEMO_PASSWORD);
        await press(page);
        await look();
        expect(headings).toHaveLength(4);
        expect(splits).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );
  });
});
