import Database from 'better-sqlite3';
import { SqliteStore } from '../../common/sqlite-store';
import { randomBytes } from 'node:crypto';
import { DEFAULT_LOCALE, LOCALES, Locale } from '../../shared/locale';
import { hashPassword, needsRehash, verifyPassword } from './password-hasher';
import { PasswordRule, checkPassword } from './password-policy';

/** §4 Sign-in flow: a wrong password this many times in a row locks the account (LOCKED_OUT). */
export const LOCKOUT_THRESHOLD = 5;

/** The first collectorsId handed out; later accounts count up from it (§3 CollectorsId claim). */
export const FIRST_COLLECTORS_ID = 100001;

/** §3 Auth user state flags kept on the account, plus the two the sign-in steps of §4 need. */
export interface AccountFlags {
  readonly isMigrating: boolean;
  readonly mfaSetupRequired: boolean;
  readonly surveyPending: boolean;
  readonly passwordExpired: boolean;
  readonly emailVerified: boolean;
}

/** An account as the rest of the service sees it. The password hash never leaves this file. */
export interface Account extends AccountFlags {
  /** The OIDC `sub`: 'u' and 20 random base32 characters (100 bits). */
  readonly id: string;
  /** §3 CollectorsId claim: unique, sequential from FIRST_COLLECTORS_ID. */
  readonly collectorsId: number;
  /** §3 NavisionId claim: 'C' and the collectorsId zero-padded to 8 digits. */
  readonly navisionId: string;
  /** Lower-cased and trimmed; unique. */
  readonly email: string;
  readonly givenName: string | null;
  readonly familyName: string | null;
  readonly locale: Locale;
  readonly passwordChangedAt: number;
  readonly failedPasswordAttempts: number;
  readonly lockedAt: number | null;
  readonly acceptedTermsAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface NewAccount {
  readonly email: string;
  readonly password: string;
  readonly locale: Locale;
  readonly givenName?: string | null;
  readonly familyName?: string | null;
  /** §3 acceptedTermsAndConditions: registration requires it. */
  readonly acceptedTerms: boolean;
  readonly flags?: Partial<AccountFlags>;
}

/**
 * §4 Sign-in flow outcomes this store decides (MFA_REQUIRED is the caller's, from the factors), and
 * EMAIL_UNVERIFIED: the right password of an account whose email address was never proven
 * (issue 15 item 2). Such an account does not sign in with its password: whoever registered it may
 * not own the address.
 */
export type PasswordOutcome =
  'SUCCESS' | 'PASSWORD_EXPIRED' | 'LOCKED_OUT' | 'INVALID_CREDENTIALS' | 'EMAIL_UNVERIFIED';

export interface PasswordCheckResult {
  readonly outcome: PasswordOutcome;
  /** With INVALID_CREDENTIALS: wrong passwords left before the account locks. */
  readonly attemptsLeft?: number;
}

export type AccountErrorCode =
  | 'weak-password'
  | 'email-taken'
  | 'terms-not-accepted'
  | 'password-reused'
  | 'invalid-name'
  | 'invalid-email'
  | 'invalid-locale'
  | 'not-found';

const ERROR_MESSAGES: Readonly<Record<AccountErrorCode, string>> = {
  'weak-password': 'The password does not meet the password policy',
  'email-taken': 'An account with this email address already exists',
  'terms-not-accepted': 'The terms and conditions must be accepted',
  'password-reused': 'The new password must differ from the current one',
  'invalid-name': 'A name must be 1 to 100 characters',
  'invalid-email': 'The email address is not valid',
  'invalid-locale': 'The locale is not supported',
  'not-found': 'No such account',
};

/** A refusal the screens can explain. Messages never echo the input. */
export class AccountError extends Error {
  constructor(
    readonly code: AccountErrorCode,
    /** With 'weak-password': every rule the password failed, in policy order. */
    readonly rules?: PasswordRule[],
  ) {
    super(ERROR_MESSAGES[code]);
    this.name = 'AccountError';
  }
}

/**
 * Email rule (deliberately simple; the verify-email code proves the address): after trimming and
 * lower-casing, at most 254 characters (RFC 5321's path limit), exactly one '@' with something before
 * it, no whitespace or control characters, and a domain with a dot that is neither first nor last.
 */
export function normalizeEmail(email: string): string | undefined {
  const normalized = email.trim().toLowerCase();
  if (normalized.length > 254 || /[\s\p{Cc}]/u.test(normalized)) return undefined;
  const parts = normalized.split('@');
  if (parts.length !== 2) return undefined;
  const [local = '', domain = ''] = parts;
  const dot = domain.indexOf('.');
  if (local.length === 0 || dot <= 0 || domain.endsWith('.')) return undefined;
  return normalized;
}

const NAME_MAX_LENGTH = 100;

/** Names are trimmed and 1-100 characters (code points), without control characters. */
function normalizeName(name: string): string {
  const trimmed = name.trim();
  const length = Array.from(trimmed).length;
  if (length < 1 || length > NAME_MAX_LENGTH || /\p{Cc}/u.test(trimmed)) {
    throw new AccountError('invalid-name');
  }
  return trimmed;
}

function optionalName(name: string | null | undefined): string | null {
  return name === undefined || name === null ? null : normalizeName(name);
}

function assertLocale(locale: string): asserts locale is Locale {
  if (!(LOCALES as readonly string[]).includes(locale)) throw new AccountError('invalid-locale');
}

/** Flag name to column: the only column names ever put into SQL text by setFlags. */
const FLAG_COLUMNS: Readonly<Record<keyof AccountFlags, string>> = {
  isMigrating: 'is_migrating',
  mfaSetupRequired: 'mfa_setup_required',
  surveyPending: 'survey_pending',
  passwordExpired: 'password_expired',
  emailVerified: 'email_verified',
};

interface AccountRow {
  id: string;
  collectors_id: number;
  email: string;
  email_verified: number;
  given_name: string | null;
  family_name: string | null;
  locale: string;
  password_changed_at: number;
  password_expired: number;
  failed_password_attempts: number;
  locked_at: number | null;
  is_migrating: number;
  mfa_setup_required: number;
  survey_pending: number;
  accepted_terms_at: number | null;
  created_at: number;
  updated_at: number;
}

/** Every column except password_hash, so no query that builds an Account can read the hash. */
const ACCOUNT_COLUMNS = `id, collectors_id, email, email_verified, given_name, family_name, locale,
  password_changed_at, password_expired, failed_password_attempts, locked_at, is_migrating,
  mfa_setup_required, survey_pending, accepted_terms_at, created_at, updated_at`;

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    collectorsId: row.collectors_id,
    navisionId: `C${String(row.collectors_id).padStart(8, '0')}`,
    email: row.email,
    emailVerified: row.email_verified === 1,
    givenName: row.given_name,
    familyName: row.family_name,
    locale: (LOCALES as readonly string[]).includes(row.locale)
      ? (row.locale as Locale)
      : DEFAULT_LOCALE,
    passwordChangedAt: row.password_changed_at,
    passwordExpired: row.password_expired === 1,
    failedPasswordAttempts: row.failed_password_attempts,
    lockedAt: row.locked_at,
    isMigrating: row.is_migrating === 1,
    mfaSetupRequired: row.mfa_setup_required === 1,
    surveyPending: row.survey_pending === 1,
    acceptedTermsAt: row.accepted_terms_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** 'u' + 20 characters of a base32 alphabet; 32 divides 256, so masking a byte has no bias. */
function newAccountId(): string {
  return 'u' + Array.from(randomBytes(20), (byte) => ID_ALPHABET[byte & 31]).join('');
}

const bit = (value: boolean | undefined): number => (value ? 1 : 0);

/**
 * The embedded identity provider's accounts, in the one SQLite database the caller opens. Everything
 * that must survive a restart (the lockout counter included, §4 LOCKED_OUT) is a column here.
 * better-sqlite3 is synchronous; methods still return promises so a networked store can replace it.
 */
export class AccountStore extends SqliteStore {
  /** Verified against for unknown accounts, so an unknown id costs the same time as a wrong password. */
  private dummyHash: Promise<string> | undefined;

  constructor(db: Database.Database, now: () => number = Date.now) {
    super(db, now);
  }

  migrate(): void {
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS accounts (
         id TEXT PRIMARY KEY,
         collectors_id INTEGER NOT NULL UNIQUE,
         email TEXT NOT NULL UNIQUE,
         email_verified INTEGER NOT NULL DEFAULT 0,
         given_name TEXT,
         family_name TEXT,
         locale TEXT NOT NULL,
         password_hash TEXT NOT NULL,
         password_changed_at INTEGER NOT NULL,
         password_expired INTEGER NOT NULL DEFAULT 0,
         failed_password_attempts INTEGER NOT NULL DEFAULT 0,
         locked_at INTEGER,
         is_migrating INTEGER NOT NULL DEFAULT 0,
         mfa_setup_required INTEGER NOT NULL DEFAULT 0,
         survey_pending INTEGER NOT NULL DEFAULT 0,
         accepted_terms_at INTEGER,
         created_at INTEGER NOT NULL,
         updated_at INTEGER NOT NULL
       )`,
    );
  }

  /**
   * A new account. With `replaceUnverified`, an account of the same address whose email was never
   * verified is replaced (deleted, and the new one gets a new id), in the same transaction as the
   * insert: a registration that is never verified does not keep the address from its owner
   * (issue 15 item 2). Without it, any account of the address answers 'email-taken'.
   */
  async createAccount(
    input: NewAccount,
    options: {
      readonly replaceUnverified?: boolean;
      /**
       * The password's hash, made beforehand: the demo users' published password (demo-users.ts),
       * whose spec proves that the hash is that password's. The policy check still runs.
       */
      readonly passwordHash?: string;
    } = {},
  ): Promise<Account> {
    const email = normalizeEmail(input.email);
    if (!email) throw new AccountError('invalid-email');
    // §3 acceptedTermsAndConditions: an account is only ever created with the terms accepted.
    if (!input.acceptedTerms) throw new AccountError('terms-not-accepted');
    const givenName = optionalName(input.givenName);
    const familyName = optionalName(input.familyName);
    assertLocale(input.locale);
    // §5 Password strength.
    const rules = checkPassword(input.password);
    if (rules.length > 0) throw new AccountError('weak-password', rules);
    // Checked before hashing to save the work; the UNIQUE constraint settles a race.
    const existing = await this.findByEmail(email);
    if (existing && (existing.emailVerified || !options.replaceUnverified))
      throw new AccountError('email-taken');
    const passwordHash = options.passwordHash ?? (await hashPassword(input.password));
    const id = newAccountId();
    const now = this.now();
    const flags = input.flags ?? {};
    return this.run(
      this.db.transaction(() => {
        try {
          if (options.replaceUnverified)
            this.statement('DELETE FROM accounts WHERE email = ? AND email_verified = 0').run(
              email,
            );
          // One statement: the next collectorsId is taken and used atomically.
          this.statement(
            `INSERT INTO accounts (id, collectors_id, email, email_verified, given_name, family_name,
             locale, password_hash, password_changed_at, password_expired, is_migrating,
             mfa_setup_required, survey_pending, accepted_terms_at, created_at, updated_at)
           SELECT @id, COALESCE(MAX(collectors_id), ${FIRST_COLLECTORS_ID - 1}) + 1, @email,
             @emailVerified, @givenName, @familyName, @locale, @passwordHash, @now,
             @passwordExpired, @isMigrating, @mfaSetupRequired, @surveyPending, @now, @now, @now
           FROM accounts`,
          ).run({
            id,
            email,
            givenName,
            familyName,
            locale: input.locale,
            passwordHash,
            now,
            emailVerified: bit(flags.emailVerified),
            passwordExpired: bit(flags.passwordExpired),
            isMigrating: bit(flags.isMigrating),
            mfaSetupRequired: bit(flags.mfaSetupRequired),
            surveyPending: bit(flags.surveyPending),
          });
        } catch (error) {
          // By code, not instanceof: under Jest the native driver's errors come from another realm.
          if (
            typeof error === 'object' &&
            error !== null &&
            (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE'
          ) {
            throw new AccountError('email-taken');
          }
          throw error;
        }
        return this.get(id);
      }),
    );
  }

  findByEmail(email: string): Promise<Account | undefined> {
    const normalized = normalizeEmail(email);
    return this.run(() => (normalized ? this.find('email = ?', normalized) : undefined));
  }

  findById(id: string): Promise<Account | undefined> {
    return this.run(() => this.find('id = ?', id));
  }

  findByCollectorsId(collectorsId: number): Promise<Account | undefined> {
    return this.run(() => this.find('collectors_id = ?', collectorsId));
  }

  /**
   * §4 Sign-in flow, the password step. LOCKED_OUT wins over everything, even the right password;
   * PASSWORD_EXPIRED and EMAIL_UNVERIFIED are only ever told to someone who knew the password. The failure that reaches
   * LOCKOUT_THRESHOLD answers LOCKED_OUT at once. An unknown id answers INVALID_CREDENTIALS after the
   * same hashing work, so the answer and its timing say nothing about which accounts exist.
   */
  async checkPassword(id: string, password: string): Promise<PasswordCheckResult> {
    const row = await this.run(
      () =>
        this.statement(
          'SELECT password_hash, locked_at, email_verified FROM accounts WHERE id = ?',
        ).get(id) as
          { password_hash: string; locked_at: number | null; email_verified: number } | undefined,
    );
    if (!row) {
      this.dummyHash ??= hashPassword('not a password of anyone');
      await verifyPassword(password, await this.dummyHash);
      return { outcome: 'INVALID_CREDENTIALS', attemptsLeft: LOCKOUT_THRESHOLD };
    }
    if (row.locked_at !== null) return { outcome: 'LOCKED_OUT' };
    if (!(await verifyPassword(password, row.password_hash))) return this.recordFailure(id);
    // Issue 15 item 2: the right password of an unproven address is not a sign-in. Told only to
    // someone who knew the password; the counter is left alone (nothing was guessed wrong).
    if (row.email_verified !== 1) return { outcome: 'EMAIL_UNVERIFIED' };

    // The counter resets only if nobody locked the account while we were hashing.
    const after = await this.run(
      () =>
        this.statement(
          `UPDATE accounts SET failed_password_attempts = 0, updated_at = ?
           WHERE id = ? AND locked_at IS NULL RETURNING password_expired`,
        ).get(this.now(), id) as { password_expired: number } | undefined,
    );
    if (!after) return { outcome: 'LOCKED_OUT' };
    if (needsRehash(row.password_hash)) await this.rehash(id, row.password_hash, password);
    return { outcome: after.password_expired === 1 ? 'PASSWORD_EXPIRED' : 'SUCCESS' };
  }

  /**
   * §4 UpdateExpiredPassword and password recovery: policy-checked (§5), never the current password,
   * and it clears the expiry and the failure counter. A lock stays until unlock(): recovering a
   * password and unlocking an account are separate flows with separate codes.
   */
  async setPassword(id: string, newPassword: string): Promise<Account> {
    const rules = checkPassword(newPassword);
    if (rules.length > 0) throw new AccountError('weak-password', rules);
    const current = await this.run(() => this.passwordHash(id));
    if (current === undefined) throw new AccountError('not-found');
    if (await verifyPassword(newPassword, current)) throw new AccountError('password-reused');
    const passwordHash = await hashPassword(newPassword);
    return this.update(
      id,
      `password_hash = @passwordHash, password_changed_at = @now, password_expired = 0,
       failed_password_attempts = 0`,
      { passwordHash },
    );
  }

  /**
   * Password recovery (§4 ResetPassword after the recover-password code): setPassword, and the code
   * proved the mailbox, so the address is verified now. An account whose address was not verified
   * yet was registered by someone who never proved it, perhaps not its owner (issue 15 item 2): the
   * owner's recovery replaces that registration, so the names typed into it go too (the owner gives
   * theirs on the welcome steps). `replacedRegistration` says whether that happened.
   */
  async recoverPassword(
    id: string,
    newPassword: string,
  ): Promise<{ readonly account: Account; readonly replacedRegistration: boolean }> {
    const before = await this.findById(id);
    if (!before) throw new AccountError('not-found');
    await this.setPassword(id, newPassword);
    const replacedRegistration = !before.emailVerified;
    const account = await this.update(
      id,
      replacedRegistration
        ? 'email_verified = 1, given_name = NULL, family_name = NULL'
        : 'email_verified = 1',
    );
    return { account, replacedRegistration };
  }

  /** Clears a lockout (after the unlock-account code, or by an operator). */
  unlock(id: string): Promise<Account> {
    return this.update(id, 'locked_at = NULL, failed_password_attempts = 0');
  }

  /** §4 VerifyEmailCode done. */
  markEmailVerified(id: string): Promise<Account> {
    return this.update(id, 'email_verified = 1');
  }

  /** §4 EnterNameInfo. */
  async updateName(id: string, name: { givenName: string; familyName: string }): Promise<Account> {
    const givenName = normalizeName(name.givenName);
    const familyName = normalizeName(name.familyName);
    return this.update(id, 'given_name = @givenName, family_name = @familyName', {
      givenName,
      familyName,
    });
  }

  /** Sets the given flags and leaves the others alone. */
  async setFlags(id: string, flags: Partial<AccountFlags>): Promise<Account> {
    const names = (Object.keys(FLAG_COLUMNS) as (keyof AccountFlags)[]).filter(
      (name) => flags[name] !== undefined,
    );
    if (names.length === 0) return this.run(() => this.get(id));
    const assignments = names.map((name) => `${FLAG_COLUMNS[name]} = @${name}`).join(', ');
    const values = Object.fromEntries(names.map((name) => [name, bit(flags[name])]));
    return this.update(id, assignments, values);
  }

  /** §4 After login, step 2: the accepted terms are recorded (the latest acceptance wins). */
  acceptTerms(id: string): Promise<Account> {
    return this.update(id, 'accepted_terms_at = @now');
  }

  async setLocale(id: string, locale: Locale): Promise<Account> {
    assertLocale(locale);
    return this.update(id, 'locale = @locale', { locale });
  }

  private recordFailure(id: string): Promise<PasswordCheckResult> {
    return this.run(() => {
      // One statement, so concurrent wrong passwords each count; SET sees the old values.
      const row = this.statement(
        `UPDATE accounts SET
           failed_password_attempts = failed_password_attempts + 1,
           locked_at = CASE WHEN failed_password_attempts + 1 >= ${LOCKOUT_THRESHOLD}
                            THEN @now ELSE locked_at END,
           updated_at = @now
         WHERE id = @id AND locked_at IS NULL
         RETURNING failed_password_attempts, locked_at`,
      ).get({ id, now: this.now() }) as
        { failed_password_attempts: number; locked_at: number | null } | undefined;
      if (!row || row.locked_at !== null) return { outcome: 'LOCKED_OUT' };
      return {
        outcome: 'INVALID_CREDENTIALS',
        attemptsLeft: LOCKOUT_THRESHOLD - row.failed_password_attempts,
      };
    });
  }

  /**
   * Locks an account as LOCKOUT_THRESHOLD wrong passwords in a row would (the same columns), without
   * the hashing work: the demo user that shows LOCKED_OUT is seeded this way.
   */
  lockOut(id: string): Promise<void> {
    return this.run(() => {
      this.statement(
        `UPDATE accounts SET failed_password_attempts = ${LOCKOUT_THRESHOLD},
           locked_at = @now, updated_at = @now WHERE id = @id AND locked_at IS NULL`,
      ).run({ id, now: this.now() });
    });
  }

  /** Upgrades an old-parameter hash, unless the password changed meanwhile. */
  private async rehash(id: string, oldHash: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    await this.run(() =>
      this.statement(
        'UPDATE accounts SET password_hash = ? WHERE id = ? AND password_hash = ?',
      ).run(passwordHash, id, oldHash),
    );
  }

  /**
   * Runs one UPDATE of the named account and returns it afterwards; `assignments` is always text
   * from this file, never input. @id and @now are bound for every update.
   */
  private update(
    id: string,
    assignments: string,
    values: Record<string, string | number | null> = {},
  ): Promise<Account> {
    return this.run(
      this.db.transaction(() => {
        const { changes } = this.statement(
          `UPDATE accounts SET ${assignments}, updated_at = @now WHERE id = @id`,
        ).run({ ...values, id, now: this.now() });
        if (changes === 0) throw new AccountError('not-found');
        return this.get(id);
      }),
    );
  }

  private passwordHash(id: string): string | undefined {
    const row = this.statement('SELECT password_hash FROM accounts WHERE id = ?').get(id) as
      { password_hash: string } | undefined;
    return row?.password_hash;
  }

  private find(where: string, value: string | number): Account | undefined {
    const row = this.statement(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE ${where}`).get(
      value,
    ) as AccountRow | undefined;
    return row ? toAccount(row) : undefined;
  }

  private get(id: string): Account {
    const account = this.find('id = ?', id);
    if (!account) throw new AccountError('not-found');
    return account;
  }
}
