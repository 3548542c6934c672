import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { Secret, TOTP, URI } from 'otpauth';
import { FactorError, FactorErrorCode, FactorStore } from './factor-store';

const file = path.join(os.tmpdir(), `factors-${randomUUID()}.sqlite`);
const STEP_MS = 30_000;
/** 5 s into a time step, so ±1 step is unambiguous. */
let now = 56_666_667 * STEP_MS + 5_000;
const clock = (): number => now;
let db: Database.Database;
let store: FactorStore;
const returned: unknown[] = [];
const secrets: string[] = [];

let counter = 0;
const newAccountId = (): string => `u-factor-test-${++counter}`;

/** The code an authenticator app shows at `timestamp` (otpauth, independently of the store). */
function codeAt(secret: string, timestamp: number): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp,
  });
}

async function enrolTotp(accountId = newAccountId()) {
  const enrolment = await store.startEnrolment(accountId, 'totp', { email: 'ada@example.com' });
  const secret = enrolment.totp?.secret ?? '';
  secrets.push(secret);
  const factor = await store.confirmEnrolment(accountId, enrolment.factor.id, codeAt(secret, now));
  returned.push(factor);
  return { accountId, secret, factor };
}

async function expectFactorError(promise: Promise<unknown>, code: FactorErrorCode) {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FactorError);
  expect((error as FactorError).code).toBe(code);
}

beforeAll(() => {
  db = new Database(file);
  store = new FactorStore(db, clock);
  store.migrate();
  store.migrate(); // idempotent
});

afterAll(() => {
  db.close();
});

describe(FactorStore.name, () => {
  describe('TOTP enrolment (§4 SetupMfa)', () => {
    it('returns the secret, an otpauth URI for issuer Collectors labelled with the email, and a QR SVG', async () => {
      const accountId = newAccountId();
      const { factor, totp } = await store.startEnrolment(accountId, 'totp', {
        email: 'ada@example.com',
      });
      expect(factor).toEqual({
        id: expect.stringMatching(/^f[a-z2-7]{20}$/),
        accountId,
        type: 'totp',
        phone: null,
        verified: false,
        createdAt: now,
        lastUsedStep: null,
      });
      expect(totp?.secret).toMatch(/^[A-Z2-7]{32}$/); // 20 bytes, RFC 4226's recommended size
      const parsed = URI.parse(totp?.otpauthUri ?? '');
      expect(parsed).toBeInstanceOf(TOTP);
      expect(parsed).toMatchObject({
        issuer: 'Collectors',
        label: 'ada@example.com',
        algorithm: 'SHA1',
        digits: 6,
        period: 30,
      });
      expect(parsed.secret.base32).toBe(totp?.secret);
      expect(totp?.qrSvg).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(await store.listVerified(accountId)).toEqual([]);
    });

    it('needs the email for the label', async () => {
      await expectFactorError(store.startEnrolment(newAccountId(), 'totp'), 'email-required');
    });

    it('confirms with a current code, which becomes a verified factor without its secret', async () => {
      const accountId = newAccountId();
      const { factor, totp } = await store.startEnrolment(accountId, 'totp', { email: 'a@b.co' });
      const secret = totp?.secret ?? '';
      await expectFactorError(
        store.confirmEnrolment(accountId, factor.id, codeAt(secret, now + 10 * STEP_MS)),
        'invalid-code',
      );
      await expectFactorError(store.confirmEnrolment(accountId, factor.id), 'invalid-code');
      await expectFactorError(
        store.confirmEnrolment('someone-else', factor.id, codeAt(secret, now)),
        'not-found',
      );
      const confirmed = await store.confirmEnrolment(accountId, factor.id, codeAt(secret, now));
      expect(confirmed).toMatchObject({ id: factor.id, verified: true });
      expect(confirmed.lastUsedStep).toBe(Math.floor(now / STEP_MS));
      expect(await store.listVerified(accountId)).toEqual([confirmed]);
      // The enrolment code is used up: it cannot sign in as well.
      expect(await store.verifyTotp(accountId, codeAt(secret, now))).toBe(false);
      await expectFactorError(
        store.confirmEnrolment(accountId, factor.id, codeAt(secret, now)),
        'not-found',
      );
    });

    it('replaces an unfinished enrolment of the same type', async () => {
      const accountId = newAccountId();
      const first = await store.startEnrolment(accountId, 'totp', { email: 'a@b.co' });
      const second = await store.startEnrolment(accountId, 'totp', { email: 'a@b.co' });
      expect(second.totp?.secret).not.toBe(first.totp?.secret);
      await expectFactorError(
        store.confirmEnrolment(accountId, first.factor.id, codeAt(first.totp?.secret ?? '', now)),
        'not-found',
      );
      const confirmed = await store.confirmEnrolment(
        accountId,
        second.factor.id,
        codeAt(second.totp?.secret ?? '', now),
      );
      expect(confirmed.verified).toBe(true);
    });

    it('replaces the verified authenticator when a new one is confirmed', async () => {
      const { accountId, secret: oldSecret } = await enrolTotp();
      now += 10 * STEP_MS;
      const { secret: newSecret, factor } = await enrolTotp(accountId);
      expect(await store.listVerified(accountId)).toEqual([factor]);
      now += 10 * STEP_MS;
      expect(await store.verifyTotp(accountId, codeAt(oldSecret, now))).toBe(false);
      expect(await store.verifyTotp(accountId, codeAt(newSecret, now))).toBe(true);
    });
  });

  describe('verifyTotp (§4 VerifyFactor)', () => {
    // Clock drift, as a table: where the app's clock is, in steps from ours, and whether it passes.
    const window: ReadonlyArray<readonly [number, boolean]> = [
      [-2, false],
      [-1, true],
      [0, true],
      [1, true],
      [2, false],
    ];
    for (const [offset, accepted] of window) {
      it(`${accepted ? 'accepts' : 'refuses'} a code ${offset} step(s) away`, async () => {
        const { accountId, secret } = await enrolTotp();
        now += 10 * STEP_MS;
        expect(await store.verifyTotp(accountId, codeAt(secret, now + offset * STEP_MS))).toBe(
          accepted,
        );
      });
    }

    it('refuses a replayed code, in the same step and within the window afterwards', async () => {
      const { accountId, secret } = await enrolTotp();
      now += 10 * STEP_MS;
      const code = codeAt(secret, now);
      expect(await store.verifyTotp(accountId, code)).toBe(true);
      expect(await store.verifyTotp(accountId, code)).toBe(false);
      now += 20_000; // still the same step
      expect(await store.verifyTotp(accountId, code)).toBe(false);
      now += STEP_MS; // the code is now one step old: inside the window, but used
      expect(await store.verifyTotp(accountId, code)).toBe(false);
      expect(await store.verifyTotp(accountId, codeAt(secret, now))).toBe(true);
    });

    it('refuses an older code once a newer one was accepted', async () => {
      const { accountId, secret } = await enrolTotp();
      now += 10 * STEP_MS;
      expect(await store.verifyTotp(accountId, codeAt(secret, now + STEP_MS))).toBe(true);
      expect(await store.verifyTotp(accountId, codeAt(secret, now))).toBe(false);
    });

    it('remembers the used step across a restart (a new store on the same file)', async () => {
      const { accountId, secret } = await enrolTotp();
      now += 10 * STEP_MS;
      const code = codeAt(secret, now);
      expect(await store.verifyTotp(accountId, code)).toBe(true);
      const reopened = new Database(file);
      try {
        const restarted = new FactorStore(reopened, clock);
        restarted.migrate();
        expect(await restarted.verifyTotp(accountId, code)).toBe(false);
      } finally {
        reopened.close();
      }
    });

    it('refuses malformed codes, other accounts and unfinished enrolments', async () => {
      const { accountId, secret } = await enrolTotp();
      now += 10 * STEP_MS;
      const code = codeAt(secret, now);
      for (const bad of [
        '',
        '12345',
        '1234567',
        'abcdef',
        ` ${code}`,
        `${code} `,
        '１２３４５６',
      ]) {
        expect(await store.verifyTotp(accountId, bad)).toBe(false);
      }
      expect(await store.verifyTotp(newAccountId(), code)).toBe(false);
      const pendingAccount = newAccountId();
      const pending = await store.startEnrolment(pendingAccount, 'totp', { email: 'a@b.co' });
      expect(await store.verifyTotp(pendingAccount, codeAt(pending.totp?.secret ?? '', now))).toBe(
        false,
      );
      expect(await store.verifyTotp(accountId, code)).toBe(true);
    });
  });

  describe('sms and email factors (§4 SetupPhone)', () => {
    // E.164, as a table: the phone given, whether it is accepted.
    const phones: ReadonlyArray<readonly [string | undefined, boolean]> = [
      ['+14155552671', true],
      ['+819012345678', true],
      ['+12345678', true], // 8 digits
      ['+123456789012345', true], // 15 digits
      ['+1234567', false], // 7 digits
      ['+1234567890123456', false], // 16 digits
      ['14155552671', false], // no +
      ['+1 415 555 2671', false],
      ['+1-415-555-2671', false],
      ['+04155552671', false], // no country code starts with 0
      ['+１４１５５５５２６７１', false], // full-width digits
      ['', false],
      [undefined, false],
    ];
    for (const [phone, accepted] of phones) {
      it(`${accepted ? 'accepts' : 'refuses'} the phone ${JSON.stringify(phone)}`, async () => {
        const enrolment = store.startEnrolment(newAccountId(), 'sms', phone ? { phone } : {});
        if (accepted) {
          const { factor, totp } = await enrolment;
          expect(factor).toMatchObject({ type: 'sms', phone, verified: false });
          expect(totp).toBeUndefined();
        } else {
          await expectFactorError(enrolment, 'invalid-phone');
        }
      });
    }

    it('confirms an sms enrolment without a code (OneTimeCodes checked it) and lists it', async () => {
      const accountId = newAccountId();
      const { factor } = await store.startEnrolment(accountId, 'sms', { phone: '+14155552671' });
      const confirmed = await store.confirmEnrolment(accountId, factor.id);
      expect(confirmed).toMatchObject({ verified: true, lastUsedStep: null });
      now += 1000;
      const email = await store.startEnrolment(accountId, 'email');
      expect(email.factor.phone).toBeNull();
      await store.confirmEnrolment(accountId, email.factor.id);
      expect((await store.listVerified(accountId)).map((f) => f.type)).toEqual(['sms', 'email']);
    });

    it('replaces the verified phone when a new one is confirmed', async () => {
      const accountId = newAccountId();
      const old = await store.startEnrolment(accountId, 'sms', { phone: '+14155552671' });
      await store.confirmEnrolment(accountId, old.factor.id);
      const fresh = await store.startEnrolment(accountId, 'sms', { phone: '+14155550000' });
      // Until the new phone is confirmed, the old one still works.
      expect((await store.listVerified(accountId)).map((f) => f.phone)).toEqual(['+14155552671']);
      await store.confirmEnrolment(accountId, fresh.factor.id);
      expect((await store.listVerified(accountId)).map((f) => f.phone)).toEqual(['+14155550000']);
    });
  });

  describe('remove', () => {
    it("removes one of the collector's own factors only", async () => {
      const { accountId, factor, secret } = await enrolTotp();
      expect(await store.remove(newAccountId(), factor.id)).toBe(false);
      expect(await store.remove(accountId, factor.id)).toBe(true);
      expect(await store.remove(accountId, factor.id)).toBe(false);
      expect(await store.listVerified(accountId)).toEqual([]);
      now += 10 * STEP_MS;
      expect(await store.verifyTotp(accountId, codeAt(secret, now))).toBe(false);
    });
  });

  it('never returns a TOTP secret outside the enrolment result', async () => {
    const { accountId } = await enrolTotp();
    returned.push(await store.listVerified(accountId));
    const everything = JSON.stringify(returned);
    expect(secrets.length).toBeGreaterThan(5);
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/secret|otpauth/i);
  });
});
