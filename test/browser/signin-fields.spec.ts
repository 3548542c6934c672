import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { AccountStore, type NewAccount } from '../../src/idp/accounts/account-store';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import type { Locale } from '../../src/shared/locale';
import {
  TEST_TIMEOUT_MS,
  UNLIMITED_SIGNINS,
  openSigninStep,
  pressStepAction,
  seriousViolations,
  useShellBrowser,
} from '../support/shell-browser';
import { signinText } from '../support/signin-steps';

/**
 * Issue 52 items 2, 5, 6, 9 and 10, the sign-in forms' fields in Chromium on the real app and its
 * embedded IdP, as a collector meets them: a registration the server refuses comes back with the
 * terms box still ticked and the names kept, and succeeds once the one wrong field is fixed; the
 * Japanese forms ask for 姓 before 名, in the tab order too; the registration names the address it
 * is for; a form of one field says its error beside the field only; the password rules tick as
 * one types, and say so to screen readers; every password field can be shown and hidden with a
 * button in the page's language, which never posts the form. axe finds nothing.
 */
describe('the sign-in fields (issue 52 items 2, 5, 6, 9, 10)', () => {
  const fixture = useShellBrowser({ signedIn: false, env: UNLIMITED_SIGNINS });
  const newPage = async (): Promise<Page> => (await fixture.context()).newPage();
  const openSignin = (page: Page, locale: Locale) =>
    openSigninStep(page, fixture.shell.t.url, locale);
  const press = pressStepAction;

  async function newAccount(locale: Locale, flags: NewAccount['flags'] = {}): Promise<string> {
    const email = `fields-${randomUUID()}@example.com`;
    await fixture.shell.t.app.get(AccountStore).createAccount({
      email,
      password: DEMO_PASSWORD,
      locale,
      givenName: 'Pat',
      familyName: 'Fields',
      acceptedTerms: true,
      flags: { emailVerified: true, ...flags },
    });
    return email;
  }

  async function toCreateAccount(page: Page, locale: Locale): Promise<string> {
    const email = `fields-new-${randomUUID()}@example.com`;
    await openSignin(page, locale);
    await page.fill('#field-email', email);
    await press(page);
    expect(await heading(page)).toBe(signinText(locale, 'steps.CreateAccount.title'));
    return email;
  }

  const heading = (page: Page) => page.locator('h1').innerText();
  /** The names of the form's visible fields, in the order a keyboard reaches them. */
  const fieldOrder = (page: Page) =>
    page.$$eval('form input:not([type="hidden"]):not([hidden])', (inputs) =>
      inputs.map((input) => input.getAttribute('name') ?? ''),
    );
  const focusedName = (page: Page) =>
    page.evaluate(() => document.activeElement?.getAttribute('name') ?? '');

  it(
    'item 2: a refusal keeps the ticked box and the names; fixing the one field succeeds',
    async () => {
      const page = await newPage();
      await toCreateAccount(page, 'en-US');
      await page.fill('#field-givenName', 'Robin');
      await page.fill('#field-familyName', 'Fields');
      await page.fill('#field-newPassword', 'abc');
      await page.check('#field-acceptTerms');
      // Every field is filled in, so the page posts, and the server refuses the weak password.
      await press(page);
      expect(await heading(page)).toBe(signinText('en-US', 'steps.CreateAccount.title'));
      expect(await page.isChecked('#field-acceptTerms')).toBe(true);
      expect(await page.inputValue('#field-givenName')).toBe('Robin');
      expect(await page.inputValue('#field-familyName')).toBe('Fields');
      expect(await page.inputValue('#field-newPassword')).toBe('');
      expect(await page.locator('.field-error').count()).toBe(1);
      expect(await page.locator('#field-newPassword-error').innerText()).toBe(
        signinText('en-US', 'fieldHelp.rulesUnmet'),
      );
      expect(await page.locator('.field.invalid').count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);

      await page.fill('#field-newPassword', 'N3w!Collector-pass');
      await press(page);
      expect(await heading(page)).toBe(signinText('en-US', 'steps.VerifyEmailCode.title'));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'item 5: ja-JP asks for 姓 before 名 on the registration and the name step; en-US does not',
    async () => {
      const page = await newPage();
      await toCreateAccount(page, 'ja-JP');
      expect(await fieldOrder(page)).toEqual([
        'familyName',
        'givenName',
        'newPassword',
        'acceptTerms',
      ]);
      // The first field has the focus, and Tab goes on to the next one in the same order.
      expect(await focusedName(page)).toBe('familyName');
      expect(await page.locator('label[for="field-familyName"]').innerText()).toBe(
        signinText('ja-JP', 'fields.familyName.label'),
      );
      await page.keyboard.press('Tab');
      expect(await focusedName(page)).toBe('givenName');
      expect(await page.getAttribute('#field-familyName', 'autocomplete')).toBe('family-name');
      expect(await page.getAttribute('#field-givenName', 'autocomplete')).toBe('given-name');
      expect(await seriousViolations(page)).toEqual([]);

      // The name step of an account still migrating.
      const email = await newAccount('ja-JP', { isMigrating: true });
      await openSignin(page, 'ja-JP');
      await page.fill('#field-email', email);
      await press(page);
      await page.fill('#field-password', DEMO_PASSWORD);
      await press(page);
      expect(await heading(page)).toBe(signinText('ja-JP', 'steps.WelcomeCollectors.title'));
      await press(page);
      expect(await heading(page)).toBe(signinText('ja-JP', 'steps.EnterNameInfo.title'));
      expect(await fieldOrder(page)).toEqual(['familyName', 'givenName']);
      expect(await focusedName(page)).toBe('familyName');
      await page.keyboard.press('Tab');
      expect(await focusedName(page)).toBe('givenName');

      const english = await newPage();
      await toCreateAccount(english, 'en-US');
      expect(await fieldOrder(english)).toEqual([
        'givenName',
        'familyName',
        'newPassword',
        'acceptTerms',
      ]);
      expect(await focusedName(english)).toBe('givenName');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'item 6: fr-CA: the registration names the address in full, and offers to change it',
    async () => {
      const page = await newPage();
      const email = await toCreateAccount(page, 'fr-CA');
      const sentence = page.locator('.signin-new-email');
      expect(await sentence.innerText()).toBe(signinText('fr-CA', 'fieldHelp.newEmail', { email }));
      const address = page.locator('.signin-new-email__address');
      expect(await address.innerText()).toBe(email);
      expect(await address.isVisible()).toBe(true);
      // Whole, not cut off by the card at a phone's width.
      await page.setViewportSize({ width: 390, height: 844 });
      expect(
        await address.evaluate((el) => {
          const card = el.closest('.signin-card')?.getBoundingClientRect();
          const box = el.getBoundingClientRect();
          return Boolean(card) && box.right <= (card?.right ?? 0) && el.scrollWidth <= box.width;
        }),
      ).toBe(true);
      const back = page.locator('button[value="back"]');
      expect(await back.innerText()).toBe(signinText('fr-CA', 'buttons.useDifferentEmail'));
      await press(page, 'back');
      expect(await heading(page)).toBe(signinText('fr-CA', 'steps.EmailCheck.title'));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'item 9: a form of one field says its error beside the field only, with no summary',
    async () => {
      const page = await newPage();
      await openSignin(page, 'en-US');
      await page.fill('#field-email', 'name@example');
      await press(page);
      expect(await page.locator('.error-summary').count()).toBe(0);
      const message = signinText('en-US', 'errors.invalidEmail');
      expect(await page.locator('#field-email-error').innerText()).toBe(message);
      // Once on the page, and read with the field, which has the focus.
      expect(await page.getByText(message).count()).toBe(1);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-email');
      expect(await page.getAttribute('#field-email', 'aria-describedby')).toContain(
        'field-email-error',
      );
      expect(await seriousViolations(page)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it.each(['en-US', 'fr-CA', 'ja-JP'] as const)(
    'item 9: %s: the password rules tick as one types, and say so to screen readers',
    async (locale) => {
      const page = await newPage();
      await toCreateAccount(page, locale);
      const rule = (name: string) => page.locator(`.password-rule[data-rule="${name}"]`);
      const status = page.locator('[data-password-rules-status]');
      expect(await status.getAttribute('aria-live')).toBe('polite');
      // The rules are said once: no hint repeats them.
      expect(await page.locator('#field-newPassword-hint').count()).toBe(0);
      expect(await page.locator('.password-rule').count()).toBe(5);
      expect(await rule('lowercase').getAttribute('data-met')).toBeNull();

      await page.focus('#field-newPassword');
      await page.keyboard.type('a');
      await page.waitForFunction(() =>
        document.querySelector('[data-password-rules-status]')?.textContent?.trim(),
      );
      const met = signinText(locale, 'fieldHelp.ruleMet');
      const unmet = signinText(locale, 'fieldHelp.ruleUnmet');
      const lowercase = signinText(locale, 'fieldHelp.rules.lowercase');
      expect(await rule('lowercase').getAttribute('data-met')).toBe('true');
      expect(await rule('uppercase').getAttribute('data-met')).toBe('false');
      // The state is a word in the item's text, not a colour alone.
      expect(await rule('lowercase').textContent()).toBe(`${lowercase}${met}`);
      expect(await rule('digit').textContent()).toBe(
        `${signinText(locale, 'fieldHelp.rules.digit')}${unmet}`,
      );
      // The first keystroke says what is met; the rules still missing stay quiet.
      expect(await status.textContent()).toBe(`${lowercase}${met}`);

      await page.keyboard.type('B3!xyzw');
      for (const name of ['minLength', 'lowercase', 'uppercase', 'digit', 'special'])
        expect(await rule(name).getAttribute('data-met')).toBe('true');
      expect(await status.textContent()).toBe(
        `${signinText(locale, 'fieldHelp.rules.minLength')}${met}`,
      );
      // A tick is drawn as a shape, not a colour alone.
      expect(
        await rule('digit').evaluate((el) => getComputedStyle(el, '::before').content),
      ).toContain('✓');

      await page.keyboard.press('Backspace');
      expect(await rule('minLength').getAttribute('data-met')).toBe('false');
      expect(await status.textContent()).toBe(
        `${signinText(locale, 'fieldHelp.rules.minLength')}${unmet}`,
      );
      expect(await seriousViolations(page)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it.each(['fr-CA', 'ja-JP'] as const)(
    'item 10: %s: the password is shown and hidden by pointer and keyboard, and still signs in',
    async (locale) => {
      const page = await newPage();
      const posts: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST') posts.push(request.url());
      });
      const email = await newAccount(locale);
      await openSignin(page, locale);
      await page.fill('#field-email', email);
      await press(page);
      expect(await heading(page)).toBe(signinText(locale, 'steps.EnterPassword.title'));
      const button = page.locator('.show-password');
      const field = page.locator('#field-password');
      expect(await button.isVisible()).toBe(true);
      expect(await button.getAttribute('type')).toBe('button');
      expect(await button.getAttribute('aria-controls')).toBe('field-password');
      expect(await button.innerText()).toBe(signinText(locale, 'fieldHelp.show'));
      expect(await button.getAttribute('aria-label')).toBe(
        signinText(locale, 'fieldHelp.showLabel'),
      );
      expect(await seriousViolations(page)).toEqual([]);

      await field.fill(DEMO_PASSWORD);
      const before = posts.length;
      await button.click();
      expect(await field.getAttribute('type')).toBe('text');
      expect(await button.innerText()).toBe(signinText(locale, 'fieldHelp.hide'));
      expect(await button.getAttribute('aria-label')).toBe(
        signinText(locale, 'fieldHelp.hideLabel'),
      );
      await button.click();
      expect(await field.getAttribute('type')).toBe('password');
      // From the keyboard: Tab from the field reaches the button, Space and Enter press it.
      await field.focus();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('show-password');
      await page.keyboard.press('Space');
      expect(await field.getAttribute('type')).toBe('text');
      await page.keyboard.press('Enter');
      expect(await field.getAttribute('type')).toBe('password');
      await page.keyboard.press('Enter');
      expect(await field.getAttribute('type')).toBe('text');
      expect(posts.length).toBe(before);
      expect(await seriousViolations(page)).toEqual([]);

      // Shown, the password is still what the form posts, and it signs in.
      const bodies: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST') bodies.push(request.postData() ?? '');
      });
      await Promise.all([
        page.waitForURL((url) => !url.pathname.startsWith('/idp/')),
        page.click('button[value="submit"]'),
      ]);
      expect(new URLSearchParams(bodies[0]).get('password')).toBe(DEMO_PASSWORD);
      expect(new URL(page.url()).pathname).not.toMatch(/^\/idp\//);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'item 10: each new password has its own show button, which never posts the form',
    async () => {
      const page = await newPage();
      await toCreateAccount(page, 'en-US');
      const button = page.locator('.field:has(#field-newPassword) .show-password');
      expect(await button.isVisible()).toBe(true);
      await page.fill('#field-newPassword', 'N3w!Collector-pass');
      await button.click();
      expect(await page.getAttribute('#field-newPassword', 'type')).toBe('text');
      expect(await heading(page)).toBe(signinText('en-US', 'steps.CreateAccount.title'));
      expect(await page.locator('.field-error').count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
