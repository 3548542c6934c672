import type { Logger } from '@nestjs/common';
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDataDir } from '../../test/support/test-config';
import { SqliteSessionStore } from './sqlite-session-store';
import { WalCheckpointer } from './wal-checkpointer';

const sizeOf = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/** A local poll: test/support/process-app.ts has one, but a spec under src/store importing it would
 * close a folder cycle (src/store, test/support, src/idp), which lint:deps refuses. */
async function eventually(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until;)
    if (check()) return;
    else await new Promise((resolve) => setTimeout(resolve, 20));
  throw new Error(`not within ${ms} ms: ${what}`);
}

function spyLogger() {
  const lines: string[] = [];
  const logger = {
    warn: (line: string) => lines.push(`warn ${line}`),
    log: (line: string) => lines.push(`log ${line}`),
  } as unknown as Logger;
  return { lines, logger };
}

/** A brand hop's writes, as the store receives them: the session's batch, then the login state. */
async function hop(store: SqliteSessionStore, i: number): Promise<void> {
  await store.writeAll([
    { op: 'set', key: `session:${i}`, value: 'r'.repeat(1_200), ttlSeconds: 600 },
    { op: 'addMember', key: `sessions-of:${i % 50}`, member: String(i), ttlSeconds: 600 },
    { op: 'delete', key: `session:${i - 1}` },
  ]);
  await store.set(`login-state:${i}`, 's'.repeat(900), 600);
}

describe(WalCheckpointer.name, () => {
  it('copies committed pages into the database file without a checkpoint on the request thread', async () => {
    const file = path.join(tempDataDir(), 'sessions.sqlite');
    const store = new SqliteSessionStore(file);
    const before = sizeOf(file);
    // 20 hops append a few hundred pages to the log: below the 1,000 at which SQLite would copy
    // them on the request thread, so only the worker can have put them in the file.
    for (let i = 0; i < 20; i++) await hop(store, i);
    expect(sizeOf(`${file}-wal`)).toBeLessThan(1_000 * 4_096);
    await eventually(() => sizeOf(file) > before + 40_000, 'the database file grows');
    await store.close();
  });

  it('keeps the log bounded under sustained writes (it is reset as without the worker)', async () => {
    const file = path.join(tempDataDir(), 'sessions.sqlite');
    const store = new SqliteSessionStore(file);
    // 4,000 hops would leave tens of thousands of pages (well over 100 MB) in a log never reset.
    let largest = 0;
    for (let i = 0; i < 4_000; i++) {
      await hop(store, i);
      if (i % 100 === 0) largest = Math.max(largest, sizeOf(`${file}-wal`));
    }
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThan(16 * 1024 * 1024);
    await store.close();
  });

  it('stops with the store: the log is folded into the file and removed, and nothing is lost', async () => {
    const file = path.join(tempDataDir(), 'sessions.sqlite');
    const store = new SqliteSessionStore(file);
    const before = sizeOf(file);
    for (let i = 0; i < 20; i++) await hop(store, i);
    // The worker's connection is open once it has checkpointed.
    await eventually(() => sizeOf(file) > before + 40_000, 'the worker checkpoints');
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    await store.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    const reopened = new SqliteSessionStore(file);
    expect(await reopened.get('session:19')).toBe('r'.repeat(1_200));
    await reopened.close();
  });

  it('says once that it cannot reach the file, and once that it can again', async () => {
    const dir = tempDataDir();
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'not-yet.sqlite');
    const { lines, logger } = spyLogger();
    const checkpointer = new WalCheckpointer(file, 'test store', logger);
    await eventually(() => lines.length > 0, 'the failure is reported');
    // It never creates the file it checkpoints.
    expect(fs.existsSync(file)).toBe(false);
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (x)');
    await eventually(() => lines.length > 1, 'the recovery is reported');
    expect(lines).toEqual([
      expect.stringMatching(
        /^warn test store: its write-ahead log is checkpointed on the request thread \(.+\)$/,
      ),
      'log test store: its write-ahead log is checkpointed in its worker again',
    ]);
    await checkpointer.stop();
    db.close();
  });

  it('leaves the process running, and says so, when its worker cannot start', async () => {
    const dir = tempDataDir();
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'sessions.sqlite');
    new Database(file).close();
    const { lines, logger } = spyLogger();
    const checkpointer = new WalCheckpointer(
      file,
      'test store',
      logger,
      path.join(tempDataDir(), 'no-such-driver.js'),
    );
    await eventually(() => lines.length > 0, 'the failure is reported');
    expect(lines).toEqual([
      expect.stringMatching(
        /^warn test store: its checkpoint worker stopped, so its write-ahead log is checkpointed on the request thread \(Cannot find module .+\)$/,
      ),
    ]);
    await checkpointer.stop();
  });
});
