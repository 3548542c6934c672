import Database from 'better-sqlite3';
import { SqliteStore } from '../../common/sqlite-store';
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * What a code proves (§4 VerifyEmailCode, password recovery, account unlock, VerifyFactor by email or
 * SMS, VerifyNewFactor). A code issued for one purpose never answers for another.
 */
export const CODE_PURPOSES = [
  'verify-email',
  'recover-password',
  'unlock-account',
  'mfa-email',
  'mfa-sms',
  'enrol-sms',
  'enrol-email',
] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

export type CodeCheck = 'ok' | 'invalid' | 'expired' | 'too-many-attempts' | 'missing';

/** A code lives 10 minutes: long enough to open an email, short enough to bound guessing. */
export const CODE_TTL_MS = 10 * 60 * 1000;

/** Wrong guesses allowed per code. 5 tries at 1 in a million each: the odds stay negligible. */
export const MAX_CODE_ATTEMPTS = 5;

const CODE_DIGITS = 6;
const CODE_FORMAT = /^[0-9]{6}$/;

interface CodeRow {
  salt: Buffer;
  code_hash: Buffer;
  expires_at: number;
  attempts: number;
}

/**
 * Six-digit codes sent by email or SMS, in the caller's SQLite database. A code is stored only as
 * HMAC-SHA256 over a per-code random salt, the subject, the purpose and the code, so reading the
 * table (a backup, a support query) shows no usable code. Honest limit: a million candidates are
 * quick to try offline, so the real protection is the 10-minute life and the 5 attempts; pass a
 * server-side `pepper` (kept outside the database) as the HMAC key to close that gap too. The 5
 * attempts are per code, and a new code starts them again: the wrong codes of all codes of one
 * account and purpose, and the codes sent, are limited per hour by CodeLimits (code-limits.ts).
 */
export class OneTimeCodes extends SqliteStore {
  private readonly key: Buffer;

  constructor(db: Database.Database, now: () => number = Date.now, pepper?: string | Buffer) {
    super(db, now);
    this.key = pepper === undefined ? Buffer.alloc(0) : Buffer.from(pepper);
  }

  migrate(): void {
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS one_time_codes (
         subject TEXT NOT NULL,
         purpose TEXT NOT NULL,
         salt BLOB NOT NULL,
         code_hash BLOB NOT NULL,
         expires_at INTEGER NOT NULL,
         attempts INTEGER NOT NULL DEFAULT 0,
         created_at INTEGER NOT NULL,
         PRIMARY KEY (subject, purpose)
       ) WITHOUT ROWID;
       CREATE INDEX IF NOT EXISTS one_time_codes_expires_at ON one_time_codes (expires_at);`,
    );
  }

  /**
   * A fresh code for the subject (an account id) and purpose; any earlier one for the same pair is
   * replaced, so only the latest email works. crypto.randomInt, never Math.random.
   */
  issue(subject: string, purpose: CodePurpose): Promise<string> {
    return this.run(() => {
      const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
      const salt = randomBytes(16);
      const now = this.now();
      this.statement(
        `INSERT INTO one_time_codes (subject, purpose, salt, code_hash, expires_at, attempts, created_at)
         VALUES (@subject, @purpose, @salt, @hash, @expiresAt, 0, @now)
         ON CONFLICT (subject, purpose) DO UPDATE SET salt = excluded.salt,
           code_hash = excluded.code_hash, expires_at = excluded.expires_at, attempts = 0,
           created_at = excluded.created_at`,
      ).run({
        subject,
        purpose,
        salt,
        hash: this.hash(salt, subject, purpose, code),
        expiresAt: now + CODE_TTL_MS,
        now,
      });
      return code;
    });
  }

  /**
   * 'ok' consumes the code (single use: asking again answers 'missing'). Every other try counts as
   * an attempt, malformed input included (it must be exactly 6 ASCII digits); after
   * MAX_CODE_ATTEMPTS wrong tries even the right code answers 'too-many-attempts' until a new one
   * is issued. The comparison is constant-time. One transaction, so racing tries each count.
   */
  check(subject: string, purpose: CodePurpose, code: string): Promise<CodeCheck> {
    return this.run(
      this.db.transaction((): CodeCheck => {
        const row = this.statement(
          `SELECT salt, code_hash, expires_at, attempts FROM one_time_codes
           WHERE subject = ? AND purpose = ?`,
        ).get(subject, purpose) as CodeRow | undefined;
        if (!row) return 'missing';
        if (this.now() >= row.expires_at) return 'expired';
        if (row.attempts >= MAX_CODE_ATTEMPTS) return 'too-many-attempts';
        const expected = row.code_hash;
        const matches =
          CODE_FORMAT.test(code) &&
          expected.length === 32 &&
          timingSafeEqual(this.hash(row.salt, subject, purpose, code), expected);
        if (matches) {
          this.statement('DELETE FROM one_time_codes WHERE subject = ? AND purpose = ?').run(
            subject,
            purpose,
          );
          return 'ok';
        }
        this.statement(
          'UPDATE one_time_codes SET attempts = attempts + 1 WHERE subject = ? AND purpose = ?',
        ).run(subject, purpose);
        return 'invalid';
      }),
    );
  }

  /** Drops expired codes; reads ignore them anyway, this only keeps the table small. */
  purgeExpired(): Promise<number> {
    return this.run(
      () =>
        this.statement('DELETE FROM one_time_codes WHERE expires_at <= ?').run(this.now()).changes,
    );
  }

  /** Subject and purpose are in the MAC, so a stored hash cannot be moved to another row. */
  private hash(salt: Buffer, subject: string, purpose: CodePurpose, code: string): Buffer {
    return createHmac('sha256', this.key)
      .update(salt)
      .update(JSON.stringify([subject, purpose, code]))
      .digest();
  }
}
