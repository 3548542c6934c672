import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDataDir } from '../../../test/support/test-config';
import { RETIRED_KEY_GRACE_MS, SigningKeys } from './signing-keys';

function openDb(): { db: Database.Database; file: string } {
  const dir = tempDataDir();
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'idp.sqlite');
  return { db: new Database(file), file };
}

describe(SigningKeys.name, () => {
  it('creates a signing key and a published next key on first load, and keeps them across reopen', async () => {
    const { db, file } = openDb();
    const first = await new SigningKeys(db).load();
    expect(first.keys).toHaveLength(2);
    for (const k of first.keys)
      expect(k).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', d: expect.any(String) });
    db.close();
    const again = await new SigningKeys(new Database(file)).load();
    expect(again.keys.map((k) => k.kid)).toEqual(first.keys.map((k) => k.kid));
  });

  it('rotation signs with the key that was already published, keeps the old one published, and publishes a new next', async () => {
    let now = Date.now();
    const { db } = openDb();
    const keys = new SigningKeys(db, () => now);
    const before = await keys.load();
    const [current, next] = before.keys.map((k) => k.kid);
    await keys.rotate();
    const after = keys.jwks().keys.map((k) => k.kid);
    expect(after[0]).toBe(next); // the signer (first) was published before it signs
    expect(after).toContain(current); // retired, still verifiable
    expect(after).toHaveLength(3);
    expect(after.filter((kid) => kid !== current && kid !== next)).toHaveLength(1); // the new next
    now += RETIRED_KEY_GRACE_MS + 1;
    expect(keys.jwks().keys.map((k) => k.kid)).not.toContain(current);
  });

  it('keeps a generated secret stable', () => {
    const { db } = openDb();
    const keys = new SigningKeys(db);
    expect(keys.secret('cookie-key-1')).toBe(keys.secret('cookie-key-1'));
    expect(keys.secret('cookie-key-1')).not.toBe(keys.secret('other'));
  });
});
