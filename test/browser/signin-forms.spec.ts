import { randomUUID } from 'node:crypto';
import { TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { AccountStore } from '../../src/idp/accounts/account-store';
import { DEMO_PASSWORD, DEMO_TOTP_SECRET } from '../../src/idp/demo-users';
import type { Locale } from '../../src/shared/locale';
import {
  TEST_TIMEOUT_MS,
  UNLIMITED_SIGNINS,
  openSigninStep,
  pressStepAction,
  seriousViolations,
  useShellBrowser,
} from '../support/shell-browser';
import { codeFromOutbox, signinText } from '../support/signin-steps';

/**
 * Issue 52 items 3, 11 and 12, the sign-in forms in Chromium on the real app and its embedded IdP,
 * as a collector meets them: a code typed or pasted as "528 103" or "528-103" is kept whole and
 * signs in; the password forms carry the account's email for the password manager, unseen and
 * unfocusable; an empty required field is answered before any post by the product's own message in
 * the page's language, next to the field, and never by the browser's bubble. axe finds nothing.
 */
describe('the sign-in forms (issue 52 items 3, 11, 12)', () => {
  const fixture = useShellBrowser({ signedIn: false, env: UNLIMITED_SIGNINS });
  const newPage = async (): Promise<Page> => (await fixture.context()).newPage();
  const openSignin = (page: Page, locale: Locale) =>
    openSigninStep(page, fixture.shell.t.url, locale);
  const press = pressStepAction;

  async function newAccount(locale: Locale): Promise<string> {
    const email = `forms-${randomUUID()}@example.com`;
    await fixture.shell.t.app.get(AccountStore).createAccount({
      email,
      password: DEMO_PASSWORD,
      locale,
      givenName: 'Pat',
      familyName: 'Forms',
      acceptedTerms: true,
      flags: { emailVerified: true },
    });
    return email;
  }

  const heading = (page: Page) => page.locator('h1').innerText();

  it(
    'a recovery code typed with a space is kept whole and leads to the new password (item 3, 11)',
    async () => {
      const page = await newPage();
      const email = await newAccount('en-US');
      await openSignin(page, 'en-US');
      await page.fill('#field-email', email);
      await press(page);
      // Item 11: the password's form names the account for the password manager, unseen.
      const username = page.locator('form input[autocomplete="username"]');
      expect(await username.count()).toBe(1);
      expect(await username.inputValue()).toBe(email);
      expect(await username.isVisible()).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      // Tab from the top of the card never lands on it.
      await page.focus('#main');
      const reached: string[] = [];
      for (let i = 0; i < 6; i += 1) {
        await page.keyboard.press('Tab');
        reached.push(await page.evaluate(() => document.activeElement?.getAttribute('name') ?? ''));
      }
      expect(reached).not.toContain('username');

      await press(page, 'forgot');
      await press(page);
      expect(await heading(page)).toBe(signinText('en-US', 'steps.VerifyRecoveryCode.title'));
      const code = await codeFromOutbox(fixture.shell.t.url, email, 'recover-password');
      const spaced = `${code.slice(0, 3)} ${code.slice(3)}`;
      await page.focus('#field-code');
      // As a paste puts it in: one insertion of the whole text, which maxlength used to cut.
      await page.keyboard.insertText(spaced);
      expect(await page.inputValue('#field-code')).toBe(spaced);
      await press(page);
      expect(await heading(page)).toBe(signinText('en-US', 'steps.ResetPassword.title'));
      // Item 11 on a new-password form.
      expect(await page.locator('form input[autocomplete="username"]').inputValue()).toBe(email);
      expect(await seriousViolations(page)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'an authenticator code typed as "528-103" signs in (item 3)',
    async () => {
      const page = await newPage();
      await openSignin(page, 'en-US');
      await page.fill('#field-email', 'totp@example.com');
      await press(page);
      await page.fill('#field-password', DEMO_PASSWORD);
      await press(page);
      expect(await heading(page)).toBe(signinText('en-US', 'steps.VerifyFactor.title'));
      // The seeding used the current time step, so sign in with the next one (within the window).
      const code = new TOTP({ secret: DEMO_TOTP_SECRET }).generate({
        timestamp: Date.now() + 30_000,
      });
      await page.focus('#field-code');
      await page.keyboard.type(`${code.slice(0, 3)}-${code.slice(3)}`);
      await press(page);
      await page.waitForURL((url) => !url.pathname.startsWith('/idp/'));
      expect(new URL(page.url()).pathname).not.toMatch(/^\/idp\//);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'fr-CA: an empty field is answered in French, next to it, before any post (item 12)',
    async () => {
      const page = await newPage();
      const posts: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST') posts.push(request.url());
      });
      let dialogs = 0;
      page.on('dialog', () => (dialogs += 1));
      await openSignin(page, 'fr-CA');
      const url = page.url();
      expect(await page.evaluate(() => document.querySelector('form')?.noValidate)).toBe(true);

      await page.click('button[value="submit"]');
      const message = page.locator('#field-email-error');
      await message.waitFor();
      expect(await message.innerText()).toBe(signinText('fr-CA', 'errors.required'));
      expect(posts).toEqual([]);
      expect(page.url()).toBe(url);
      expect(dialogs).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-email');
      const field = page.locator('#field-email');
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await field.getAttribute('aria-describedby')).toContain('field-email-error');
      expect(await seriousViolations(page)).toEqual([]);

      // A new address: the create-account form, every field empty, the terms' own message.
      await page.fill('#field-email', `forms-fr-${randomUUID()}@example.com`);
      await press(page);
      expect(await heading(page)).toBe(signinText('fr-CA', 'steps.CreateAccount.title'));
      await page.click('button[value="submit"]');
      await page.locator('#field-acceptTerms-error').waitFor();
      const required = signinText('fr-CA', 'errors.required');
      for (const name of ['givenName', 'familyName', 'newPassword'])
        expect(await page.locator(`#field-${name}-error`).innerText()).toBe(required);
      expect(await page.locator('#field-acceptTerms-error').innerText()).toBe(
        signinText('fr-CA', 'errors.termsRequired'),
      );
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-givenName');
      expect(posts).toHaveLength(1);
      expect(await seriousViolations(page)).toEqual([]);

      // A field filled in loses its message on the next try; the others keep theirs.
      await page.fill('#field-givenName', 'Robin');
      await page.click('button[value="submit"]');
      expect(await page.locator('#field-givenName-error').count()).toBe(0);
      expect(await page.locator('#field-givenName').getAttribute('aria-invalid')).toBeNull();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-familyName');
      expect(posts).toHaveLength(1);

      // Back skips the check, as before.
      await press(page, 'back');
      expect(await heading(page)).toBe(signinText('fr-CA', 'steps.EmailCheck.title'));
    },
    TEST_TIMEOUT_MS,
  );
});
