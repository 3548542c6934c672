import Database from 'better-sqlite3';
import { randomUUID, scryptSync } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  Account,
  AccountError,
  AccountErrorCode,
  AccountStore,
  FIRST_COLLECTORS_ID,
  LOCKOUT_THRESHOLD,
  NewAccount,
  normalizeEmail,
} from './account-store';
import { Locale } from '../../shared/locale';

// Real scrypt at production parameters (150-240 ms of CPU a hash, several a test), on cores the
// browser and integration tiers share in `npm test`: Jest's 5 s default is too tight under load.
jest.setTimeout(30_000);

const PASSWORD = 'Passw0rd!';
const file = path.join(os.tmpdir(), `accounts-${randomUUID()}.sqlite`);
let now = 1_700_000_000_000;
const clock = (): number => now;
let db: Database.Database;
let store: AccountStore;
/** Everything any method returned, to prove the hash never leaves the store. */
const returned: unknown[] = [];

/**
 * The time allowed to the tests that run scrypt six to eight times in a row at the production
 * parameters (N=2^14, r=8, p=5; one run per account created, password checked against its hash, or
 * new password set), which stay real here so that the tests check the hashes accounts really have.
 * Measured on the two-core test machine: about 170 ms a run on an idle core (eight runs, 1.4 s), and
 * 17 s for eight runs with the cores loaded about four times over (load average 8, as when the suite
 * runs beside other jobs), where Jest's 5 s default failed them. 60 s leaves room over that.
 */
const SCRYPT_HEAVY_TIMEOUT_MS = 60_000;

let counter = 0;
const uniqueEmail = (): string => `collector${++counter}@example.com`;

async function create(overrides: Partial<NewAccount> = {}): Promise<Account> {
  const account = await store.createAccount({
    email: uniqueEmail(),
    password: PASSWORD,
    locale: 'en-US',
    acceptedTerms: true,
    ...overrides,
  });
  returned.push(account);
  return account;
}

/**
 * An account whose email was verified, as the registration's code (or an administrator) leaves it:
 * only such an account signs in with its password (issue 15 item 2), so the password tests use it.
 */
function createVerified(overrides: Partial<NewAccount> = {}): Promise<Account> {
  return create({ ...overrides, flags: { emailVerified: true, ...overrides.flags } });
}

async function check(id: string, password: string): ReturnType<AccountStore['checkPassword']> {
  const result = await store.checkPassword(id, password);
  returned.push(result);
  return result;
}

function storedHash(id: string): string {
  const row = db.prepare('SELECT password_hash FROM accounts WHERE id = ?').get(id) as {
    password_hash: string;
  };
  return row.password_hash;
}

async function expectAccountError(promise: Promise<unknown>, code: AccountErrorCode) {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AccountError);
  expect((error as AccountError).code).toBe(code);
  return error as AccountError;
}

beforeAll(() => {
  db = new Database(file);
  store = new AccountStore(db, clock);
  store.migrate();
  store.migrate(); // idempotent
});

afterAll(() => {
  db.close();
});

describe(AccountStore.name, () => {
  describe('createAccount', () => {
    it('creates an account with an OIDC subject, sequential collectors ids and a Navision id', async () => {
      const first = await create({ email: '  Ada.Lovelace@Example.COM ', givenName: ' Ada ' });
      const second = await create();
      expect(first).toEqual({
        id: expect.stringMatching(/^u[a-z2-7]{20}$/),
        collectorsId: FIRST_COLLECTORS_ID,
        navisionId: 'C00100001',
        email: 'ada.lovelace@example.com',
        emailVerified: false,
        givenName: 'Ada',
        familyName: null,
        locale: 'en-US',
        passwordChangedAt: now,
        passwordExpired: false,
        failedPasswordAttempts: 0,
        lockedAt: null,
        isMigrating: false,
        mfaSetupRequired: false,
        surveyPending: false,
        acceptedTermsAt: now,
        createdAt: now,
        updatedAt: now,
      });
      expect(second.collectorsId).toBe(FIRST_COLLECTORS_ID + 1);
      expect(second.navisionId).toBe('C00100002');
      expect(second.id).not.toBe(first.id);
    });

    it('stores the password only as an scrypt hash', async () => {
      const account = await create();
      expect(storedHash(account.id)).toMatch(/^scrypt\$16384\$8\$5\$/);
      expect(storedHash(account.id)).not.toContain(PASSWORD);
    });

    it('sets the flags it is given', async () => {
      const account = await create({
        locale: 'ja-JP',
        flags: { isMigrating: true, mfaSetupRequired: true, surveyPending: true },
      });
      expect(account).toMatchObject({
        locale: 'ja-JP',
        isMigrating: true,
        mfaSetupRequired: true,
        surveyPending: true,
        passwordExpired: false,
        emailVerified: false,
      });
    });

    it('refuses an email that is taken, whatever its case and spacing', async () => {
      const account = await create();
      await expectAccountError(
        create({ email: ` ${account.email.toUpperCase()} ` }),
        'email-taken',
      );
    });

    it('settles racing registrations: one email, one account; collectors ids stay distinct', async () => {
      const email = uniqueEmail();
      const results = await Promise.allSettled([create({ email }), create({ email }), create()]);
      const rejected = results.filter((r) => r.status === 'rejected');
      expect(rejected).toHaveLength(1);
      expect((rejected[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'email-taken' });
      const ids = results
        .flatMap((r) => (r.status === 'fulfilled' ? [r.value.collectorsId] : []))
        .sort((x, y) => x - y);
      expect(ids[1]).toBe((ids[0] ?? 0) + 1);
    });

    it('refuses a weak password with every failed rule', async () => {
      const error = await expectAccountError(create({ password: 'password' }), 'weak-password');
      expect(error.rules).toEqual(['uppercase', 'digit', 'special']);
    });

    // Refusals, as a table: what was wrong, the input, the error code.
    const refusals: ReadonlyArray<readonly [string, Partial<NewAccount>, AccountErrorCode]> = [
      [
        'terms not accepted (§3 acceptedTermsAndConditions)',
        { acceptedTerms: false },
        'terms-not-accepted',
      ],
      ['an email without @', { email: 'collector.example.com' }, 'invalid-email'],
      ['a blank given name', { givenName: '   ' }, 'invalid-name'],
      ['a family name of 101 characters', { familyName: 'x'.repeat(101) }, 'invalid-name'],
      ['an unsupported locale', { locale: 'de-DE' as Locale }, 'invalid-locale'],
      ['a 7-character password', { password: 'Pa1!abc' }, 'weak-password'],
    ];
    for (const [why, input, code] of refusals) {
      it(`refuses ${why}`, async () => {
        const count = () => db.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number };
        const before = count().n;
        await expectAccountError(create(input), code);
        expect(count().n).toBe(before);
      });
    }
  });

  // Issue 15 item 2: a registration that is never verified does not keep the address from its owner.
  describe('createAccount with replaceUnverified (the registration step)', () => {
    it('replaces an unverified account of the address: a new id, the old one gone', async () => {
      const squatter = await create({ givenName: 'Mallory' });
      const owner = await store.createAccount(
        {
          email: ` ${squatter.email.toUpperCase()}`,
          password: 'Own3r-password!',
          locale: 'fr-CA',
          givenName: 'Olivia',
          acceptedTerms: true,
        },
        { replaceUnverified: true },
      );
      expect(owner.id).not.toBe(squatter.id);
      expect(owner).toMatchObject({ email: squatter.email, givenName: 'Olivia', locale: 'fr-CA' });
      expect(await store.findById(squatter.id)).toBeUndefined();
      expect(await store.findByEmail(squatter.email)).toEqual(owner);
    });

    it('never replaces a verified account, and without the option replaces nothing', async () => {
      const verified = await createVerified();
      await expectAccountError(
        store.createAccount(
          { email: verified.email, password: PASSWORD, locale: 'en-US', acceptedTerms: true },
          { replaceUnverified: true },
        ),
        'email-taken',
      );
      const unverified = await create();
      await expectAccountError(create({ email: unverified.email }), 'email-taken');
      expect(await store.findById(verified.id)).toEqual(verified);
      expect(await store.findById(unverified.id)).toEqual(unverified);
    });
  });

  describe('normalizeEmail', () => {
    // The documented email rule, as a table: input, normalized form or undefined (refused).
    const table: ReadonlyArray<readonly [string, string | undefined]> = [
      ['collector@example.com', 'collector@example.com'],
      ['  Collector@Example.Com\t', 'collector@example.com'],
      ['a+tag@sub.example.co.jp', 'a+tag@sub.example.co.jp'],
      ['collector@localhost', undefined],
      ['collector@example.', undefined],
      ['collector@.example', undefined],
      ['@example.com', undefined],
      ['collector@', undefined],
      ['a@b@example.com', undefined],
      ['col lector@example.com', undefined],
      ['collector@exa\u0000mple.com', undefined],
      ['', undefined],
      [`${'a'.repeat(242)}@example.com`, `${'a'.repeat(242)}@example.com`],
      [`${'a'.repeat(243)}@example.com`, undefined],
    ];
    for (const [input, expected] of table) {
      it(`${JSON.stringify(input.slice(0, 30))} -> ${String(expected?.slice(0, 30))}`, () => {
        expect(normalizeEmail(input)).toBe(expected);
      });
    }
  });

  describe('lookups', () => {
    it('finds an account by email (normalized), id and collectors id', async () => {
      const account = await create();
      expect(await store.findByEmail(` ${account.email.toUpperCase()}`)).toEqual(account);
      expect(await store.findById(account.id)).toEqual(account);
      expect(await store.findByCollectorsId(account.collectorsId)).toEqual(account);
    });

    it('answers undefined for unknown or unreadable keys', async () => {
      expect(await store.findByEmail('nobody@example.com')).toBeUndefined();
      expect(await store.findByEmail('not an email')).toBeUndefined();
      expect(await store.findById('u-unknown')).toBeUndefined();
      expect(await store.findByCollectorsId(42)).toBeUndefined();
    });
  });

  describe('checkPassword (§4 Sign-in flow outcomes)', () => {
    it('answers SUCCESS for the right password and INVALID_CREDENTIALS for a wrong one', async () => {
      const account = await createVerified();
      expect(await check(account.id, PASSWORD)).toEqual({ outcome: 'SUCCESS' });
      expect(await check(account.id, 'Passw0rd?')).toEqual({
        outcome: 'INVALID_CREDENTIALS',
        attemptsLeft: LOCKOUT_THRESHOLD - 1,
      });
    });

    it(
      'locks after exactly 5 consecutive failures; then even the right password is LOCKED_OUT',
      async () => {
        const account = await createVerified();
        for (let failure = 1; failure < LOCKOUT_THRESHOLD; failure++) {
          expect(await check(account.id, 'wrong')).toEqual({
            outcome: 'INVALID_CREDENTIALS',
            attemptsLeft: LOCKOUT_THRESHOLD - failure,
          });
          expect((await store.findById(account.id))?.lockedAt).toBeNull();
        }
        now += 1000;
        expect(await check(account.id, 'wrong')).toEqual({ outcome: 'LOCKED_OUT' });
        expect(await store.findById(account.id)).toMatchObject({
          lockedAt: now,
          failedPasswordAttempts: LOCKOUT_THRESHOLD,
        });
        expect(await check(account.id, PASSWORD)).toEqual({ outcome: 'LOCKED_OUT' });
        expect(await check(account.id, 'wrong')).toEqual({ outcome: 'LOCKED_OUT' });
      },
      SCRYPT_HEAVY_TIMEOUT_MS,
    );

    it(
      'keeps the lockout across a restart (a new store on the same file), and unlock clears it',
      async () => {
        const account = await createVerified();
        for (let failure = 0; failure < LOCKOUT_THRESHOLD; failure++) await check(account.id, 'x');

        const reopened = new Database(file);
        try {
          const restarted = new AccountStore(reopened, clock);
          restarted.migrate();
          expect(await restarted.checkPassword(account.id, PASSWORD)).toEqual({
            outcome: 'LOCKED_OUT',
          });
          const unlocked = await restarted.unlock(account.id);
          expect(unlocked).toMatchObject({ lockedAt: null, failedPasswordAttempts: 0 });
          expect(await restarted.checkPassword(account.id, PASSWORD)).toEqual({
            outcome: 'SUCCESS',
          });
        } finally {
          reopened.close();
        }
        expect(await check(account.id, PASSWORD)).toEqual({ outcome: 'SUCCESS' });
      },
      SCRYPT_HEAVY_TIMEOUT_MS,
    );

    it(
      'counts consecutive failures only: a success resets the counter',
      async () => {
        const account = await createVerified();
        for (let failure = 0; failure < LOCKOUT_THRESHOLD - 1; failure++)
          await check(account.id, 'x');
        expect(await check(account.id, PASSWORD)).toEqual({ outcome: 'SUCCESS' });
        expect((await store.findById(account.id))?.failedPasswordAttempts).toBe(0);
        expect(await check(account.id, 'x')).toEqual({
          outcome: 'INVALID_CREDENTIALS',
          attemptsLeft: LOCKOUT_THRESHOLD - 1,
        });
      },
      SCRYPT_HEAVY_TIMEOUT_MS,
    );

    it('answers PASSWORD_EXPIRED only after the right password', async () => {
      const account = await createVerified({ flags: { passwordExpired: true } });
      expect((await check(account.id, 'wrong')).outcome).toBe('INVALID_CREDENTIALS');
      expect(await check(account.id, PASSWORD)).toEqual({ outcome: 'PASSWORD_EXPIRED' });
    });

    it('answers INVALID_CREDENTIALS for an unknown account', async () => {
      expect((await check('u-nobody', PASSWORD)).outcome).toBe('INVALID_CREDENTIALS');
    });

    it('re-hashes an old-parameter hash after a successful sign-in', async () => {
      const account = await createVerified();
      const salt = Buffer.alloc(16, 1);
      const key = scryptSync(PASSWORD, salt, 32, { N: 1024, r: 8, p: 1 });
      const old = `scrypt$1024$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
      db.prepare('UPDATE accounts SET password_hash = ? WHERE id = ?').run(old, account.id);

      expect((await check(account.id, 'wrong')).outcome).toBe('INVALID_CREDENTIALS');
      expect(storedHash(account.id)).toBe(old);
      expect(await check(account.id, PASSWORD)).toEqual({ outcome: 'SUCCESS' });
      expect(storedHash(account.id)).toMatch(/^scrypt\$16384\$8\$5\$/);
      expect(await check(account.id, PASSWORD)).toEqual({ outcome: 'SUCCESS' });
    });
  });

  describe('checkPassword of an unverified address (issue 15 item 2)', () => {
    it('answers EMAIL_UNVERIFIED to the right password, counts a wrong one, and signs in once verified', async () => {
      const account = await create();
      expect(await check(account.id, PASSWORD)).toEqual({ outcome: 'EMAIL_UNVERIFIED' });
      expect(await check(account.id, 'wrong')).toEqual({
        outcome: 'INVALID_CREDENTIALS',
        attemptsLeft: LOCKOUT_THRESHOLD - 1,
      });
      await store.markEmailVerified(account.id);
      expect(await check(account.id, PASSWORD)).toEqual({ outcome: 'SUCCESS' });
    });
  });

  describe('recoverPassword (§4 ResetPassword)', () => {
    it('sets the password and verifies the address; a verified account keeps its names', async () => {
      const account = await createVerified({ givenName: 'Ada', familyName: 'Lovelace' });
      const { account: after, replacedRegistration } = await store.recoverPassword(
        account.id,
        'N3w-password',
      );
      returned.push(after);
      expect(replacedRegistration).toBe(false);
      expect(after).toMatchObject({
        emailVerified: true,
        givenName: 'Ada',
        familyName: 'Lovelace',
      });
      expect(await check(account.id, 'N3w-password')).toEqual({ outcome: 'SUCCESS' });
    });

    it('replaces an unverified registration: verified, names dropped, the old password dead', async () => {
      const squatter = await create({ givenName: 'Mallory', familyName: 'Squatter' });
      const { account: after, replacedRegistration } = await store.recoverPassword(
        squatter.id,
        'Own3r-password!',
      );
      expect(replacedRegistration).toBe(true);
      expect(after).toMatchObject({ emailVerified: true, givenName: null, familyName: null });
      expect((await check(squatter.id, PASSWORD)).outcome).toBe('INVALID_CREDENTIALS');
      expect(await check(squatter.id, 'Own3r-password!')).toEqual({ outcome: 'SUCCESS' });
    });

    it('refuses a reused or weak password and an unknown account, and changes nothing', async () => {
      const account = await create({ givenName: 'Kept' });
      await expectAccountError(store.recoverPassword(account.id, PASSWORD), 'password-reused');
      await expectAccountError(store.recoverPassword(account.id, 'weak'), 'weak-password');
      await expectAccountError(store.recoverPassword('u-nobody', 'N3w-password'), 'not-found');
      expect(await store.findById(account.id)).toMatchObject({
        emailVerified: false,
        givenName: 'Kept',
      });
    });
  });

  describe('setPassword', () => {
    it(
      'changes the password, clears the expiry and the failure counter',
      async () => {
        const account = await createVerified({ flags: { passwordExpired: true } });
        await check(account.id, 'wrong');
        now += 60_000;
        const updated = await store.setPassword(account.id, 'N3w-password');
        returned.push(updated);
        expect(updated).toMatchObject({
          passwordExpired: false,
          failedPasswordAttempts: 0,
          passwordChangedAt: now,
          updatedAt: now,
        });
        expect((await check(account.id, PASSWORD)).outcome).toBe('INVALID_CREDENTIALS');
        expect(await check(account.id, 'N3w-password')).toEqual({ outcome: 'SUCCESS' });
      },
      SCRYPT_HEAVY_TIMEOUT_MS,
    );

    it('refuses the current password, a weak one, and an unknown account', async () => {
      const account = await createVerified();
      await expectAccountError(store.setPassword(account.id, PASSWORD), 'password-reused');
      const weak = await expectAccountError(
        store.setPassword(account.id, 'short'),
        'weak-password',
      );
      expect(weak.rules).toEqual(['minLength', 'uppercase', 'digit', 'special']);
      await expectAccountError(store.setPassword('u-nobody', 'N3w-password'), 'not-found');
    });

    it(
      'does not unlock a locked account (unlocking is its own flow)',
      async () => {
        const account = await createVerified();
        for (let failure = 0; failure < LOCKOUT_THRESHOLD; failure++) await check(account.id, 'x');
        await store.setPassword(account.id, 'N3w-password');
        expect(await check(account.id, 'N3w-password')).toEqual({ outcome: 'LOCKED_OUT' });
      },
      SCRYPT_HEAVY_TIMEOUT_MS,
    );
  });

  describe('profile updates', () => {
    it('marks the email verified, sets flags, accepts terms and sets the locale', async () => {
      const account = await create();
      now += 5000;
      returned.push(await store.markEmailVerified(account.id));
      returned.push(await store.setFlags(account.id, { surveyPending: true, isMigrating: true }));
      const flagged = await store.setFlags(account.id, { isMigrating: false });
      expect(flagged).toMatchObject({
        surveyPending: true,
        isMigrating: false,
        emailVerified: true,
      });
      expect(await store.setFlags(account.id, {})).toEqual(flagged);
      const accepted = await store.acceptTerms(account.id);
      expect(accepted.acceptedTermsAt).toBe(now);
      expect(accepted.updatedAt).toBe(now);
      expect((await store.setLocale(account.id, 'fr-CA')).locale).toBe('fr-CA');
      await expectAccountError(store.setLocale(account.id, 'xx' as Locale), 'invalid-locale');
    });

    // §4 EnterNameInfo, as a table: given name, family name, stored pair or the refusal.
    const names: ReadonlyArray<
      readonly [string, string, readonly [string, string] | 'invalid-name']
    > = [
      ['Ada', 'Lovelace', ['Ada', 'Lovelace']],
      ['  Ada ', '\tLovelace\n', ['Ada', 'Lovelace']],
      ['Émilie', 'du Châtelet', ['Émilie', 'du Châtelet']],
      ['太郎', '山田', ['太郎', '山田']],
      ['x'.repeat(100), 'y', ['x'.repeat(100), 'y']],
      ['x'.repeat(101), 'y', 'invalid-name'],
      ['', 'Lovelace', 'invalid-name'],
      ['Ada', '   ', 'invalid-name'],
      ['Ada\u0000', 'Lovelace', 'invalid-name'],
    ];
    for (const [givenName, familyName, expected] of names) {
      it(`updateName(${JSON.stringify(givenName.slice(0, 12))} (${givenName.length}), ${JSON.stringify(familyName)})`, async () => {
        const account = await create();
        const update = store.updateName(account.id, { givenName, familyName });
        if (expected === 'invalid-name') {
          await expectAccountError(update, 'invalid-name');
        } else {
          expect(await update).toMatchObject({ givenName: expected[0], familyName: expected[1] });
        }
      });
    }

    it('answers not-found for an unknown account', async () => {
      const id = 'u-nobody';
      await expectAccountError(store.unlock(id), 'not-found');
      await expectAccountError(store.markEmailVerified(id), 'not-found');
      await expectAccountError(
        store.updateName(id, { givenName: 'A', familyName: 'B' }),
        'not-found',
      );
      await expectAccountError(store.setFlags(id, { surveyPending: true }), 'not-found');
      await expectAccountError(store.setFlags(id, {}), 'not-found');
      await expectAccountError(store.acceptTerms(id), 'not-found');
      await expectAccountError(store.setLocale(id, 'en-CA'), 'not-found');
    });
  });

  it('never returns the password hash or the password from any method', async () => {
    const account = await create();
    returned.push(
      await store.findById(account.id),
      await store.findByEmail(account.email),
      await store.findByCollectorsId(account.collectorsId),
      await store.unlock(account.id),
    );
    const everything = JSON.stringify(returned);
    expect(returned.length).toBeGreaterThan(20);
    expect(everything).not.toMatch(/scrypt|password_?hash/i);
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain(storedHash(account.id));
  });
});
