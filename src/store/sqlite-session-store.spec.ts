import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDataDir } from '../../test/support/test-config';
import { describeSessionStoreContract } from './session-store.contract';
import { OneTimeStore } from './one-time-store';
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

  it('keeps the sets of a file written before sets had a lifetime row (kv_sets)', async () => {
    const file = path.join(tempDataDir(), 'sessions.sqlite');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const old = new Database(file);
    old.exec(`CREATE TABLE kv_members (key TEXT NOT NULL, member TEXT NOT NULL,
      expires_at INTEGER NOT NULL, PRIMARY KEY (key, member)) WITHOUT ROWID`);
    const insert = old.prepare('INSERT INTO kv_members VALUES (?, ?, ?)');
    insert.run('sessions-of:x', 'a', Date.now() + 3_600_000);
    insert.run('sessions-of:x', 'b', Date.now() + 3_600_000);
    insert.run('sessions-of:gone', 'c', Date.now() - 1000);
    old.close();
    const store = new SqliteSessionStore(file);
    expect((await store.members('sessions-of:x')).sort()).toEqual(['a', 'b']);
    expect(await store.members('sessions-of:gone')).toEqual([]);
    await store.close();
  });

  it('keeps rate-limit counts across a restart, within their window', async () => {
    const file = path.join(tempDataDir(), 'sessions.sqlite');
    let now = Date.now();
    const first = new SqliteSessionStore(file, () => now);
    for (let i = 0; i < 3; i++) await first.increment('ratelimit:a', 60);
    await first.close();
    const second = new SqliteSessionStore(file, () => now);
    expect(await second.increment('ratelimit:a', 60)).toBe(4);
    now += 61_000;
    expect(await second.increment('ratelimit:a', 60)).toBe(1);
    await second.close();
  });

  it('serves reads that agree with every write, and writes them through to the file', async () => {
    const file = path.join(tempDataDir(), 'sessions.sqlite');
    const store = new SqliteSessionStore(file);
    await store.set('session:b', 'one', 3600);
    expect(await store.get('session:b')).toBe('one');
    await store.set('session:b', 'two', 3600);
    expect(await store.take('session:b')).toBe('two');
    expect(await store.get('session:b')).toBeUndefined();
    await store.set('session:c', 'kept', 3600);
    expect(await store.get('session:c')).toBe('kept');
    // Another reader of the file sees the write without any close or flush.
    const reader = new Database(file, { readonly: true });
    const row = reader.prepare('SELECT value FROM kv WHERE key = ?').get('session:c') as
      { value: string } | undefined;
    reader.close();
    expect(row?.value).toBe('kept');
    await store.close();
  });

  it('keeps no read copy of a value set to be taken once (SetOptions.takenOnce)', async () => {
    const file = path.join(tempDataDir(), 'sessions.sqlite');
    const store = new SqliteSessionStore(file);
    await store.set('session:g', 'kept', 3600);
    await store.set('login:h', 'once', 600, { takenOnce: true });
    await store.writeAll([
      { op: 'set', key: 'login:i', value: 'once', ttlSeconds: 600, takenOnce: true },
    ]);
    // A copy read before is dropped when the key is set again to be taken once.
    await store.set('login:j', 'before', 600);
    expect(await store.get('login:j')).toBe('before');
    await store.set('login:j', 'once', 600, { takenOnce: true });
    // What OneTimeStore hands out, alone or in a caller's batch, is set so.
    const states = new OneTimeStore<string>(store, 'state', 600);
    const issued = await states.issue('once');
    const prepared = states.prepare('once');
    await store.writeAll([prepared.write]);
    // Another connection changes every value in the file: only a read served from a copy still
    // says what the store wrote.
    const other = new Database(file);
    other.prepare(`UPDATE kv SET value = '"changed"'`).run();
    other.close();
    const changed = '"changed"';
    expect(await store.get('session:g')).toBe('kept');
    expect(await store.get('login:h')).toBe(changed);
    expect(await store.get('login:i')).toBe(changed);
    expect(await store.get('login:j')).toBe(changed);
    expect(await states.peek(issued)).toBe('changed');
    expect(await states.take(prepared.key)).toBe('changed');
    expect(await store.take('login:h')).toBe(changed);
    expect(await store.get('login:h')).toBeUndefined();
    await store.close();
  });

  it('makes a batch all or nothing: one the file refuses part-way leaves no trace, not even in the read cache', async () => {
    const file = path.join(tempDataDir(), 'sessions.sqlite');
    const store = new SqliteSessionStore(file);
    await store.set('session:e', 'old', 3600);
    await store.addMember('sessions-of:e', 'kept', 3600);
    // Both read once, so the read caches hold them.
    expect(await store.get('session:e')).toBe('old');
    expect(await store.members('sessions-of:e')).toEqual(['kept']);
    // The file refuses the batch's last write, as a full disk or an I/O error would.
    const other = new Database(file);
    other.exec(`CREATE TRIGGER refuse AFTER INSERT ON kv_members WHEN NEW.member = 'refused'
      BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    await expect(
      store.writeAll([
        { op: 'set', key: 'session:e', value: 'new', ttlSeconds: 3600 },
        { op: 'set', key: 'session:f', value: 'new', ttlSeconds: 3600 },
        { op: 'removeMember', key: 'sessions-of:e', member: 'kept' },
        { op: 'addMember', key: 'sessions-of:e', member: 'refused', ttlSeconds: 3600 },
      ]),
    ).rejects.toThrow(/session store \(sqlite\) refused the operation: SQLITE_CONSTRAINT/);
    expect(await store.get('session:e')).toBe('old');
    expect(await store.get('session:f')).toBeUndefined();
    expect(await store.members('sessions-of:e')).toEqual(['kept']);
    const rows = other.prepare("SELECT key, value FROM kv WHERE key LIKE 'session:%'").all();
    expect(rows).toEqual([{ key: 'session:e', value: 'old' }]);
    other.close();
    await store.close();
  });

  it('serves set listings that agree with every write, and writes them through to the file', async () => {
    const file = path.join(tempDataDir(), 'sessions.sqlite');
    const store = new SqliteSessionStore(file);
    const reader = new Database(file, { readonly: true });
    const inFile = (key: string) =>
      (
        reader.prepare('SELECT member FROM kv_members WHERE key = ? ORDER BY member').all(key) as {
          member: string;
        }[]
      ).map((row) => row.member);
    await store.addMember('sessions-of:g', 'a', 3600);
    expect(await store.members('sessions-of:g')).toEqual(['a']);
    await store.addMember('sessions-of:g', 'b', 3600);
    await store.removeMember('sessions-of:g', 'a');
    expect(await store.members('sessions-of:g')).toEqual(['b']);
    expect(inFile('sessions-of:g')).toEqual(['b']);
    await store.writeAll([
      { op: 'addMember', key: 'sessions-of:g', member: 'c', ttlSeconds: 3600 },
      { op: 'removeMember', key: 'sessions-of:g', member: 'b' },
    ]);
    expect(await store.members('sessions-of:g')).toEqual(['c']);
    expect(inFile('sessions-of:g')).toEqual(['c']);
    await store.delete('sessions-of:g');
    expect(await store.members('sessions-of:g')).toEqual([]);
    expect(inFile('sessions-of:g')).toEqual([]);
    // A restart reads the file again, and finds what the copy said.
    await store.addMember('sessions-of:g', 'd', 3600);
    await store.close();
    const again = new SqliteSessionStore(file);
    expect(await again.members('sessions-of:g')).toEqual(['d']);
    await again.close();
    reader.close();
  });

  it('reports a failure as a rejected promise, not a throw', async () => {
    const store = new SqliteSessionStore(path.join(tempDataDir(), 'sessions.sqlite'));
    await store.set('session:d', 'v', 60);
    await store.close();
    await expect(store.get('session:d')).rejects.toThrow();
    await expect(store.get('k')).rejects.toThrow();
    await expect(store.ping()).rejects.toThrow();
  });
});
