import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  CODE_LIMITS,
  CodeLimitPolicy,
  CodeLimits,
  LimitEvent,
  LimitState,
  LimitVerdict,
  applyCodeLimit,
  limitSubject,
  minutesUntil,
} from './code-limits';

const HOUR = 60 * 60 * 1000;
const T = 1_700_000_000_000;
const policy: CodeLimitPolicy = {
  windowMs: HOUR,
  maxWrongPerWindow: 3,
  lockMs: 2 * HOUR,
  maxSendsPerWindow: 2,
};
const state = (s: Partial<LimitState> = {}): LimitState => ({
  windowStart: T,
  wrong: 0,
  sent: 0,
  lockedUntil: null,
  ...s,
});
const ALLOWED: LimitVerdict = { allowed: true };

describe('applyCodeLimit (issue 15 item 3, ASVS 5.0 6.3.1, 6.6.3)', () => {
  // Before, the event, when, the state after and the verdict.
  const table: ReadonlyArray<
    readonly [string, LimitState | undefined, LimitEvent, number, LimitState, LimitVerdict]
  > = [
    ['a first wrong guess opens a window', undefined, 'guess', T, state({ wrong: 1 }), ALLOWED],
    [
      'a guess counts before it is checked',
      state({ wrong: 1 }),
      'guess',
      T + 1,
      state({ wrong: 2 }),
      ALLOWED,
    ],
    [
      'the guess that reaches the cap is tried, and locks for lockMs',
      state({ wrong: 2 }),
      'guess',
      T + 10,
      state({ wrong: 3, lockedUntil: T + 10 + 2 * HOUR }),
      ALLOWED,
    ],
    [
      'past the cap every guess is refused, unchanged',
      state({ wrong: 3, lockedUntil: T + 2 * HOUR }),
      'guess',
      T + HOUR + 5,
      state({ wrong: 3, lockedUntil: T + 2 * HOUR }),
      { allowed: false, reason: 'locked', until: T + 2 * HOUR },
    ],
    [
      'a locked purpose sends nothing',
      state({ wrong: 3, lockedUntil: T + 2 * HOUR }),
      'send',
      T + 1,
      state({ wrong: 3, lockedUntil: T + 2 * HOUR }),
      { allowed: false, reason: 'locked', until: T + 2 * HOUR },
    ],
    [
      'when the lock is over, a fresh window',
      state({ wrong: 3, lockedUntil: T + 2 * HOUR }),
      'guess',
      T + 2 * HOUR,
      state({ windowStart: T + 2 * HOUR, wrong: 1 }),
      ALLOWED,
    ],
    [
      'a resend does not reset the wrong guesses',
      state({ wrong: 2, sent: 1 }),
      'send',
      T + 5,
      state({ wrong: 2, sent: 2 }),
      ALLOWED,
    ],
    [
      'past the sends of the window nothing is sent until it ends',
      state({ sent: 2 }),
      'send',
      T + 5,
      state({ sent: 2 }),
      { allowed: false, reason: 'too-many-sends', until: T + HOUR },
    ],
    [
      'an hour after the window opened, counting starts again',
      state({ wrong: 2, sent: 2 }),
      'send',
      T + HOUR,
      state({ windowStart: T + HOUR, sent: 1 }),
      ALLOWED,
    ],
    [
      'a right code does not count',
      state({ wrong: 2 }),
      'forgive',
      T + 5,
      state({ wrong: 1 }),
      ALLOWED,
    ],
    [
      'the right code as the cap-th try lifts the lock it set',
      state({ wrong: 3, lockedUntil: T + 2 * HOUR }),
      'forgive',
      T + 5,
      state({ wrong: 2 }),
      ALLOWED,
    ],
    ['forgiving nothing leaves nothing', undefined, 'forgive', T, state(), ALLOWED],
  ];
  it.each(table)('%s', (_why, before, event, now, after, verdict) => {
    expect(applyCodeLimit(before, event, now, policy)).toEqual({ state: after, verdict });
  });

  it('the product allows 10 wrong codes and 5 sends an hour, and locks for an hour', () => {
    expect(CODE_LIMITS).toEqual({
      windowMs: HOUR,
      maxWrongPerWindow: 10,
      lockMs: HOUR,
      maxSendsPerWindow: 5,
    });
  });
});

describe('limitSubject', () => {
  const table: ReadonlyArray<
    readonly [
      Parameters<typeof limitSubject>[0],
      Parameters<typeof limitSubject>[1],
      string | undefined,
    ]
  > = [
    ['verify-email', { accountId: 'u1', email: 'A@Example.com' }, 'email:a@example.com'],
    ['verify-email', { accountId: 'u1' }, undefined],
    ['recover-password', { accountId: 'u1', email: 'a@example.com' }, 'account:u1'],
    ['recover-password', { email: 'Nobody@Example.com' }, 'email:nobody@example.com'],
    ['totp', { accountId: 'u1' }, 'account:u1'],
    ['mfa-sms', {}, undefined],
  ];
  it.each(table)('%s %j -> %s', (purpose, who, expected) => {
    expect(limitSubject(purpose, who)).toBe(expected);
  });
});

describe('minutesUntil', () => {
  it.each([
    [T + 1, 1],
    [T + 60_000, 1],
    [T + 60_001, 2],
    [T + HOUR, 60],
    [T - 5, 1],
  ])('%d -> %d', (until, minutes) => {
    expect(minutesUntil(until, T)).toBe(minutes);
  });
});

describe(CodeLimits.name, () => {
  const file = path.join(os.tmpdir(), `code-limits-${randomUUID()}.sqlite`);
  let now = T;
  let db: Database.Database;
  let limits: CodeLimits;
  beforeAll(() => {
    db = new Database(file);
    limits = new CodeLimits(db, () => now, policy);
    limits.migrate();
    limits.migrate();
  });
  afterAll(() => db.close());

  it('counts per subject and purpose, and keeps no subject in clear', async () => {
    for (let i = 0; i < 3; i++) expect(await limits.guess('account:u1', 'totp')).toEqual(ALLOWED);
    expect(await limits.guess('account:u1', 'totp')).toEqual({
      allowed: false,
      reason: 'locked',
      until: T + 2 * HOUR,
    });
    expect(await limits.guess('account:u1', 'mfa-sms')).toEqual(ALLOWED);
    expect(await limits.guess('account:u2', 'totp')).toEqual(ALLOWED);
    const subjects = db.prepare('SELECT subject FROM code_limits').all() as { subject: string }[];
    expect(JSON.stringify(subjects)).not.toContain('u1');
  });

  it('counts racing guesses each, before any is checked', async () => {
    const verdicts = await Promise.all(
      Array.from({ length: 6 }, () => limits.guess('account:race', 'recover-password')),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(policy.maxWrongPerWindow);
  });

  it('survives a restart (a new store on the same file), and purges what is over', async () => {
    await limits.send('email:x@example.com', 'verify-email');
    await limits.send('email:x@example.com', 'verify-email');
    const reopened = new Database(file);
    try {
      const restarted = new CodeLimits(reopened, () => now, policy);
      expect(await restarted.send('email:x@example.com', 'verify-email')).toMatchObject({
        allowed: false,
        reason: 'too-many-sends',
      });
    } finally {
      reopened.close();
    }
    now = T + 3 * HOUR;
    expect(await limits.purgeStale()).toBeGreaterThan(0);
    expect(db.prepare('SELECT COUNT(*) AS n FROM code_limits').get()).toEqual({ n: 0 });
    expect(await limits.send('email:x@example.com', 'verify-email')).toEqual(ALLOWED);
  });
});
