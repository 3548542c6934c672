import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDataDir } from '../../test/support/test-config';
import { describeSessionStoreContract } from './session-store.contract';
import { SqliteSessionStore } from './sqlite-session-store';

describeSessionStoreContract('sqlite', () => {
  let now = Date.now();
  const store = new SqliteSessionStore(path.join(tempDataDir(), 'sessions.sqlite'), () => now);
  return Promise.resolve({
    store,
    advance: (seconds: number) => {
      now += seconds * 1000;
      return Promise.resolve();
    },
  });
});

describe(SqliteSessionStore.name, () => {
  it('keeps values across a restart (same file), in WAL mode', async () => {
    const file = path.join(tempDataDir(), 'sessions.sqlite');
    const first = new SqliteSessionStore(file);
    await first.set('session:a', 'alive', 3600);
    await first.close();
    expect(fs.existsSync(file)).toBe(true);
    const second = new SqliteSessionStore(file);
    expect(await second.get('session:a')).toBe('alive');
    await second.close();
  });

  it('reports a failure as a rejected promise, not a throw', async () => {
    const store = new SqliteSessionStore(path.join(tempDataDir(), 'sessions.sqlite'));
    await store.close();
    await expect(store.get('k')).rejects.toThrow();
    await expect(store.ping()).rejects.toThrow();
  });
});
