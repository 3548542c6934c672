import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { AccountStore, type NewAccount } from '../../src/idp/accounts/account-store';
import { FactorStore } from '../../src/idp/accounts/factor-store';
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH } from '../../src/idp/demo-users';
import type { Locale } from '../../src/shared/locale';
import { Browser, BrowserResponse } from '../support/browser';
import { SigninDriver, signinText, stepTitle, textOf } from '../support/signin-steps';
import { useTestApp } from '../support/test-app';
import { UNLIMITED_SIGNINS } from '../support/test-config';

const LONG = 120_000;

const title = (step: string, locale = 'en-US'): string => signinText(locale, `steps.${step}.title`);
const introOf = (page: BrowserResponse): string =>
  textOf(/<p class="intro">([\s\S]*?)<\/p>/.exec(page.body)?.[1] ?? '');
const destinationOf = (page: BrowserResponse): string | undefined => {
  const found = /<p class="signin-destination">([\s\S]*?)<\/p>/.exec(page.body);
  return found ? textOf(found[1] ?? '') : undefined;
};
/** The label of the page's back button, if it has one. */
const backLabelOf = (page: BrowserResponse): string | undefined => {
  const found = /<button\b[^>]*value="back"[^>]*>([\s\S]*?)<\/button>/.exec(page.body);
  return found ? textOf(found[1] ?? '') : undefined;
};

/**
 * Issue 52 items 7, 13 and 16 over HTTP, through the embedded IdP's real steps: what the
 * authenticator steps say and show (the key for manual entry is the secret the QR code's otpauth
 * URI carries, and a code made from it signs in), the line that names the brand the sign-in leads
 * to, and the way out of the expired-password, name and reset steps.
 */
describe('what the sign-in steps say and where they lead out (issue 52 items 7, 13, 16)', () => {
  const t = useTestApp(UNLIMITED_SIGNINS);
  let idp: SigninDriver;

  beforeAll(async () => {
    idp = await SigninDriver.for(t);
  }, 30_000);

  async function newAccount(
    flags: NewAccount['flags'] = {},
  ): Promise<{ email: string; id: string }> {
    const email = `guide-${randomUUID()}@example.com`;
    const account = await t.app.get(AccountStore).createAccount(
      {
        email,
        password: DEMO_PASSWORD,
        locale: 'en-US',
        givenName: 'Pat',
        familyName: 'Guide',
        acceptedTerms: true,
        flags: { emailVerified: true, ...flags },
      },
      { passwordHash: DEMO_PASSWORD_HASH },
    );
    return { email, id: account.id };
  }

  /** A new authorization up to the page after the password. */
  async function afterPassword(
    browser: Browser,
    email: string,
    extra: Record<string, string> = {},
  ) {
    const { start, page } = await idp.begin(browser, extra);
    const password = await idp.next(browser, page, { email });
    return { start, page: await idp.next(browser, password, { password: DEMO_PASSWORD }) };
  }

  describe('item 7: the authenticator app', () => {
    it(
      'set-up: scan first, then the code; the key shown is the otpauth secret, and signs in',
      async () => {
        const { email } = await newAccount({ mfaSetupRequired: true });
        const enrolments = jest.spyOn(t.app.get(FactorStore), 'startEnrolment');
        const browser = new Browser();
        const { page: prompt } = await afterPassword(browser, email);
        expect(stepTitle(prompt)).toBe(title('SetupMfa.PromptSetupMfa'));
        const choose = await idp.next(browser, prompt, {});
        const setup = await idp.next(browser, choose, { factor: 'totp' });
        expect(stepTitle(setup)).toBe(title('SetupMfa.VerifyNewFactor'));

        // What the page says, in order: scan the QR code, then enter the code.
        const scan = signinText('en-US', 'guide.totpScan');
        expect(introOf(setup)).toBe(scan);
        const body = setup.body;
        expect(body.indexOf('class="intro"')).toBeLessThan(body.indexOf('class="qr"'));
        expect(body.indexOf('class="qr"')).toBeLessThan(body.indexOf('class="secret"'));
        expect(body.indexOf('class="secret"')).toBeLessThan(body.indexOf('name="code"'));

        // The key for manual entry, in groups of four, is the secret of the otpauth URI that the QR
        // code encodes.
        const enrolment = await (enrolments.mock.results.at(-1)?.value as ReturnType<
          FactorStore['startEnrolment']
        >);
        enrolments.mockRestore();
        const uri = enrolment.totp?.otpauthUri ?? '';
        const secret = new URL(uri).searchParams.get('secret');
        const groups = [
          ...(/<code class="secret">([\s\S]*?)<\/code>/.exec(body)?.[1] ?? '').matchAll(
            /<span class="secret__group">([A-Z2-7]{1,4})<\/span>/g,
          ),
        ].map((m) => m[1]);
        expect(groups.slice(0, -1).every((g) => g?.length === 4)).toBe(true);
        const shownKey = groups.join('');
        expect(shownKey).toBe(secret);
        const QRCode = await import('qrcode');
        expect(body).toContain((await QRCode.toString(uri, { type: 'svg' })).trim());

        // A code made from the key as shown confirms the app, and signs in with it later.
        const fromShownKey = new TOTP({ secret: Secret.fromBase32(shownKey) });
        const success = await idp.next(browser, setup, { code: fromShownKey.generate() });
        expect(stepTitle(success)).toBe(title('SetupMfa.Success'));
        await idp.done(browser, success, {});

        const later = new Browser();
        const { page: verify } = await afterPassword(later, email);
        expect(stepTitle(verify)).toBe(title('VerifyFactor'));
        // Item 7: the sign-in step says the code comes from the app (nothing is sent).
        expect(introOf(verify)).toBe(signinText('en-US', 'guide.totpCode'));
        expect(verify.body).not.toContain('value="resend"');
        const next = fromShownKey.generate({ timestamp: Date.now() + 30_000 });
        await idp.done(later, verify, { code: next });
      },
      LONG,
    );

    it.each<Locale>(['en-US', 'en-CA', 'fr-CA', 'ja-JP'])(
      'the sign-in code step of an authenticator app says where the code comes from (%s)',
      async (locale) => {
        const browser = new Browser();
        const { page } = await afterPassword(browser, 'totp@example.com', { ui_locales: locale });
        expect(stepTitle(page)).toBe(title('VerifyFactor', locale));
        expect(introOf(page)).toBe(signinText(locale, 'guide.totpCode'));
      },
      LONG,
    );

    it(
      'an emailed code keeps the step’s own intro',
      async () => {
        const { email, id } = await newAccount();
        const store = t.app.get(FactorStore);
        const { factor } = await store.startEnrolment(id, 'email', { email });
        await store.confirmEnrolment(id, factor.id);
        const { page } = await afterPassword(new Browser(), email);
        expect(introOf(page)).toBe(signinText('en-US', 'steps.VerifyFactor.intro'));
      },
      LONG,
    );
  });

  describe('item 13: where the sign-in leads', () => {
    it.each<[Locale, string]>([
      ['en-US', 'to continue to PSA'],
      ['en-CA', 'to continue to PSA'],
      ['fr-CA', 'pour continuer vers PSA'],
      ['ja-JP', '「PSA」に移動'],
    ])('a brand’s sign-in says so under the heading, on every step (%s)', async (locale, line) => {
      expect(signinText(locale, 'guide.continueTo', { brand: 'PSA' })).toBe(line);
      const browser = new Browser();
      const { page } = await idp.begin(browser, { brand: 'psa', ui_locales: locale });
      expect(destinationOf(page)).toBe(line);
      const body = page.body;
      expect(body.indexOf('</h1>')).toBeLessThan(body.indexOf('class="signin-destination"'));
      expect(body.indexOf('class="signin-destination"')).toBeLessThan(
        body.indexOf('class="intro"'),
      );
      const password = await idp.next(browser, page, { email: 'collector@example.com' });
      expect(destinationOf(password)).toBe(line);
    });

    it.each([
      ['Goldin', { brand: 'goldin' }],
      ['PCGS', { brand: 'pcgs' }],
    ])('names the brand from the brand table: %s', async (name, extra) => {
      const { page } = await idp.begin(new Browser(), extra);
      expect(destinationOf(page)).toBe(`to continue to ${name}`);
    });

    it.each([
      ['no brand', {}],
      ['this product’s own', { brand: 'collectors' }],
      ['a code that is no brand', { brand: 'acme' }],
    ])('says nothing of a destination for %s', async (_name, extra: Record<string, string>) => {
      const { page } = await idp.begin(new Browser(), extra);
      expect(stepTitle(page)).toBe(title('EmailCheck'));
      expect(destinationOf(page)).toBeUndefined();
    });
  });

  describe('item 16: a way out of every step', () => {
    it(
      'the expired password leads back to the email ("Use a different email")',
      async () => {
        const { email } = await newAccount({ passwordExpired: true });
        const browser = new Browser();
        const { page } = await afterPassword(browser, email);
        expect(stepTitle(page)).toBe(title('UpdateExpiredPassword'));
        expect(backLabelOf(page)).toBe(signinText('en-US', 'buttons.useDifferentEmail'));
        const back = await idp.next(browser, page, {}, 'back');
        expect(stepTitle(back)).toBe(title('EmailCheck'));
        // Nothing was changed: the password is still expired at the next sign-in.
        const again = await idp.next(browser, await idp.next(browser, back, { email }), {
          password: DEMO_PASSWORD,
        });
        expect(stepTitle(again)).toBe(title('UpdateExpiredPassword'));
      },
      LONG,
    );

    it(
      'the name step ends the attempt ("Use a different email"): the next address signs in alone',
      async () => {
        const migrating = await newAccount({ isMigrating: true });
        const other = await newAccount();
        const browser = new Browser();
        const { start, page: welcome } = await afterPassword(browser, migrating.email);
        expect(stepTitle(welcome)).toBe(title('WelcomeCollectors'));
        const name = await idp.next(browser, welcome, {});
        expect(stepTitle(name)).toBe(title('EnterNameInfo'));
        expect(backLabelOf(name)).toBe(signinText('en-US', 'buttons.useDifferentEmail'));
        const email = await idp.next(browser, name, {}, 'back');
        expect(stepTitle(email)).toBe(title('EmailCheck'));

        const password = await idp.next(browser, email, { email: other.email });
        const claims = await idp.claims(
          start,
          await idp.done(browser, password, { password: DEMO_PASSWORD }),
        );
        expect(claims.sub).toBe(other.id);

        // The migrating account's welcome is asked for again at its next sign-in.
        const { page: welcomeAgain } = await afterPassword(new Browser(), migrating.email);
        expect(stepTitle(welcomeAgain)).toBe(title('WelcomeCollectors'));
      },
      LONG,
    );

    it(
      'the new password after a recovery leads back to the password ("Back")',
      async () => {
        const { email } = await newAccount();
        const browser = new Browser();
        const { page } = await idp.begin(browser);
        const password = await idp.next(browser, page, { email });
        const forgot = await idp.next(browser, password, {}, 'forgot');
        const verify = await idp.next(browser, forgot, { email });
        const code = await idp.codeFromOutbox(email, 'recover-password');
        const reset = await idp.next(browser, verify, { code });
        expect(stepTitle(reset)).toBe(title('ResetPassword'));
        expect(backLabelOf(reset)).toBe(signinText('en-US', 'buttons.previous'));
        const back = await idp.next(browser, reset, {}, 'back');
        expect(stepTitle(back)).toBe(title('EnterPassword'));
      },
      LONG,
    );
  });
});
