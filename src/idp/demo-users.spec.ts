import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { AccountStore } from './accounts/account-store';
import { FactorStore } from './accounts/factor-store';
import { needsRehash, verifyPassword } from './accounts/password-hasher';
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH, DEMO_USERS, seedDemoUsers } from './demo-users';

describe('the demo users (issue 3 item 8, seeded without hashing: issue 34 item 1)', () => {
  it('the shipped hash is DEMO_PASSWORD’s, at the production parameters', async () => {
    await expect(verifyPassword(DEMO_PASSWORD, DEMO_PASSWORD_HASH)).resolves.toBe(true);
    await expect(verifyPassword('Collect0rs!Demo2', DEMO_PASSWORD_HASH)).resolves.toBe(false);
    expect(needsRehash(DEMO_PASSWORD_HASH)).toBe(false);
  });

  it('are seeded once, sign in with the demo password, and the locked one is locked out', async () => {
    const db = new Database(path.join(os.tmpdir(), `demo-${randomUUID()}.sqlite`));
    try {
      const accounts = new AccountStore(db);
      accounts.migrate();
      const factors = new FactorStore(db);
      factors.migrate();
      await expect(seedDemoUsers(accounts, factors)).resolves.toBe(DEMO_USERS.length);
      await expect(seedDemoUsers(accounts, factors)).resolves.toBe(0);
      const collector = await accounts.findByEmail('collector@example.com');
      const locked = await accounts.findByEmail('locked@example.com');
      await expect(accounts.checkPassword(collector?.id ?? '', DEMO_PASSWORD)).resolves.toEqual({
        outcome: 'SUCCESS',
      });
      await expect(accounts.checkPassword(locked?.id ?? '', DEMO_PASSWORD)).resolves.toEqual({
        outcome: 'LOCKED_OUT',
      });
    } finally {
      db.close();
    }
  });
});
