import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDataDir } from '../../../test/support/test-config';
import { SqliteOidcStorage } from './sqlite-oidc-adapter';

describe(SqliteOidcStorage.name, () => {
  let now = Date.now();
  let storage: SqliteOidcStorage;
  beforeEach(() => {
    const dir = tempDataDir();
    fs.mkdirSync(dir, { recursive: true });
    storage = new SqliteOidcStorage(new Database(path.join(dir, 'idp.sqlite')), () => now);
  });

  it('stores, finds, consumes and destroys per model', async () => {
    const codes = storage.adapterFor('AuthorizationCode');
    const sessions = storage.adapterFor('Session');
    await codes.upsert('c1', { grantId: 'g1', iat: 1 }, 60);
    expect(await codes.find('c1')).toEqual({ grantId: 'g1', iat: 1 });
    expect(await sessions.find('c1')).toBeUndefined();
    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toEqual(expect.any(Number));
    await codes.destroy('c1');
    expect(await codes.find('c1')).toBeUndefined();
  });

  it('finds sessions by uid and forgets expired entries', async () => {
    const sessions = storage.adapterFor('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'a' }, 10);
    expect(await sessions.findByUid('u1')).toEqual({ uid: 'u1', accountId: 'a' });
    now += 11_000;
    expect(await sessions.findByUid('u1')).toBeUndefined();
    expect(storage.purgeExpired()).toBe(1);
  });

  it('revokes every artefact of a grant across models', async () => {
    const rt = storage.adapterFor('RefreshToken');
    const at = storage.adapterFor('AccessToken');
    await rt.upsert('r1', { grantId: 'g9' }, 3600);
    await at.upsert('a1', { grantId: 'g9' }, 3600);
    await at.upsert('a2', { grantId: 'other' }, 3600);
    await rt.revokeByGrantId('g9');
    expect(await rt.find('r1')).toBeUndefined();
    expect(await at.find('a1')).toBeUndefined();
    expect(await at.find('a2')).toEqual({ grantId: 'other' });
  });
});
