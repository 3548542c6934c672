import { randomUUID } from 'node:crypto';
import { Browser, type BrowserResponse } from '../support/browser';
import {
  SigninDriver,
  decodeHtml,
  errorSummary,
  fieldErrors,
  signinText,
  stepTitle,
  textOf,
  unmetRules,
} from '../support/signin-steps';
import { type TestApp, startTestApp } from '../support/test-app';

/**
 * Issue 52 items 2, 5, 6, 9 and 10, what the sign-in forms' fields say over HTTP, as a browser
 * without JavaScript gets them: a refused registration comes back with every value but the
 * password (the ticked terms box too) and an error only beside the field still wrong; Japanese
 * asks for the family name first; the registration names the address it is for; a form of one
 * field says its error beside the field only; the password rules are said once, as a list; every
 * password field has its show button, hidden until the page's script makes it work.
 */

const LONG = 60_000;
const NEW_PASSWORD = 'N3w!Collector-pass';
const title = (step: string, locale = 'en-US') => signinText(locale, `steps.${step}.title`);

/** The <input> elements of a page, as their opening tags. */
const inputs = (page: BrowserResponse) => page.body.match(/<input\b[^>]*>/g) ?? [];
const input = (page: BrowserResponse, name: string) =>
  inputs(page).find((tag) => tag.includes(` name="${name}"`)) ?? '';
/** The names of the form's visible fields, in the order the page asks for them. */
const fieldOrder = (page: BrowserResponse) =>
  inputs(page)
    .filter((tag) => !/type="hidden"|\shidden=""/.test(tag))
    .map((tag) => /name="([^"]+)"/.exec(tag)?.[1] ?? '');

describe('the sign-in fields (issue 52 items 2, 5, 6, 9, 10)', () => {
  let app: TestApp;
  let idp: SigninDriver;

  beforeAll(async () => {
    app = await startTestApp();
    idp = await SigninDriver.for(app);
  }, 30_000);
  afterAll(async () => {
    await app.close();
  });

  async function toCreateAccount(browser: Browser, locale = 'en-US') {
    const email = `fields-${randomUUID()}@example.com`;
    const { page } = await idp.begin(browser, locale === 'en-US' ? {} : { ui_locales: locale });
    const create = await idp.next(browser, page, { email });
    expect(stepTitle(create)).toBe(title('CreateAccount', locale));
    return { email, create };
  }

  it(
    'item 2: a refused registration keeps every value but the password, and errors only where due',
    async () => {
      const browser = new Browser();
      const { create } = await toCreateAccount(browser);
      const given = { givenName: 'Ada', familyName: 'Lovelace', acceptTerms: 'true' };

      const weak = await idp.step(browser, create, { ...given, newPassword: 'abc' });
      expect(weak.page.status).toBe(400);
      expect(input(weak.page, 'givenName')).toContain('value="Ada"');
      expect(input(weak.page, 'familyName')).toContain('value="Lovelace"');
      expect(input(weak.page, 'acceptTerms')).toMatch(/\schecked=""/);
      expect(input(weak.page, 'newPassword')).not.toMatch(/value=/);
      expect(Object.keys(fieldErrors(weak.page))).toEqual(['newPassword']);

      // One field still wrong, another fixed: the error moves with it, the box stays ticked.
      const noFamily = await idp.step(browser, weak.page, {
        givenName: 'Ada',
        familyName: '',
        acceptTerms: 'true',
        newPassword: NEW_PASSWORD,
      });
      expect(noFamily.page.status).toBe(400);
      expect(Object.keys(fieldErrors(noFamily.page))).toEqual(['familyName']);
      expect(input(noFamily.page, 'acceptTerms')).toMatch(/\schecked=""/);
      expect(input(noFamily.page, 'givenName')).toContain('value="Ada"');

      // A box left unticked comes back unticked.
      const noTerms = await idp.step(browser, noFamily.page, {
        givenName: 'Ada',
        familyName: 'Lovelace',
        newPassword: NEW_PASSWORD,
      });
      expect(Object.keys(fieldErrors(noTerms.page))).toEqual(['acceptTerms']);
      expect(input(noTerms.page, 'acceptTerms')).not.toMatch(/checked/);

      const verify = await idp.next(browser, noTerms.page, { ...given, newPassword: NEW_PASSWORD });
      expect(stepTitle(verify)).toBe(title('VerifyEmailCode'));
    },
    LONG,
  );

  it.each([
    ['en-US', ['givenName', 'familyName']],
    ['fr-CA', ['givenName', 'familyName']],
    ['ja-JP', ['familyName', 'givenName']],
  ])(
    'item 5: %s asks for the names in the order %j, each with its autocomplete token',
    async (locale, order) => {
      const browser = new Browser();
      const { create } = await toCreateAccount(browser, locale);
      expect(fieldOrder(create)).toEqual([...order, 'newPassword', 'acceptTerms']);
      expect(input(create, 'givenName')).toMatch(/autocomplete="given-name"/i);
      expect(input(create, 'familyName')).toMatch(/autocomplete="family-name"/i);
      // Both left empty: the first error, and the focus, are the first field's.
      const empty = await idp.step(browser, create, {
        newPassword: NEW_PASSWORD,
        acceptTerms: 'true',
      });
      expect(Object.keys(fieldErrors(empty.page))).toEqual(order);
      expect(input(empty.page, order[0] ?? '')).toMatch(/autofocus=""/i);
    },
    LONG,
  );

  it.each(['en-US', 'fr-CA', 'ja-JP'])(
    'item 6: in %s the registration names the address in full, with the way back to change it',
    async (locale) => {
      const browser = new Browser();
      const { email, create } = await toCreateAccount(browser, locale);
      const sentence = /<p class="signin-new-email">([\s\S]*?)<\/p>/.exec(create.body)?.[1] ?? '';
      expect(decodeHtml(sentence.replace(/<[^>]+>/g, ''))).toBe(
        signinText(locale, 'fieldHelp.newEmail', { email }),
      );
      expect(create.body).toContain(`<strong class="signin-new-email__address">${email}</strong>`);
      const back = /<button[^>]*value="back"[^>]*>([^<]*)<\/button>/.exec(create.body)?.[1];
      expect(back).toBe(signinText(locale, 'buttons.useDifferentEmail'));
    },
    LONG,
  );

  it(
    'item 9: a form of one field says its error at the field only; several fields keep a summary',
    async () => {
      const browser = new Browser();
      const { page } = await idp.begin(browser);
      const invalid = await idp.step(browser, page, { email: 'name@example' });
      expect(invalid.page.status).toBe(400);
      expect(errorSummary(invalid.page)).toBeUndefined();
      expect(invalid.page.body).not.toContain('class="error-summary"');
      expect(fieldErrors(invalid.page)).toEqual({
        email: signinText('en-US', 'errors.invalidEmail'),
      });
      expect(input(invalid.page, 'email')).toMatch(/aria-describedby="field-email-error"/);

      const password = await idp.next(browser, invalid.page, { email: 'collector@example.com' });
      const wrong = await idp.step(browser, password, { password: 'Not-the-passw0rd' });
      expect(wrong.page.status).toBe(400);
      expect(errorSummary(wrong.page)).toBeUndefined();
      expect(Object.keys(fieldErrors(wrong.page))).toEqual(['password']);

      const other = new Browser();
      const { create } = await toCreateAccount(other);
      const several = await idp.step(other, create, { newPassword: 'abc' });
      expect(errorSummary(several.page)).toContain(signinText('en-US', 'errors.termsRequired'));
    },
    LONG,
  );

  it(
    'item 9: the password rules are said once, as a list under the field, marked after a refusal',
    async () => {
      const browser = new Browser();
      const { create } = await toCreateAccount(browser);
      const list = (page: BrowserResponse) =>
        /<div class="password-rules"[\s\S]*?<\/ul>/.exec(page.body)?.[0] ?? '';
      const rules = ['minLength', 'lowercase', 'uppercase', 'digit', 'special'];
      for (const rule of rules)
        expect(textOf(list(create))).toContain(signinText('en-US', `fieldHelp.rules.${rule}`));
      // Nothing marked before a post, and no hint saying the rules a second time.
      expect(list(create)).not.toContain('data-met="');
      expect(create.body).not.toContain('id="field-newPassword-hint"');
      expect(input(create, 'newPassword')).toMatch(/aria-describedby="field-newPassword-rules"/);
      expect(create.body).toMatch(/<p class="visually-hidden" aria-live="polite"/);

      const weak = await idp.step(browser, create, {
        givenName: 'Ada',
        familyName: 'Lovelace',
        acceptTerms: 'true',
        newPassword: 'abcdefgh',
      });
      expect(unmetRules(weak.page)).toEqual(['uppercase', 'digit', 'special']);
      // Each mark is a word too, not a colour alone.
      expect(list(weak.page)).toContain(
        `data-rule="lowercase" data-met="true">${signinText('en-US', 'fieldHelp.rules.lowercase')}`,
      );
      const digit = signinText('en-US', 'fieldHelp.rules.digit');
      expect(textOf(list(weak.page))).toContain(
        `${digit} ${signinText('en-US', 'fieldHelp.ruleUnmet')}`,
      );
      // The field's message says only that rules are missed; the list says which.
      expect(fieldErrors(weak.page)).toEqual({
        newPassword: signinText('en-US', 'fieldHelp.rulesUnmet'),
      });
    },
    LONG,
  );

  it.each(['en-US', 'fr-CA', 'ja-JP'])(
    'item 10: in %s every password field has a show button that never submits, hidden without JS',
    async (locale) => {
      const browser = new Browser();
      const { page } = await idp.begin(browser, locale === 'en-US' ? {} : { ui_locales: locale });
      const password = await idp.next(browser, page, { email: 'collector@example.com' });
      const { create } = await toCreateAccount(new Browser(), locale);
      for (const [step, field] of [
        [password, 'password'],
        [create, 'newPassword'],
      ] as const) {
        const button = new RegExp(
          `<div class="password-input"><input[^>]*name="${field}"[^>]*/?>` +
            `<button type="button" class="show-password" aria-controls="field-${field}"` +
            ` aria-label="${signinText(locale, 'fieldHelp.showLabel')}"[^>]*hidden="">` +
            `${signinText(locale, 'fieldHelp.show')}</button></div>`,
        );
        expect(step.body).toMatch(button);
      }
    },
    LONG,
  );
});
