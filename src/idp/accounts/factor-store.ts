import Database from 'better-sqlite3';
import { SqliteStore } from '../../common/sqlite-store';
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * The QR code of an otpauth URI as SVG. qrcode (with pngjs, 57 modules) loads on the first TOTP
 * enrolment rather than at start: a start with existing data enrols nobody (issue 18 item 4).
 */
async function qrSvg(otpauthUri: string): Promise<string> {
  const QRCode = await import('qrcode');
  return QRCode.toString(otpauthUri, { type: 'svg' });
}

/** §4 Second-factor setup and ChooseVerifyFactor: the factor kinds a collector can have. */
export const FACTOR_TYPES = ['totp', 'email', 'sms'] as const;
export type FactorType = (typeof FACTOR_TYPES)[number];

/** A second factor as the rest of the service sees it: the TOTP secret never leaves this file. */
export interface Factor {
  readonly id: string;
  readonly accountId: string;
  readonly type: FactorType;
  /** E.164 number for sms, else null. */
  readonly phone: string | null;
  readonly verified: boolean;
  readonly createdAt: number;
  /** TOTP: the last time step accepted, so no code is accepted twice (RFC 6238 §5.2). */
  readonly lastUsedStep: number | null;
}

/** What an authenticator app needs, shown once on the SetupMfa screen and never again. */
export interface TotpEnrolment {
  /** Base32, for typing in by hand. */
  readonly secret: string;
  readonly otpauthUri: string;
  /** The otpauth URI as a QR code, an SVG document. */
  readonly qrSvg: string;
}

export interface Enrolment {
  readonly factor: Factor;
  readonly totp?: TotpEnrolment;
}

/**
 * The settings every authenticator app understands (Google Authenticator ignores anything else):
 * SHA1, 6 digits, 30 s. One step either side is accepted for clock drift (RFC 6238 §5.2).
 */
export const TOTP_SETTINGS = {
  issuer: 'Collectors',
  algorithm: 'SHA1',
  digits: 6,
  period: 30,
  window: 1,
  secretBytes: 20,
} as const;

/**
 * E.164: '+', a country code that does not start with 0, 8 to 15 digits in all, no separators. The
 * caller strips spaces and dashes before; we refuse rather than guess.
 */
const E164 = /^\+[1-9][0-9]{7,14}$/;

export type FactorErrorCode = 'invalid-phone' | 'email-required' | 'invalid-code' | 'not-found';

const ERROR_MESSAGES: Readonly<Record<FactorErrorCode, string>> = {
  'invalid-phone': 'The phone number must be in international format (+ and 8 to 15 digits)',
  'email-required': 'An authenticator enrolment needs the account email as its label',
  'invalid-code': 'The code is not valid',
  'not-found': 'No such factor enrolment',
};

export class FactorError extends Error {
  constructor(readonly code: FactorErrorCode) {
    super(ERROR_MESSAGES[code]);
    this.name = 'FactorError';
  }
}

interface FactorRow {
  id: string;
  account_id: string;
  type: FactorType;
  phone: string | null;
  verified: number;
  created_at: number;
  last_used_step: number | null;
}

/** Every column except totp_secret, so no query that builds a Factor can read the secret. */
const FACTOR_COLUMNS = 'id, account_id, type, phone, verified, created_at, last_used_step';

function toFactor(row: FactorRow): Factor {
  return {
    id: row.id,
    accountId: row.account_id,
    type: row.type,
    phone: row.phone,
    verified: row.verified === 1,
    createdAt: row.created_at,
    lastUsedStep: row.last_used_step,
  };
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

function newFactorId(): string {
  return 'f' + Array.from(randomBytes(20), (byte) => ID_ALPHABET[byte & 31]).join('');
}

function totpFor(secret: Secret, label = ''): TOTP {
  const { issuer, algorithm, digits, period } = TOTP_SETTINGS;
  return new TOTP({ issuer, label, algorithm, digits, period, secret });
}

/**
 * Second factors (§4 SetupMfa, VerifyFactor) in the caller's SQLite database. One verified factor per
 * type: confirming a new enrolment replaces the verified one of the same type (a new phone, a new
 * authenticator). Email and SMS factors prove possession with OneTimeCodes; this store only records
 * them. Known debt: the TOTP secret is stored unencrypted (the database file is the secret). Wrong
 * TOTP codes are not counted here: the sign-in step counts them with CodeLimits (code-limits.ts,
 * issue 15 item 3), like wrong emailed codes.
 */
export class FactorStore extends SqliteStore {
  constructor(db: Database.Database, now: () => number = Date.now) {
    super(db, now);
  }

  migrate(): void {
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS mfa_factors (
         id TEXT PRIMARY KEY,
         account_id TEXT NOT NULL,
         type TEXT NOT NULL,
         phone TEXT,
         totp_secret TEXT,
         verified INTEGER NOT NULL DEFAULT 0,
         created_at INTEGER NOT NULL,
         last_used_step INTEGER
       );
       CREATE INDEX IF NOT EXISTS mfa_factors_account ON mfa_factors (account_id, type);`,
    );
  }

  /** §4 ChooseVerifyFactor: the factors a collector may be challenged with, oldest first. */
  listVerified(accountId: string): Promise<Factor[]> {
    return this.run(() =>
      (
        this.statement(
          `SELECT ${FACTOR_COLUMNS} FROM mfa_factors
           WHERE account_id = ? AND verified = 1 ORDER BY created_at, id`,
        ).all(accountId) as FactorRow[]
      ).map(toFactor),
    );
  }

  /**
   * §4 SetupMfa / SetupPhone: starts an enrolment, replacing any unfinished one of the same type.
   * For totp the result carries the secret, its otpauth URI and a QR code, once; `email` is the
   * label the authenticator app shows. For sms, `phone` must be E.164.
   */
  async startEnrolment(
    accountId: string,
    type: FactorType,
    options: {
      phone?: string;
      email?: string;
      /** Seeding only: a known base32 secret. */ secret?: string;
    } = {},
  ): Promise<Enrolment> {
    const phone = type === 'sms' ? (options.phone ?? '') : null;
    if (phone !== null && !E164.test(phone)) throw new FactorError('invalid-phone');
    let totp: TotpEnrolment | undefined;
    if (type === 'totp') {
      if (!options.email) throw new FactorError('email-required');
      const secret = options.secret
        ? Secret.fromBase32(options.secret)
        : new Secret({ size: TOTP_SETTINGS.secretBytes });
      const otpauthUri = totpFor(secret, options.email).toString();
      totp = {
        secret: secret.base32,
        otpauthUri,
        qrSvg: await qrSvg(otpauthUri),
      };
    }
    const id = newFactorId();
    const factor = await this.run(
      this.db.transaction(() => {
        this.statement(
          'DELETE FROM mfa_factors WHERE account_id = ? AND type = ? AND verified = 0',
        ).run(accountId, type);
        this.statement(
          `INSERT INTO mfa_factors (id, account_id, type, phone, totp_secret, created_at)
           VALUES (?, ?, ?, ?, ?, ?)`,
        ).run(id, accountId, type, phone, totp?.secret ?? null, this.now());
        return this.get(id);
      }),
    );
    return totp ? { factor, totp } : { factor };
  }

  /**
   * §4 VerifyNewFactor: finishes a pending enrolment. A totp enrolment needs a current code from the
   * app (its step is then used up); email and sms enrolments are confirmed by the caller after
   * OneTimeCodes accepted the 'enrol-email' / 'enrol-sms' code, so `code` is not read for them.
   */
  confirmEnrolment(accountId: string, factorId: string, code?: string): Promise<Factor> {
    return this.run(
      this.db.transaction(() => {
        const pending = this.statement(
          `SELECT ${FACTOR_COLUMNS}, totp_secret FROM mfa_factors
           WHERE id = ? AND account_id = ? AND verified = 0`,
        ).get(factorId, accountId) as (FactorRow & { totp_secret: string | null }) | undefined;
        if (!pending) throw new FactorError('not-found');
        let step: number | null = null;
        if (pending.type === 'totp') {
          step = this.matchingStep(pending.totp_secret, code);
          if (step === null) throw new FactorError('invalid-code');
        }
        this.statement(
          'DELETE FROM mfa_factors WHERE account_id = ? AND type = ? AND verified = 1',
        ).run(accountId, pending.type);
        this.statement('UPDATE mfa_factors SET verified = 1, last_used_step = ? WHERE id = ?').run(
          step,
          factorId,
        );
        return this.get(factorId);
      }),
    );
  }

  /**
   * §4 VerifyFactor with an authenticator app: true when the code matches the current step or one
   * either side AND that step is later than the last one accepted. A replayed code, or an older one
   * after a newer, is refused; the check-and-set is one UPDATE, so two racing requests cannot both
   * win.
   */
  verifyTotp(accountId: string, code: string): Promise<boolean> {
    return this.run(() => {
      const factor = this.statement(
        `SELECT id, totp_secret FROM mfa_factors
         WHERE account_id = ? AND type = 'totp' AND verified = 1`,
      ).get(accountId) as { id: string; totp_secret: string | null } | undefined;
      if (!factor) return false;
      const step = this.matchingStep(factor.totp_secret, code);
      if (step === null) return false;
      return (
        this.statement(
          `UPDATE mfa_factors SET last_used_step = ?
           WHERE id = ? AND (last_used_step IS NULL OR last_used_step < ?)`,
        ).run(step, factor.id, step).changes === 1
      );
    });
  }

  /** Removes one of the collector's factors; false when there was no such factor of theirs. */
  remove(accountId: string, factorId: string): Promise<boolean> {
    return this.run(
      () =>
        this.statement('DELETE FROM mfa_factors WHERE id = ? AND account_id = ?').run(
          factorId,
          accountId,
        ).changes === 1,
    );
  }

  /** The time step the code belongs to (now ± window), or null. Only 6 ASCII digits are tried. */
  private matchingStep(secret: string | null, code: string | undefined): number | null {
    if (!secret || code === undefined || !/^[0-9]{6}$/.test(code)) return null;
    const timestamp = this.now();
    const delta = totpFor(Secret.fromBase32(secret)).validate({
      token: code,
      timestamp,
      window: TOTP_SETTINGS.window,
    });
    if (delta === null) return null;
    return TOTP.counter({ period: TOTP_SETTINGS.period, timestamp }) + delta;
  }

  private get(id: string): Factor {
    const row = this.statement(`SELECT ${FACTOR_COLUMNS} FROM mfa_factors WHERE id = ?`).get(id) as
      FactorRow | undefined;
    if (!row) throw new FactorError('not-found');
    return toFactor(row);
  }
}
