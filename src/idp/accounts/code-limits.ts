import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { SqliteStore } from '../../common/sqlite-store';
import type { CodePurpose } from './one-time-codes';

/**
 * What a limit counts: every purpose of an emailed or texted code (OneTimeCodes), and the
 * authenticator app's codes at sign-in (`totp`). A TOTP enrolment is not counted: its secret is on the
 * page of the one typing, so there is nothing to guess.
 */
export type LimitedPurpose = CodePurpose | 'totp';

/**
 * Issue 15 item 3, OWASP ASVS 5.0 6.3.1 (brute force) and 6.6.3 (out-of-band codes are rate limited).
 * A code of six digits has a million values. OneTimeCodes already refuses a sixth try of one code,
 * but a resend used to start again from nothing, so the only brake was the per-address request rate.
 * These limits hold per subject (an account, see `limitSubject`) and purpose, whatever the resends:
 *
 * - `maxWrongPerWindow` wrong codes in a window of `windowMs` (an hour) lock the purpose for
 *   `lockMs`: every try is refused without being checked, the right code included, and no code is
 *   sent. At most 10 guesses an hour is a chance of 1 in 100,000 an hour for a six-digit code.
 * - `maxSendsPerWindow` codes are sent per window (the first and its resends), so the pages cannot be
 *   used to flood a mailbox or a phone.
 *
 * The window starts at the first counted event and ends `windowMs` later; a lock outlives it.
 */
export interface CodeLimitPolicy {
  readonly windowMs: number;
  readonly maxWrongPerWindow: number;
  readonly lockMs: number;
  readonly maxSendsPerWindow: number;
}

export const CODE_LIMITS: CodeLimitPolicy = {
  windowMs: 60 * 60 * 1000,
  maxWrongPerWindow: 10,
  lockMs: 60 * 60 * 1000,
  maxSendsPerWindow: 5,
};

/** One subject and purpose's counters. */
export interface LimitState {
  readonly windowStart: number;
  readonly wrong: number;
  readonly sent: number;
  readonly lockedUntil: number | null;
}

/**
 * - `guess`: a code is about to be tried. It counts as wrong until `forgive` says it was right, so
 *   that racing tries each count before any is checked.
 * - `forgive`: the code tried was right; it does not count.
 * - `send`: a code is about to be sent.
 */
export type LimitEvent = 'guess' | 'forgive' | 'send';

export type LimitVerdict =
  | { readonly allowed: true }
  | {
      readonly allowed: false;
      readonly reason: 'locked' | 'too-many-sends';
      readonly until: number;
    };

const FRESH = (now: number): LimitState => ({
  windowStart: now,
  wrong: 0,
  sent: 0,
  lockedUntil: null,
});

/**
 * The rule, without storage (table-tested in code-limits.spec.ts): the state after `event` at `now`,
 * and whether what the event announces may happen.
 */
export function applyCodeLimit(
  state: LimitState | undefined,
  event: LimitEvent,
  now: number,
  policy: CodeLimitPolicy = CODE_LIMITS,
): { readonly state: LimitState; readonly verdict: LimitVerdict } {
  if (event === 'forgive') {
    if (!state) return { state: FRESH(now), verdict: { allowed: true } };
    const wrong = Math.max(0, state.wrong - 1);
    // The try that reached the cap was the right code after all: no lock.
    const lockedUntil = wrong < policy.maxWrongPerWindow ? null : state.lockedUntil;
    return { state: { ...state, wrong, lockedUntil }, verdict: { allowed: true } };
  }
  if (state && state.lockedUntil !== null && now < state.lockedUntil) {
    return { state, verdict: { allowed: false, reason: 'locked', until: state.lockedUntil } };
  }
  const expired =
    !state || now >= state.windowStart + policy.windowMs || state.lockedUntil !== null;
  const current = expired ? FRESH(now) : state;
  if (event === 'send') {
    if (current.sent >= policy.maxSendsPerWindow) {
      const until = current.windowStart + policy.windowMs;
      return { state: current, verdict: { allowed: false, reason: 'too-many-sends', until } };
    }
    return { state: { ...current, sent: current.sent + 1 }, verdict: { allowed: true } };
  }
  const wrong = current.wrong + 1;
  return {
    state: {
      ...current,
      wrong,
      lockedUntil: wrong >= policy.maxWrongPerWindow ? now + policy.lockMs : null,
    },
    verdict: { allowed: true },
  };
}

/**
 * Whose codes a limit counts. An email code that proves a registration counts by the address, not by
 * the account: a registration that is never verified is replaced by the next one (issue 15 item 2),
 * with a new account id, and a new id must not mean a new budget of guesses or of emails. Recovery
 * and unlock of an address without an account count by the address too, so that those pages answer
 * an unknown address exactly as they answer a known one. Everything else counts by the account.
 */
export function limitSubject(
  purpose: LimitedPurpose,
  who: { readonly accountId?: string; readonly email?: string },
): string | undefined {
  if (purpose === 'verify-email') return who.email ? `email:${who.email.toLowerCase()}` : undefined;
  if (who.accountId) return `account:${who.accountId}`;
  return who.email ? `email:${who.email.toLowerCase()}` : undefined;
}

interface LimitRow {
  window_start: number;
  wrong: number;
  sent: number;
  locked_until: number | null;
}

/**
 * The counters of `applyCodeLimit`, in the IdP's SQLite database beside the accounts (so they survive
 * a restart, like the password lockout). Subjects are stored as a SHA-256, so the table keeps no
 * address that someone typed into the recovery page. Each event is one transaction: racing requests
 * each count.
 */
export class CodeLimits extends SqliteStore {
  constructor(
    db: Database.Database,
    now: () => number = Date.now,
    private readonly policy: CodeLimitPolicy = CODE_LIMITS,
  ) {
    super(db, now);
  }

  migrate(): void {
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS code_limits (
         subject TEXT NOT NULL,
         purpose TEXT NOT NULL,
         window_start INTEGER NOT NULL,
         wrong INTEGER NOT NULL,
         sent INTEGER NOT NULL,
         locked_until INTEGER,
         PRIMARY KEY (subject, purpose)
       ) WITHOUT ROWID`,
    );
  }

  /** A code is about to be tried: allowed unless the purpose is locked. Call `forgive` if it was right. */
  guess(subject: string, purpose: LimitedPurpose): Promise<LimitVerdict> {
    return this.apply(subject, purpose, 'guess');
  }

  /** The code tried was right: it does not count as wrong. */
  async forgive(subject: string, purpose: LimitedPurpose): Promise<void> {
    await this.apply(subject, purpose, 'forgive');
  }

  /** A code is about to be sent: allowed unless locked or past the sends of the window. */
  send(subject: string, purpose: LimitedPurpose): Promise<LimitVerdict> {
    return this.apply(subject, purpose, 'send');
  }

  /** Drops counters whose window and lock are both over; reads treat them as fresh anyway. */
  purgeStale(): Promise<number> {
    const now = this.now();
    return this.run(
      () =>
        this.statement(
          `DELETE FROM code_limits WHERE window_start + ? <= ?
             AND (locked_until IS NULL OR locked_until <= ?)`,
        ).run(this.policy.windowMs, now, now).changes,
    );
  }

  private apply(
    subject: string,
    purpose: LimitedPurpose,
    event: LimitEvent,
  ): Promise<LimitVerdict> {
    const key = createHash('sha256').update(subject).digest('base64url');
    return this.run(
      this.db.transaction((): LimitVerdict => {
        const row = this.statement(
          `SELECT window_start, wrong, sent, locked_until FROM code_limits
           WHERE subject = ? AND purpose = ?`,
        ).get(key, purpose) as LimitRow | undefined;
        const before: LimitState | undefined = row && {
          windowStart: row.window_start,
          wrong: row.wrong,
          sent: row.sent,
          lockedUntil: row.locked_until,
        };
        const { state, verdict } = applyCodeLimit(before, event, this.now(), this.policy);
        this.statement(
          `INSERT INTO code_limits (subject, purpose, window_start, wrong, sent, locked_until)
           VALUES (@key, @purpose, @windowStart, @wrong, @sent, @lockedUntil)
           ON CONFLICT (subject, purpose) DO UPDATE SET window_start = excluded.window_start,
             wrong = excluded.wrong, sent = excluded.sent, locked_until = excluded.locked_until`,
        ).run({ key, purpose, ...state });
        return verdict;
      }),
    );
  }
}

/** Whole minutes until `until` (at least 1), for the message that tells the collector how long. */
export function minutesUntil(until: number, now: number): number {
  return Math.max(1, Math.ceil((until - now) / 60_000));
}
