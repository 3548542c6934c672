import { randomUUID } from 'node:crypto';
import { TOTP } from 'otpauth';
import { AccountStore } from '../../src/idp/accounts/account-store';
import { FactorStore } from '../../src/idp/accounts/factor-store';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import { Browser, BrowserResponse } from '../support/browser';
import {
  SigninDriver,
  errorSummary,
  noticeText,
  signinText,
  stepTitle,
} from '../support/signin-steps';
import { useTestApp } from '../support/test-app';

/**
 * Issue 15 item 3, codes and TOTP cannot be guessed, as an attacker would try over HTTP with a cookie
 * jar (the real app, its embedded IdP, real SQLite). The attacker guesses; only the owner's side of a
 * test reads the outbox (their mailbox) or the authenticator. OWASP ASVS 5.0 6.3.1 and 6.6.3.
 *
 * Wrong codes count per account and purpose across resends, at most 10 an hour; past that the factor
 * or the recovery is locked for a while (the right code included) and the collector is told so, in
 * their language. Wrong TOTP codes count the same way. At most 5 codes are sent an hour.
 */

const LONG = 60_000;
const ATTACKER_PASSWORD = 'Att4cker!owns-it';
const TOTP_SECRET = 'KRSXG5CTMVRXEZLUKN2XAZLSKRSXG5CT';

const title = (step: string, locale = 'en-US'): string => signinText(locale, `steps.${step}.title`);

/** A code that is not `code` (its last digit changed). */
const wrongCode = (code: string): string =>
  `${code.slice(0, 5)}${(Number(code.slice(5)) + 1) % 10}`;

/** The message `errors.key` (or `notices.key`) in `locale`, whatever number of minutes it names. */
function message(locale: string, key: string): RegExp {
  const [before = '', after = ''] = signinText(locale, key, { minutes: '\u0000' }).split('\u0000');
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${escape(before)}\\d+${escape(after)}`);
}

function withLang(page: BrowserResponse, lang: string): string {
  const url = new URL(page.url);
  url.search = `?lang=${lang}`;
  return url.href;
}

const t = useTestApp();
let idp: SigninDriver;

beforeAll(async () => {
  idp = await SigninDriver.for(t);
}, 30_000);

async function newCollector(): Promise<{ id: string; email: string }> {
  const email = `guess-${randomUUID()}@example.com`;
  const account = await t.app.get(AccountStore).createAccount({
    email,
    password: DEMO_PASSWORD,
    locale: 'en-US',
    givenName: 'Gale',
    familyName: 'Guessed',
    acceptedTerms: true,
    flags: { emailVerified: true },
  });
  return { id: account.id, email };
}

/** EmailCheck → EnterPassword → Forgot password → the address → VerifyRecoveryCode. */
async function toRecoveryCode(browser: Browser, email: string): Promise<BrowserResponse> {
  const { page } = await idp.begin(browser);
  const password = await idp.next(browser, page, { email });
  const forgot = await idp.next(browser, password, {}, 'forgot');
  return idp.next(browser, forgot, { email });
}

async function recoveryMessages(email: string): Promise<number> {
  return (await idp.outbox(email)).filter((m) => m.purpose === 'recover-password').length;
}

describe('attack: guessing emailed codes across resends (issue 15 item 3)', () => {
  it(
    'a resend does not reset the count: ten wrong recovery codes an hour lock the recovery, the right code included',
    async () => {
      const { email } = await newCollector();
      const attacker = new Browser();
      let page = await toRecoveryCode(attacker, email);
      expect(stepTitle(page)).toBe(title('VerifyRecoveryCode'));

      // Ten wrong guesses over three codes (a resend before each runs out of its own five tries):
      // each code alone was tried fewer than five times.
      const rounds = [5, 4, 1];
      for (const [round, guesses] of rounds.entries()) {
        if (round > 0) page = await idp.next(attacker, page, {}, 'resend');
        const code = await idp.codeFromOutbox(email, 'recover-password');
        for (let i = 0; i < guesses; i++) {
          const wrong = await idp.step(attacker, page, { code: wrongCode(code) });
          expect(wrong.page.status).toBe(400);
        }
      }

      // The owner's right code (from the mailbox, tried once so far) no longer opens the recovery...
      const right = await idp.codeFromOutbox(email, 'recover-password');
      const refused = await idp.step(attacker, page, { code: right });
      expect(refused.callback).toBeUndefined();
      expect(refused.page.status).toBe(400);
      expect(stepTitle(refused.page)).not.toBe(title('ResetPassword'));
      expect(stepTitle(await idp.current(attacker, page))).toBe(title('VerifyRecoveryCode'));
      expect(errorSummary(refused.page)).toMatch(message('en-US', 'errors.codeLocked'));
      // ...and the collector is told so in their language.
      for (const locale of ['fr-CA', 'ja-JP', 'en-CA']) {
        const localized = await attacker.get(withLang(page, locale));
        const again = await idp.step(attacker, localized, { code: right });
        expect(errorSummary(again.page)).toMatch(message(locale, 'errors.codeLocked'));
      }

      // No code is sent while the recovery is locked: not on a resend, not to a new browser.
      const sent = await recoveryMessages(email);
      const resend = await idp.step(attacker, page, {}, 'resend');
      expect(resend.page.status).toBe(400);
      expect(errorSummary(resend.page)).toMatch(message('en-US', 'errors.codeLocked'));
      const fresh = await toRecoveryCode(new Browser(), email);
      expect(noticeText(fresh)).toMatch(message('en-US', 'notices.codeLocked'));
      expect(await recoveryMessages(email)).toBe(sent);
    },
    LONG,
  );

  it(
    'registering the address again does not buy new guesses at its verification code',
    async () => {
      const email = `victim-${randomUUID()}@example.com`;
      const attacker = new Browser();
      const register = async (start: BrowserResponse) => {
        const create = await idp.next(attacker, start, { email });
        expect(stepTitle(create)).toBe(title('CreateAccount'));
        return idp.next(attacker, create, {
          givenName: 'Mallory',
          familyName: 'Squatter',
          newPassword: ATTACKER_PASSWORD,
          acceptTerms: 'true',
        });
      };
      const { page: first } = await idp.begin(attacker);
      let verify = await register(first);
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 5; i++) {
          const guess = String(100000 + round * 10 + i);
          expect((await idp.step(attacker, verify, { code: guess })).page.status).toBe(400);
        }
        // Back to EmailCheck and a second registration of the same address: a new code...
        if (round === 0) verify = await register(await idp.next(attacker, verify, {}, 'back'));
      }
      // ...but not a new budget: even the code in the victim's mailbox is refused now.
      const right = await idp.codeFromOutbox(email, 'verify-email');
      const refused = await idp.step(attacker, verify, { code: right });
      expect(refused.callback).toBeUndefined();
      expect(refused.page.status).toBe(400);
      expect(errorSummary(refused.page)).toMatch(message('en-US', 'errors.codeLocked'));
    },
    LONG,
  );

  it(
    'resends are limited: the sixth code of an hour is not sent, and the collector is told',
    async () => {
      const { email } = await newCollector();
      const browser = new Browser();
      let page = await toRecoveryCode(browser, email);
      for (let resend = 1; resend <= 4; resend++)
        page = await idp.next(browser, page, {}, 'resend');
      expect(await recoveryMessages(email)).toBe(5);

      const sixth = await idp.step(browser, page, {}, 'resend');
      expect(sixth.page.status).toBe(400);
      expect(errorSummary(sixth.page)).toMatch(message('en-US', 'errors.tooManyCodesSent'));
      // Starting over does not send one either.
      const fresh = await toRecoveryCode(new Browser(), email);
      expect(noticeText(fresh)).toMatch(message('en-US', 'notices.tooManyCodesSent'));
      expect(await recoveryMessages(email)).toBe(5);
      // The codes already sent still work: the limit is on sending, not on the owner.
      const code = await idp.codeFromOutbox(email, 'recover-password');
      expect(stepTitle(await idp.next(browser, page, { code }))).toBe(title('ResetPassword'));
    },
    LONG,
  );
});

describe('attack: guessing an authenticator app’s codes with a stolen password (issue 15 item 3)', () => {
  it(
    'wrong TOTP codes count: ten an hour lock the factor, the right code included, in every browser',
    async () => {
      const { id, email } = await newCollector();
      const factors = t.app.get(FactorStore);
      const enrolment = await factors.startEnrolment(id, 'totp', { email, secret: TOTP_SECRET });
      const totp = new TOTP({ secret: TOTP_SECRET });
      await factors.confirmEnrolment(id, enrolment.factor.id, totp.generate());

      const attacker = new Browser();
      const { page: first } = await idp.begin(attacker);
      const password = await idp.next(attacker, first, { email });
      const factor = await idp.next(attacker, password, { password: DEMO_PASSWORD });
      expect(stepTitle(factor)).toBe(title('VerifyFactor'));
      // The enrolment used the current time step; the owner's next code is the next step's.
      const right = totp.generate({ timestamp: Date.now() + 30_000 });
      const guesses = Array.from({ length: 11 }, (_, i) => String(200000 + i)).filter(
        (guess) => guess !== right,
      );
      for (const guess of guesses.slice(0, 10))
        expect((await idp.step(attacker, factor, { code: guess })).page.status).toBe(400);

      const refused = await idp.step(attacker, factor, { code: right });
      expect(refused.callback).toBeUndefined();
      expect(refused.page.status).toBe(400);
      expect(errorSummary(refused.page)).toMatch(message('en-US', 'errors.codeLocked'));
      const french = await attacker.get(withLang(factor, 'fr-CA'));
      expect(errorSummary((await idp.step(attacker, french, { code: right })).page)).toMatch(
        message('fr-CA', 'errors.codeLocked'),
      );

      // A new sign-in does not start the count again: the factor stays locked.
      const other = new Browser();
      const { page: again } = await idp.begin(other);
      const otherPassword = await idp.next(other, again, { email });
      const otherFactor = await idp.next(other, otherPassword, { password: DEMO_PASSWORD });
      const stillRefused = await idp.step(other, otherFactor, { code: right });
      expect(stillRefused.callback).toBeUndefined();
      expect(errorSummary(stillRefused.page)).toMatch(message('en-US', 'errors.codeLocked'));
    },
    LONG,
  );
});
