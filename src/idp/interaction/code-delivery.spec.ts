import Database from 'better-sqlite3';
import { AccountStore } from '../accounts/account-store';
import { CODE_LIMITS, CodeLimits } from '../accounts/code-limits';
import { FactorStore } from '../accounts/factor-store';
import { OneTimeCodes } from '../accounts/one-time-codes';
import type { OutgoingMessage } from '../outbox/message-sender';
import type { Translate } from '../../shared/translate';
import { CodeDelivery, maskDestination } from './code-delivery';
import type { FlowData } from './flow-records';
import { invalid } from './step-outcome';

/** The message key and its values, so a test can read the code out of what was sent. */
const t: Translate = (key, args) => `${key} ${JSON.stringify(args ?? {})}`;
const codeIn = (message: OutgoingMessage | undefined): string =>
  /"code":"(\d+)"/.exec(message?.text ?? '')?.[1] ?? 'none';

let db: Database.Database;
let accounts: AccountStore;
let codes: OneTimeCodes;
let sent: OutgoingMessage[];
let now: number;
let delivery: CodeDelivery;
let counter = 0;

beforeEach(() => {
  db = new Database(':memory:');
  now = Date.parse('2026-11-27T12:00:00Z');
  const clock = () => now;
  accounts = new AccountStore(db);
  const factors = new FactorStore(db);
  codes = new OneTimeCodes(db, clock);
  const limits = new CodeLimits(db, clock);
  for (const store of [accounts, factors, codes, limits]) store.migrate();
  sent = [];
  delivery = new CodeDelivery({
    accounts,
    factors,
    codes,
    limits,
    sender: { send: (message) => Promise.resolve(void sent.push(message)) },
    now: clock,
  });
});
afterEach(() => db.close());

async function account(): Promise<{ id: string; email: string }> {
  return accounts.createAccount({
    email: `delivery-${++counter}@example.com`,
    password: 'Corr3ct!horse',
    locale: 'en-US',
    acceptedTerms: true,
    flags: { emailVerified: true },
  });
}

describe('CodeDelivery (issue 15 item 3)', () => {
  it('sends a code the account can then use, in the locale asked for', async () => {
    const { id, email } = await account();
    expect(await delivery.send(id, email, 'recover-password', 'fr-CA', t)).toEqual({
      allowed: true,
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      channel: 'email',
      to: email,
      purpose: 'recover-password',
      locale: 'fr-CA',
    });
    expect(await codes.check(id, 'recover-password', codeIn(sent[0]))).toBe('ok');
  });

  it('sends at most the sends of the hour, then refuses without sending, and says for how long', async () => {
    const { id, email } = await account();
    for (let i = 0; i < CODE_LIMITS.maxSendsPerWindow; i++)
      expect((await delivery.send(id, email, 'mfa-email', 'en-US', t)).allowed).toBe(true);
    const refused = await delivery.send(id, email, 'mfa-email', 'en-US', t);
    expect(refused.allowed).toBe(false);
    expect(sent).toHaveLength(CODE_LIMITS.maxSendsPerWindow);
    expect(delivery.sentNotice(refused, email)).toEqual({
      key: 'tooManyCodesSent',
      args: { minutes: '60' },
    });
    // Another purpose has its own count.
    expect((await delivery.send(id, email, 'unlock-account', 'en-US', t)).allowed).toBe(true);
  });

  it('locks a purpose after the wrong tries of the hour: the right code is then refused too', async () => {
    const { id, email } = await account();
    const right = '246810';
    const tryCode = (code: string) =>
      delivery.tryCode('mfa-email', { accountId: id, email }, () =>
        Promise.resolve(code === right ? 'ok' : 'invalid'),
      );
    // A right try is forgiven: it does not count towards the lock.
    expect(await tryCode(right)).toBe('ok');
    for (let i = 0; i < CODE_LIMITS.maxWrongPerWindow; i++)
      expect(await tryCode('000000')).toBe('invalid');
    const refused = await tryCode(right);
    if (typeof refused === 'string') throw new Error(`the right code was checked: ${refused}`);
    expect(refused).toMatchObject({ allowed: false, reason: 'locked' });
    expect(delivery.codeRefused(refused)).toEqual(
      invalid({}, { code: 'codeLocked', args: { minutes: '60' } }),
    );
    // Another purpose is not locked by it.
    expect(
      await delivery.tryCode('unlock-account', { accountId: id, email }, () =>
        Promise.resolve('ok'),
      ),
    ).toBe('ok');
  });

  it('answers a resend with a new code to the address of the account, and refuses a step without codes', async () => {
    const { id, email } = await account();
    const data: FlowData = { state: 'VerifyRecoveryCode', csrf: 'token', accountId: id, email };
    const answer = await delivery.resend({
      stepKey: 'VerifyRecoveryCode',
      data,
      locale: 'en-US',
      t,
    });
    expect(answer).toEqual({
      kind: 'stay',
      patch: { notice: { key: 'codeSent', args: { destination: email } } },
    });
    expect(sent.map((m) => m.purpose)).toEqual(['recover-password']);
    const none = await delivery.resend({ stepKey: 'EnterPassword', data, locale: 'en-US', t });
    expect(none).toMatchObject({ kind: 'invalid' });
    expect(sent).toHaveLength(1);
  });

  it('shows enough of a phone number to recognise it, and an address whole', () => {
    expect(maskDestination('+15551234567')).toBe('+1••••••4567');
    expect(maskDestination('ada@example.com')).toBe('ada@example.com');
  });
});
