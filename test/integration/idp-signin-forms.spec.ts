import { TOTP } from 'otpauth';
import { DEMO_PASSWORD, DEMO_TOTP_SECRET } from '../../src/idp/demo-users';
import { Browser, type BrowserResponse } from '../support/browser';
import { SigninDriver, signinText, stepTitle } from '../support/signin-steps';
import { type TestApp, startTestApp } from '../support/test-app';

/**
 * Issue 52 items 3, 11 and 12, what the sign-in forms say over HTTP: a one-time code grouped with
 * a space or a dash ("528 103", "528-103") is the code, on every step that asks for one, and its
 * field no longer cuts it; every password form carries the account's email as a hidden username
 * field for password managers; the forms say `novalidate` and carry, beside each required field,
 * the server's own message for it empty, in the page's language, while the server still checks.
 */

const LONG = 60_000;
const title = (step: string, locale = 'en-US') => signinText(locale, `steps.${step}.title`);

/** The <input> elements of a page, as their opening tags. */
const inputs = (page: BrowserResponse) => page.body.match(/<input\b[^>]*>/g) ?? [];
const codeInput = (page: BrowserResponse) => inputs(page).find((tag) => /name="code"/.test(tag));
/** The hidden username field password managers read, with the email it carries. */
const usernameField = (page: BrowserResponse) =>
  inputs(page).find((tag) => /name="username"/.test(tag));

/** "528103" as a collector may paste it: "528 103" or "528-103". */
const grouped = (code: string, separator: string) =>
  `${code.slice(0, 3)}${separator}${code.slice(3)}`;

describe('the sign-in forms (issue 52 items 3, 11, 12)', () => {
  let app: TestApp;
  let idp: SigninDriver;

  beforeAll(async () => {
    app = await startTestApp();
    idp = await SigninDriver.for(app);
  }, 30_000);
  afterAll(async () => {
    await app.close();
  });

  async function toPasswordStep(browser: Browser, email: string, extra = {}) {
    const { page } = await idp.begin(browser, extra);
    return idp.next(browser, page, { email });
  }

  it(
    'a recovery code with a space goes on to the new password, which names the account',
    async () => {
      const email = 'collector@example.com';
      const browser = new Browser();
      const password = await toPasswordStep(browser, email);
      expect(stepTitle(password)).toBe(title('EnterPassword'));
      // Item 11: the email, in the password's form, for the password manager only.
      const username = usernameField(password);
      expect(username).toBeDefined();
      expect(username).toMatch(/type="email"/);
      expect(username).toMatch(/autocomplete="username"/i);
      expect(username).toContain(`value="${email}"`);
      expect(username).toMatch(/\shidden=""/);
      const form = /<form\b[^>]*>[\s\S]*?<\/form>/.exec(password.body)?.[0] ?? '';
      expect(form).toContain('name="username"');
      expect(form).toMatch(/autocomplete="current-password"/i);

      const forgot = await idp.next(browser, password, {}, 'forgot');
      const verify = await idp.next(browser, forgot, { email });
      expect(stepTitle(verify)).toBe(title('VerifyRecoveryCode'));
      // Item 3: nothing in the field cuts a grouped code, and it still asks for digits.
      const field = codeInput(verify) ?? '';
      expect(field).toMatch(/autocomplete="one-time-code"/i);
      expect(field).toMatch(/inputmode="numeric"/i);
      expect(field).not.toMatch(/maxlength=/i);
      expect(field).not.toMatch(/pattern=/i);
      const code = await idp.codeFromOutbox(email, 'recover-password');
      const reset = await idp.next(browser, verify, { code: ` ${grouped(code, ' ')} ` });
      expect(stepTitle(reset)).toBe(title('ResetPassword'));
      // Item 11 on a new-password form.
      expect(usernameField(reset)).toContain(`value="${email}"`);
      expect(usernameField(reset)).toMatch(/autocomplete="username"/i);
    },
    LONG,
  );

  it(
    'an authenticator code with a dash signs in; a grouped code of the wrong length is refused',
    async () => {
      const browser = new Browser();
      const password = await toPasswordStep(browser, 'totp@example.com');
      const factor = await idp.next(browser, password, { password: DEMO_PASSWORD });
      expect(stepTitle(factor)).toBe(title('VerifyFactor'));
      const tooLong = await idp.step(browser, factor, { code: '528-1034' });
      expect(tooLong.page.status).toBe(400);
      expect(tooLong.page.body).toContain(signinText('en-US', 'errors.tooLong'));
      const again = await idp.current(browser, tooLong.page);
      const code = new TOTP({ secret: DEMO_TOTP_SECRET }).generate({
        timestamp: Date.now() + 30_000,
      });
      const callback = await idp.done(browser, again, { code: grouped(code, '-') });
      expect(callback.searchParams.get('code')).toBeTruthy();
    },
    LONG,
  );

  it(
    'the forms say novalidate and carry the server’s message for each empty field, in fr-CA',
    async () => {
      const browser = new Browser();
      const { page } = await idp.begin(browser, { ui_locales: 'fr-CA' });
      expect(page.body).toMatch(/<form\b[^>]*\snovalidate=""/i);
      const required = signinText('fr-CA', 'errors.required');
      expect(page.body).toContain(`data-required="${required}"`);
      // The same words the server says when the form comes empty: it still checks.
      const empty = await idp.step(browser, page, { email: '' });
      expect(empty.page.status).toBe(400);
      expect(empty.page.body).toContain(
        `<p id="field-email-error" class="field-error">${required}`,
      );

      // The terms' box says the terms' message, as the server does.
      const create = await idp.next(browser, page, { email: 'new-forms-fr@example.com' });
      expect(stepTitle(create)).toBe(title('CreateAccount', 'fr-CA'));
      const terms = signinText('fr-CA', 'errors.termsRequired').replace(/'/g, '&#x27;');
      expect(create.body).toContain(`data-required="${terms}"`);
      // The page runs one script, under the page's nonce.
      const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(
        create.headers.get('content-security-policy') ?? '',
      )?.[1];
      expect(create.body).toContain(`<script nonce="${nonce}">`);
    },
    LONG,
  );
});
