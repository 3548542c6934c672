import Database from 'better-sqlite3';
import { createHash, randomUUID } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  CODE_PURPOSES,
  CODE_TTL_MS,
  CodeCheck,
  MAX_CODE_ATTEMPTS,
  OneTimeCodes,
} from './one-time-codes';

const file = path.join(os.tmpdir(), `codes-${randomUUID()}.sqlite`);
let now = 1_700_000_000_000;
const clock = (): number => now;
let db: Database.Database;
let codes: OneTimeCodes;

let counter = 0;
const newSubject = (): string => `u-code-test-${++counter}`;

/** A 6-digit code that is surely not `code`. */
const otherThan = (code: string): string => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

beforeAll(() => {
  db = new Database(file);
  codes = new OneTimeCodes(db, clock);
  codes.migrate();
  codes.migrate(); // idempotent
});

afterAll(() => {
  db.close();
});

describe(OneTimeCodes.name, () => {
  it('issues 6-digit codes and stores only a keyed hash of them', async () => {
    const subject = newSubject();
    const code = await codes.issue(subject, 'verify-email');
    expect(code).toMatch(/^[0-9]{6}$/);
    const rows = db.prepare('SELECT * FROM one_time_codes WHERE subject = ?').all(subject);
    expect(rows).toEqual([
      {
        subject,
        purpose: 'verify-email',
        salt: expect.any(Buffer),
        code_hash: expect.any(Buffer),
        expires_at: now + CODE_TTL_MS,
        attempts: 0,
        created_at: now,
      },
    ]);
    const { code_hash: stored } = rows[0] as { code_hash: Buffer };
    expect(stored).toHaveLength(32);
    expect(stored.equals(createHash('sha256').update(code).digest())).toBe(false);
  });

  it('accepts the code once: a replay answers missing', async () => {
    const subject = newSubject();
    const code = await codes.issue(subject, 'recover-password');
    expect(await codes.check(subject, 'recover-password', code)).toBe('ok');
    expect(await codes.check(subject, 'recover-password', code)).toBe('missing');
  });

  // §4 VerifyEmailCode and friends: time since issue, answer to the right code.
  const lifetimes: ReadonlyArray<readonly [number, CodeCheck]> = [
    [0, 'ok'],
    [CODE_TTL_MS - 1, 'ok'],
    [CODE_TTL_MS, 'expired'],
    [3 * CODE_TTL_MS, 'expired'],
  ];
  for (const [elapsed, expected] of lifetimes) {
    it(`answers ${expected} to the right code ${elapsed} ms after it was issued`, async () => {
      const subject = newSubject();
      const code = await codes.issue(subject, 'unlock-account');
      now += elapsed;
      expect(await codes.check(subject, 'unlock-account', code)).toBe(expected);
    });
  }

  it('locks after 5 wrong attempts, even for the right code, until a new one is issued', async () => {
    const subject = newSubject();
    const code = await codes.issue(subject, 'mfa-sms');
    for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt++) {
      expect(await codes.check(subject, 'mfa-sms', otherThan(code))).toBe('invalid');
    }
    expect(await codes.check(subject, 'mfa-sms', code)).toBe('too-many-attempts');
    const fresh = await codes.issue(subject, 'mfa-sms');
    expect(await codes.check(subject, 'mfa-sms', fresh)).toBe('ok');
  });

  it('accepts the right code after 4 wrong ones', async () => {
    const subject = newSubject();
    const code = await codes.issue(subject, 'mfa-sms');
    for (let attempt = 1; attempt < MAX_CODE_ATTEMPTS; attempt++) {
      await codes.check(subject, 'mfa-sms', otherThan(code));
    }
    expect(await codes.check(subject, 'mfa-sms', code)).toBe('ok');
  });

  // Malformed input, as a table: each answers invalid and counts as an attempt.
  const malformed: readonly string[] = [
    '',
    '12345',
    '1234567',
    'abcdef',
    ' 123456',
    '12345 ',
    '１２３４５６',
    '12 345',
  ];
  it(`answers invalid for malformed input and counts it: ${malformed.map((m) => JSON.stringify(m)).join(' ')}`, async () => {
    const subject = newSubject();
    const code = await codes.issue(subject, 'enrol-email');
    const answers: CodeCheck[] = [];
    for (const input of malformed) answers.push(await codes.check(subject, 'enrol-email', input));
    expect(answers.slice(0, MAX_CODE_ATTEMPTS)).toEqual(Array(MAX_CODE_ATTEMPTS).fill('invalid'));
    expect(answers.slice(MAX_CODE_ATTEMPTS)).toEqual(
      Array(malformed.length - MAX_CODE_ATTEMPTS).fill('too-many-attempts'),
    );
    expect(await codes.check(subject, 'enrol-email', code)).toBe('too-many-attempts');
  });

  it('replaces the previous code of the same subject and purpose, and resets its attempts', async () => {
    const subject = newSubject();
    const first = await codes.issue(subject, 'verify-email');
    await codes.check(subject, 'verify-email', otherThan(first));
    let second = await codes.issue(subject, 'verify-email');
    while (second === first) second = await codes.issue(subject, 'verify-email');
    expect(await codes.check(subject, 'verify-email', first)).toBe('invalid');
    const row = db
      .prepare('SELECT attempts FROM one_time_codes WHERE subject = ? AND purpose = ?')
      .get(subject, 'verify-email');
    expect(row).toEqual({ attempts: 1 });
    expect(await codes.check(subject, 'verify-email', second)).toBe('ok');
  });

  it('keeps purposes and subjects apart', async () => {
    const subject = newSubject();
    const code = await codes.issue(subject, 'enrol-sms');
    for (const purpose of CODE_PURPOSES.filter((p) => p !== 'enrol-sms')) {
      expect(await codes.check(subject, purpose, code)).toBe('missing');
    }
    expect(await codes.check(newSubject(), 'enrol-sms', code)).toBe('missing');
    expect(await codes.check(subject, 'enrol-sms', code)).toBe('ok');
  });

  it('cannot be reused by moving the stored hash to another subject', async () => {
    const victim = newSubject();
    const attacker = newSubject();
    const attackerCode = await codes.issue(attacker, 'recover-password');
    await codes.issue(victim, 'recover-password');
    db.prepare(
      `UPDATE one_time_codes SET (salt, code_hash) =
         (SELECT salt, code_hash FROM one_time_codes WHERE subject = ? AND purpose = 'recover-password')
       WHERE subject = ? AND purpose = 'recover-password'`,
    ).run(attacker, victim);
    expect(await codes.check(victim, 'recover-password', attackerCode)).toBe('invalid');
  });

  it('counts attempts in the database: they survive a restart', async () => {
    const subject = newSubject();
    const code = await codes.issue(subject, 'unlock-account');
    for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt++) {
      await codes.check(subject, 'unlock-account', otherThan(code));
    }
    const reopened = new Database(file);
    try {
      const restarted = new OneTimeCodes(reopened, clock);
      restarted.migrate();
      expect(await restarted.check(subject, 'unlock-account', code)).toBe('too-many-attempts');
    } finally {
      reopened.close();
    }
  });

  it('needs the same pepper to check a code', async () => {
    const subject = newSubject();
    const peppered = new OneTimeCodes(db, clock, 'a server-side secret');
    const code = await peppered.issue(subject, 'verify-email');
    expect(await codes.check(subject, 'verify-email', code)).toBe('invalid');
    expect(await peppered.check(subject, 'verify-email', code)).toBe('ok');
  });

  it('purges expired codes', async () => {
    const subject = newSubject();
    await codes.issue(subject, 'verify-email');
    now += CODE_TTL_MS;
    expect(await codes.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await codes.check(subject, 'verify-email', '000000')).toBe('missing');
  });
});
