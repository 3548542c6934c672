import type { AccountStore, NewAccount } from './accounts/account-store';
import { TOTP } from 'otpauth';
import type { FactorStore } from './accounts/factor-store';

/** Every demo account uses this password (shown in the README; local and dev only). */
export const DEMO_PASSWORD = 'Collect0rs!Demo';

/**
 * DEMO_PASSWORD's scrypt hash at the production parameters (N=2^14, r=8, p=5), made once with
 * hashPassword and kept here: the password is published anyway, and hashing it for each of the eight
 * demo users cost 150-240 ms of CPU apiece at every start on an empty data folder, which every test
 * app start is (issue 34 item 1). demo-users.spec checks that it verifies.
 */
export const DEMO_PASSWORD_HASH =
  'scrypt$16384$8$5$cviJ21xCzTB9Oi9rQoY7FA$E4qhv9ETqKgyGREI909MU31eowfmvlP_90E_v23YbJ8';

/** The demo user with no pending step: the one the start-up line and the README offer first. */
export const DEMO_EMAIL = 'collector@example.com';

/** A fixed TOTP secret for the demo TOTP user, so a developer can add it to an authenticator app. */
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

export interface DemoUser extends Omit<NewAccount, 'password' | 'acceptedTerms'> {
  readonly totp?: boolean;
  readonly locked?: boolean;
}

/** Seeded demo users (issue 3, item 8): one per situation the sign-in steps handle. */
export const DEMO_USERS: readonly DemoUser[] = [
  {
    email: DEMO_EMAIL,
    locale: 'en-US',
    givenName: 'Casey',
    familyName: 'Collector',
    flags: { emailVerified: true },
  },
  {
    email: 'totp@example.com',
    locale: 'en-US',
    givenName: 'Taylor',
    familyName: 'Totp',
    flags: { emailVerified: true },
    totp: true,
  },
  {
    email: 'mfa-setup@example.com',
    locale: 'en-US',
    givenName: 'Morgan',
    familyName: 'Setup',
    flags: { emailVerified: true, mfaSetupRequired: true },
  },
  {
    email: 'expired@example.com',
    locale: 'en-CA',
    givenName: 'Emery',
    familyName: 'Expired',
    flags: { emailVerified: true, passwordExpired: true },
  },
  {
    email: 'locked@example.com',
    locale: 'en-US',
    givenName: 'Lee',
    familyName: 'Locked',
    flags: { emailVerified: true },
    locked: true,
  },
  {
    email: 'migrating@example.com',
    locale: 'fr-CA',
    givenName: 'Maxime',
    familyName: 'Migration',
    flags: { emailVerified: true, isMigrating: true },
  },
  {
    email: 'survey@example.com',
    locale: 'en-US',
    givenName: 'Sam',
    familyName: 'Survey',
    flags: { emailVerified: true, surveyPending: true },
  },
  {
    email: 'japan@example.com',
    locale: 'ja-JP',
    givenName: '健',
    familyName: '山田',
    flags: { emailVerified: true },
  },
];

/**
 * The start-up's last line with the embedded IdP (issue 33 item 4): where to open the product and
 * whom to sign in as, so a newcomer after `npm start` needs nothing else.
 */
export function demoInvitation(publicUrl: string): string {
  return (
    `ready: open ${publicUrl}/ and sign in as ${DEMO_EMAIL} with the password ${DEMO_PASSWORD} ` +
    `(README "Run it" lists the other demo users)`
  );
}

/** Creates the demo users that do not exist yet; safe to run at every start. */
export async function seedDemoUsers(accounts: AccountStore, factors: FactorStore): Promise<number> {
  let created = 0;
  for (const user of DEMO_USERS) {
    if (await accounts.findByEmail(user.email)) continue;
    const { totp, locked, ...account } = user;
    const record = await accounts.createAccount(
      { ...account, password: DEMO_PASSWORD, acceptedTerms: true },
      { passwordHash: DEMO_PASSWORD_HASH },
    );
    if (totp) {
      const enrolment = await factors.startEnrolment(record.id, 'totp', {
        email: record.email,
        secret: DEMO_TOTP_SECRET,
      });
      await factors.confirmEnrolment(
        record.id,
        enrolment.factor.id,
        new TOTP({ secret: DEMO_TOTP_SECRET }).generate(),
      );
    }
    // Locked as repeated wrong passwords lock a collector (§5, LOCKED_OUT), minus the hashing.
    if (locked) await accounts.lockOut(record.id);
    created++;
  }
  return created;
}
