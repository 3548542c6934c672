import * as path from 'node:path';
import { RunningRedis, startRedis } from '../../../test/support/redis-server';
import { tempDataDir } from '../../../test/support/test-config';
import { RedisSessionStore } from '../../store/redis-session-store';
import { SqliteSessionStore } from '../../store/sqlite-session-store';
import { RETIRED_KEY_GRACE_MS, SigningKeys } from './signing-keys';

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

describe(SigningKeys.name, () => {
  it('creates a signing key and a published next key on first load, and keeps them across reopen', async () => {
    const file = path.join(tempDataDir(), 'sessions.sqlite');
    const store = new SqliteSessionStore(file);
    const first = await new SigningKeys(store).load();
    expect(first.keys).toHaveLength(2);
    for (const k of first.keys)
      expect(k).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', d: expect.any(String) });
    await store.close();
    const reopened = new SqliteSessionStore(file);
    const again = await new SigningKeys(reopened).load();
    expect(again.keys.map((k) => k.kid)).toEqual(first.keys.map((k) => k.kid));
    await reopened.close();
  });

  it('rotation signs with the key that was already published, keeps the old one published, and publishes a new next', async () => {
    let now = Date.now();
    const store = new SqliteSessionStore(path.join(tempDataDir(), 'sessions.sqlite'));
    const keys = new SigningKeys(store, () => now);
    const before = await keys.load();
    const [current, next] = before.keys.map((k) => k.kid);
    await keys.rotate();
    const after = (await keys.jwks()).keys.map((k) => k.kid);
    expect(after[0]).toBe(next); // the signer (first) was published before it signs
    expect(after).toContain(current); // retired, still verifiable
    expect(after).toHaveLength(3);
    expect(after.filter((kid) => kid !== current && kid !== next)).toHaveLength(1); // the new next
    now += RETIRED_KEY_GRACE_MS + 1;
    expect((await keys.jwks()).keys.map((k) => k.kid)).not.toContain(current);
    await store.close();
  });

  it('keeps a generated secret stable', async () => {
    const store = new SqliteSessionStore(path.join(tempDataDir(), 'sessions.sqlite'));
    const keys = new SigningKeys(store);
    expect(await keys.secret('cookie-key-1')).toBe(await keys.secret('cookie-key-1'));
    expect(await keys.secret('cookie-key-1')).not.toBe(await keys.secret('other'));
    await store.close();
  });

  it('gives instances that start together on one Redis the same keys and secrets', async () => {
    const prefix = `keys-test-${process.pid}:`;
    const stores = [0, 1, 2].map(() => new RedisSessionStore(redis.url, prefix));
    try {
      const rings = await Promise.all(stores.map((s) => new SigningKeys(s).load()));
      const kids = rings.map((r) => r.keys.map((k) => k.kid).join());
      expect(new Set(kids).size).toBe(1);
      const secrets = await Promise.all(stores.map((s) => new SigningKeys(s).secret('cookie')));
      expect(new Set(secrets).size).toBe(1);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});
