import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SessionStore, assertValidKey, assertValidTtl } from './session-store';

/** How often expired rows are swept; reads ignore expired rows regardless. */
const PURGE_INTERVAL_MS = 60_000;

/**
 * SQLite adapter: one file under DATA_DIR in WAL mode, so a restart keeps every session and readers
 * never block the writer. better-sqlite3 is synchronous; each call is one short statement, and the
 * multi-step ones run in a transaction so they are atomic.
 */
export class SqliteSessionStore implements SessionStore {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly purgeTimer: NodeJS.Timeout;
  private readonly statements;

  constructor(
    file: string,
    private readonly now: () => number = Date.now,
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS kv (
         key TEXT PRIMARY KEY,
         value TEXT NOT NULL,
         expires_at INTEGER NOT NULL
       ) WITHOUT ROWID;
       CREATE INDEX IF NOT EXISTS kv_expires_at ON kv (expires_at);`,
    );
    const s = {
      get: this.db.prepare<[string, number], { value: string }>(
        'SELECT value FROM kv WHERE key = ? AND expires_at > ?',
      ),
      upsert: this.db.prepare<[string, string, number]>(
        'INSERT INTO kv (key, value, expires_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at',
      ),
      insertIfAbsent: this.db.prepare<[string, string, number, number]>(
        `INSERT INTO kv (key, value, expires_at) VALUES (?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at WHERE kv.expires_at <= ?`,
      ),
      delete: this.db.prepare<[string]>('DELETE FROM kv WHERE key = ?'),
      // One statement: start a window, or count within the live one (rate limits hit this per request).
      increment: this.db.prepare<[string, number, number, number], { value: string }>(
        `INSERT INTO kv (key, value, expires_at) VALUES (?, '1', ?)
         ON CONFLICT(key) DO UPDATE SET
           value = CASE WHEN kv.expires_at <= ? THEN '1' ELSE CAST(CAST(kv.value AS INTEGER) + 1 AS TEXT) END,
           expires_at = CASE WHEN kv.expires_at <= ? THEN excluded.expires_at ELSE kv.expires_at END
         RETURNING value`,
      ),
      purge: this.db.prepare<[number]>('DELETE FROM kv WHERE expires_at <= ?'),
      ping: this.db.prepare('SELECT 1'),
    };
    this.statements = s;
    this.purgeTimer = setInterval(() => s.purge.run(this.now()), PURGE_INTERVAL_MS);
    this.purgeTimer.unref();
  }

  private expiry(ttlSeconds: number): number {
    assertValidTtl(ttlSeconds);
    return this.now() + ttlSeconds * 1000;
  }

  get(key: string): Promise<string | undefined> {
    return this.run(() => {
      assertValidKey(key);
      return this.statements.get.get(key, this.now())?.value;
    });
  }

  set(key: string, value: string, ttlSeconds: number): Promise<void> {
    return this.run(() => {
      assertValidKey(key);
      this.statements.upsert.run(key, value, this.expiry(ttlSeconds));
    });
  }

  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    return this.run(() => {
      assertValidKey(key);
      return (
        this.statements.insertIfAbsent.run(key, value, this.expiry(ttlSeconds), this.now())
          .changes === 1
      );
    });
  }

  take(key: string): Promise<string | undefined> {
    return this.run(
      this.db.transaction(() => {
        assertValidKey(key);
        const row = this.statements.get.get(key, this.now());
        if (row) this.statements.delete.run(key);
        return row?.value;
      }),
    );
  }

  delete(key: string): Promise<void> {
    return this.run(() => {
      assertValidKey(key);
      this.statements.delete.run(key);
    });
  }

  increment(key: string, windowSeconds: number): Promise<number> {
    return this.run(() => {
      assertValidKey(key);
      const now = this.now();
      const row = this.statements.increment.get(key, this.expiry(windowSeconds), now, now);
      return Number(row?.value ?? 0);
    });
  }

  ping(): Promise<void> {
    return this.run(() => {
      this.statements.ping.get();
    });
  }

  close(): Promise<void> {
    clearInterval(this.purgeTimer);
    if (this.db.open) this.db.close();
    return Promise.resolve();
  }

  /** Turns synchronous driver errors (disk full, read-only file) into rejected promises. */
  private run<T>(work: () => T): Promise<T> {
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
