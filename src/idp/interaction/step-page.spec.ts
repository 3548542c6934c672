import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { LOCALES_DIR } from '../../config/project-paths';
import { DEVELOPER_SERVICE_BASES } from '../../shared/environment';
import { LOCALES, type Locale, NAMESPACES } from '../../shared/locale';
import { createTranslate, type Translate } from '../../shared/translate';
import { DEMO_PASSWORD, seedDemoUsers } from '../demo-users';
import { AccountStore, LOCKOUT_THRESHOLD } from '../accounts/account-store';
import { CodeLimits } from '../accounts/code-limits';
import { FactorStore } from '../accounts/factor-store';
import { OneTimeCodes } from '../accounts/one-time-codes';
import type { FlowData } from './flow-records';
import { SigninSteps } from './signin-steps';
import { signinMessage, stepPage } from './step-page';

// Real scrypt at production parameters (150-240 ms of CPU a hash, several a test), on cores the
// browser and integration tiers share in `npm test`: Jest's 5 s default is too tight under load.
jest.setTimeout(30_000);

const PASSWORD = 'Corr3ct!horse';

function translateFor(locale: Locale): Translate {
  const messages = Object.fromEntries(
    NAMESPACES.map((ns) => [
      ns,
      JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, locale, `${ns}.json`), 'utf8')) as unknown,
    ]),
  );
  return createTranslate(messages);
}

/** The visible text of rendered markup, roughly as a browser's innerText joins it. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

let db: Database.Database;
let accounts: AccountStore;
let factors: FactorStore;
let steps: SigninSteps;

beforeAll(async () => {
  db = new Database(':memory:');
  accounts = new AccountStore(db);
  factors = new FactorStore(db);
  const codes = new OneTimeCodes(db);
  const limits = new CodeLimits(db);
  for (const store of [accounts, factors, codes, limits]) store.migrate();
  steps = new SigninSteps({
    accounts,
    factors,
    codes,
    limits,
    sender: { send: () => Promise.resolve() },
    signOut: { everywhere: () => Promise.resolve() },
  });
  await seedDemoUsers(accounts, factors);
});
afterAll(() => db.close());

let counter = 0;
async function flowAtPassword(): Promise<FlowData> {
  const email = `step-page-${++counter}@example.com`;
  const account = await accounts.createAccount({
    email,
    password: PASSWORD,
    locale: 'en-US',
    acceptedTerms: true,
    flags: { emailVerified: true },
  });
  return { state: 'EnterPassword', csrf: 'token', email, accountId: account.id };
}

/** The EnterPassword page after `wrong` wrong passwords, as the step handler answers the last one. */
async function afterWrongPasswords(locale: Locale, wrong: number): Promise<string> {
  const data = await flowAtPassword();
  const t = translateFor(locale);
  let outcome;
  for (let i = 0; i < wrong; i++) {
    outcome = await steps.handle({
      stepKey: 'EnterPassword',
      action: 'submit',
      form: { password: `Wrong-passw0rd!${i}` },
      data,
      locale,
      t,
    });
  }
  if (outcome?.kind !== 'invalid') throw new Error(`expected an error, got ${outcome?.kind}`);
  return render('EnterPassword', data, locale, outcome.errors);
}

function render(
  stepKey: string,
  data: FlowData,
  locale: Locale,
  errors?: Parameters<typeof stepPage>[0]['errors'],
): string {
  const page = stepPage({
    stepKey,
    data,
    frame: {
      brand: 'collectors',
      locale,
      env: 'local',
      services: DEVELOPER_SERVICE_BASES,
      currentPath: '/idp/signin/x',
      year: 2025,
    },
    t: translateFor(locale),
    formAction: '/idp/signin/x',
    termsUrl: 'https://example.com/terms',
    ...(errors ? { errors } : {}),
  });
  return renderToStaticMarkup(page.body);
}

/** The flow data after a right password, as the step handler leaves it for the next step. */
async function afterRightPassword(email: string): Promise<FlowData> {
  const account = await accounts.findByEmail(email);
  if (!account) throw new Error(`no account ${email}`);
  const data: FlowData = { state: 'EnterPassword', csrf: 'token', email, accountId: account.id };
  const outcome = await steps.handle({
    stepKey: 'EnterPassword',
    action: 'submit',
    form: { password: DEMO_PASSWORD },
    data,
    locale: 'en-US',
    t: translateFor('en-US'),
  });
  if (outcome.kind !== 'event') throw new Error(`expected an event, got ${outcome.kind}`);
  return { ...data, ...outcome.patch };
}

const between = (html: string, open: RegExp, close: string) => {
  const start = html.search(open);
  return start < 0 ? '' : html.slice(start, html.indexOf(close, start) + close.length);
};

describe('a wrong password (issue 33 item 1)', () => {
  it.each(LOCALES)('%s: says how many attempts are left, once, with no placeholder', async (l) => {
    const html = await afterWrongPasswords(l, 1);
    const fieldError = textOf(between(html, /<p id="field-password-error"/, '</p>'));
    expect(fieldError).toBe(
      signinMessage(translateFor(l), l, 'errors.wrongPassword', {
        attemptsLeft: String(LOCKOUT_THRESHOLD - 1),
      }),
    );
    expect(fieldError).toContain(String(LOCKOUT_THRESHOLD - 1));
    // Said once, next to the field: a form of one field has no summary to repeat it.
    expect(html).not.toContain('class="error-summary"');
    expect(html.split(fieldError)).toHaveLength(2);
    expect(textOf(html)).not.toMatch(/\{[a-zA-Z]+\}/);
  });

  it.each([
    ['en-US', 1, '1 attempt left before'],
    ['en-US', 2, '2 attempts left before'],
    ['en-CA', 1, '1 attempt left before'],
    ['fr-CA', 1, 'Il vous reste 1 tentative avant'],
    ['fr-CA', 2, 'Il vous reste 2 tentatives avant'],
    ['ja-JP', 2, 'あと2回'],
    ['ja-JP', 1, 'あと1回'],
  ] as const)('%s, %i attempt(s) left: “%s”', async (locale, attemptsLeft, words) => {
    const html = await afterWrongPasswords(locale, LOCKOUT_THRESHOLD - attemptsLeft);
    expect(textOf(between(html, /<p id="field-password-error"/, '</p>'))).toContain(words);
  });
});

describe(signinMessage.name, () => {
  // French counts 0 and 1 as singular (CLDR), English only 1, Japanese never changes the word.
  it.each([
    ['en-US', 0, '0 minutes'],
    ['en-US', 1, '1 minute.'],
    ['en-US', 15, '15 minutes'],
    ['fr-CA', 0, '0 minute.'],
    ['fr-CA', 1, '1 minute.'],
    ['fr-CA', 2, '2 minutes'],
    ['ja-JP', 1, '1分間'],
    ['ja-JP', 15, '15分間'],
  ] as const)('%s, %i: “%s”', (locale, minutes, words) => {
    const text = signinMessage(translateFor(locale), locale, 'notices.codeLocked', {
      minutes: String(minutes),
    });
    expect(text).toContain(words);
  });

  it('leaves messages without a count as they are', () => {
    const t = translateFor('en-US');
    expect(signinMessage(t, 'en-US', 'notices.codeSent', { destination: 'a@example.com' })).toBe(
      'We sent a code to a@example.com.',
    );
  });
});

describe('the second-factor step (issue 33 item 2)', () => {
  const resendButton = /<button [^>]*value="resend"/;

  it('offers no new code for an authenticator app, which makes its own', async () => {
    const data = await afterRightPassword('totp@example.com');
    expect(data.factor).toBe('totp');
    const html = render('VerifyFactor', data, 'en-US');
    expect(html).not.toMatch(resendButton);
    expect(html).toContain('value="submit"');
  });

  it('offers a new code for a factor that sends one (email)', async () => {
    const email = 'step-page-email-factor@example.com';
    const account = await accounts.createAccount({
      email,
      password: DEMO_PASSWORD,
      locale: 'en-US',
      acceptedTerms: true,
      flags: { emailVerified: true },
    });
    const enrolment = await factors.startEnrolment(account.id, 'email', { email });
    await factors.confirmEnrolment(account.id, enrolment.factor.id);
    const data = await afterRightPassword(email);
    expect(data.factor).toBe('email');
    expect(render('VerifyFactor', data, 'en-US')).toMatch(resendButton);
  });
});

describe('a second factor set up after an authenticator app was left with Back (issue 33)', () => {
  /** Chooses `factor` on the set-up's method choice, as the step handler answers it. */
  async function choose(data: FlowData, factor: string): Promise<FlowData> {
    const outcome = await steps.handle({
      stepKey: 'SetupMfa.ChooseVerifyFactor',
      action: 'submit',
      form: { factor },
      data,
      locale: 'en-US',
      t: translateFor('en-US'),
    });
    if (outcome.kind !== 'event') throw new Error(`expected an event, got ${outcome.kind}`);
    return { ...data, ...outcome.patch };
  }

  it.each(['sms', 'email'])(
    '%s: its code page shows no QR code or key of the abandoned app',
    async (factor) => {
      const start = { ...(await flowAtPassword()), state: 'SetupMfa.ChooseVerifyFactor' };
      const app = await choose(start, 'totp');
      // The app's own page does show them: the check below can fail.
      expect(render('SetupMfa.VerifyNewFactor', app, 'en-US')).toContain('class="totp"');
      let data = await choose(app, factor);
      if (factor === 'sms') {
        const outcome = await steps.handle({
          stepKey: 'SetupMfa.SetupPhone',
          action: 'submit',
          form: { phone: '+15555550123' },
          data,
          locale: 'en-US',
          t: translateFor('en-US'),
        });
        if (outcome.kind !== 'event') throw new Error(`expected an event, got ${outcome.kind}`);
        data = { ...data, ...outcome.patch };
      }
      const html = render('SetupMfa.VerifyNewFactor', data, 'en-US');
      expect(html).not.toContain('class="totp"');
      expect(html).not.toContain(app.totp?.secret ?? 'no secret');
    },
  );
});

describe('the password step (issue 33 item 3)', () => {
  it.each(LOCALES)('%s: names the email address signing in', async (locale) => {
    const data = await flowAtPassword();
    const html = render('EnterPassword', data, locale);
    const account = between(html, /<p class="signin-account"/, '</p>');
    expect(textOf(account)).toBe(
      `${translateFor(locale)('common.signin.signingInAs')} ${data.email ?? ''}`,
    );
    // And the way back to enter another one.
    expect(html).toContain('value="back"');
  });
});

describe('the code steps say where the code comes from', () => {
  const data = (factor: FlowData['factor']): FlowData => ({
    state: 'x',
    csrf: 'token',
    email: 'a@example.com',
    ...(factor ? { factor } : {}),
  });
  const introOf = (html: string) => textOf(between(html, /<p class="intro"/, '</p>'));

  it.each([
    ['VerifyFactor', 'totp', 'guide.totpCode'],
    ['VerifyFactor', 'email', 'steps.VerifyFactor.intro'],
    ['VerifyFactor', 'sms', 'steps.VerifyFactor.intro'],
    ['SetupMfa.VerifyCurrentFactor', 'totp', 'guide.totpCurrentCode'],
    ['SetupMfa.VerifyCurrentFactor', 'sms', 'steps.SetupMfa.VerifyCurrentFactor.intro'],
    ['SetupMfa.VerifyNewFactor', 'totp', 'guide.totpScan'],
    ['SetupMfa.VerifyNewFactor', 'email', 'steps.SetupMfa.VerifyNewFactor.intro'],
  ] as const)('%s with %s: %s', (stepKey, factor, key) => {
    for (const locale of LOCALES) {
      const html = render(stepKey, data(factor), locale);
      const expected = translateFor(locale)(`common.signin.${key}`);
      expect({ locale, intro: introOf(html) }).toEqual({ locale, intro: expected });
    }
  });
});
