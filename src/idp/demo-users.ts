import type { AccountStore, NewAccount } from './accounts/account-store';
import { TOTP } from 'otpauth';
import type { FactorStore } from './accounts/factor-store';
import { LOCKOUT_THRESHOLD } from './accounts/account-store';

/** Every demo account uses this password (shown in the README; local and dev only). */
export const DEMO_PASSWORD = 'Collect0rs!Demo';

/** A fixed TOTP secret for the demo TOTP user, so a developer can add it to an authenticator app. */
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

export interface DemoUser extends Omit<NewAccount, 'password' | 'acceptedTerms'> {
  readonly totp?: boolean;
  readonly locked?: boolean;
}

/** Seeded demo users (issue 3, item 8): one per situation the sign-in steps handle. */
export const DEMO_USERS: readonly DemoUser[] = [
  {
    email: 'collector@example.com',
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

/** Creates the demo users that do not exist yet; safe to run at every start. */
export async function seedDemoUsers(accounts: AccountStore, factors: FactorStore): Promise<number> {
  let created = 0;
  for (const user of DEMO_USERS) {
    if (await accounts.findByEmail(user.email)) continue;
    const { totp, locked, ...account } = user;
    const record = await accounts.createAccount({
      ...account,
      password: DEMO_PASSWORD,
      acceptedTerms: true,
    });
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
    // Locked the way a collector gets locked: by repeated wrong passwords (§5, LOCKED_OUT).
    if (locked)
      for (let i = 0; i < LOCKOUT_THRESHOLD; i++)
        await accounts.checkPassword(record.id, 'wrong-password');
    created++;
  }
  return created;
}
