import { Logger } from '@nestjs/common';
import Database from 'better-sqlite3';
import { AppError } from '../errors/app-error';
import { errorSummary } from '../errors/error-summary';
import {
  SessionStore,
  SetOptions,
  StoreWrite,
  assertValidIncrement,
  assertValidKey,
  assertValidMember,
  assertValidTtl,
  assertValidWrites,
} from './session-store';
import { WalCheckpointer } from './wal-checkpointer';
import { describeChanges, privateDatabase } from './private-files';

/** How often expired rows are swept; reads ignore expired rows regardless. */
const PURGE_INTERVAL_MS = 60_000;
/** How often counted rate-limit hits are written to the file (see increment). */
const COUNTER_FLUSH_INTERVAL_MS = 1_000;
/**
 * How long a write waits for a lock another process holds on the file (issue 7 fault tests). The
 * driver is synchronous, so the wait stalls every request of the process: it is kept short. One
 * process owns the file, so only an outside tool ever holds the lock. The background writes (counter
 * flush, purge) do not wait at all: they try again on their next turn.
 */
const BUSY_TIMEOUT_MS = 1_000;
/** Records (and sets) kept in memory for reads; the least recently used are dropped beyond this. */
const READ_CACHE_ENTRIES = 5_000;

interface Cached {
  readonly value: string;
  readonly expiresAt: number;
}

/** A set as the file holds it: its members and its lifetime (kv_sets). */
interface CachedSet {
  readonly members: Set<string>;
  expiresAt: number;
}

/** What the read caches learn of a write once its transaction has committed. */
type AfterCommit = () => void;
const NOTHING_TO_LEARN: AfterCommit = () => undefined;

interface Counter {
  count: number;
  readonly expiresAt: number;
  dirty: boolean;
}

/**
 * SQLite adapter: one file under DATA_DIR in WAL mode, so a restart keeps every session and readers
 * never block the writer. better-sqlite3 is synchronous; each call is one short statement, and the
 * multi-step ones run in a transaction so they are atomic.
 *
 * One process owns the file (several instances share state through Redis instead, docs/design.md
 * "Storage"), which allows two shortcuts on the hot path of every signed-in request:
 * - reads (values and set listings) are served from a bounded in-memory copy that every write goes
 *   through once it has committed, so a session lookup does not touch the file; writes still reach
 *   the file before they resolve, so a crash loses nothing that was acknowledged. Values set to be
 *   taken once (login states, handoff codes: SetOptions.takenOnce) get no copy: `take` reads the
 *   file, and a copy of each would push a session out of the bounded copy;
 * - rate-limit counters are counted in memory and written to the file once a second, so a restart
 *   keeps them (at most one second of hits is forgotten by a crash) without one file write per
 *   request.
 *
 * The write-ahead log is copied back into the file by a second connection in a worker thread
 * (WalCheckpointer), so that no request waits for that copy. It writes no record of its own: the
 * caches above still see every write.
 */
export class SqliteSessionStore implements SessionStore {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly purgeTimer: NodeJS.Timeout;
  private readonly flushTimer: NodeJS.Timeout;
  private readonly statements;
  private readonly addMemberInTransaction: (
    key: string,
    member: string,
    ttl: number,
  ) => AfterCommit;
  private readonly writeInTransaction: (writes: readonly StoreWrite[]) => AfterCommit[];
  /** A key's value, set members and set row go together: one commit where they were three. */
  private readonly deleteInTransaction: (key: string) => void;
  /**
   * Read and delete in one transaction, made once (better-sqlite3 builds a transaction function per
   * `db.transaction` call: 0.5 % of an external sign-in's main thread when `take` made one each time).
   */
  private readonly takeInTransaction: (key: string) => string | undefined;
  private readonly cache = new Map<string, Cached>();
  private readonly sets = new Map<string, CachedSet>();
  private readonly counters = new Map<string, Counter>();
  private readonly logger = new Logger(SqliteSessionStore.name);
  /** The background counter flush is failing: logged once when that starts and once when it ends. */
  private flushFailing = false;
  /** Copies the write-ahead log into the file off the request thread (see WalCheckpointer). */
  private readonly checkpointer: WalCheckpointer | undefined;

  /**
   * `label` names the store in errors (the embedded IdP keeps its state in a file of its own).
   * `checkpointInWorker: false` leaves the log's copy to SQLite on the request thread, as by default.
   */
  constructor(
    file: string,
    private readonly now: () => number = Date.now,
    private readonly label = 'session store',
    checkpointInWorker = true,
  ) {
    // docs/security.md, secrets at rest: sessions are nobody else's to read (the folder 0700, the
    // files 0600).
    const changes = privateDatabase(file);
    if (changes.length > 0)
      this.logger.warn(
        `${label}: made private (0700 folder, 0600 files): ${describeChanges(changes)}`,
      );
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const hadSets =
      this.db
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kv_sets'")
        .get() !== undefined;
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS kv (
         key TEXT PRIMARY KEY,
         value TEXT NOT NULL,
         expires_at INTEGER NOT NULL
       ) WITHOUT ROWID;
       CREATE INDEX IF NOT EXISTS kv_expires_at ON kv (expires_at);
       CREATE TABLE IF NOT EXISTS kv_members (
         key TEXT NOT NULL,
         member TEXT NOT NULL,
         expires_at INTEGER NOT NULL,
         PRIMARY KEY (key, member)
       ) WITHOUT ROWID;
       CREATE INDEX IF NOT EXISTS kv_members_expires_at ON kv_members (expires_at);
       CREATE TABLE IF NOT EXISTS kv_sets (
         key TEXT PRIMARY KEY,
         expires_at INTEGER NOT NULL
       ) WITHOUT ROWID;
       CREATE INDEX IF NOT EXISTS kv_sets_expires_at ON kv_sets (expires_at);
       CREATE TABLE IF NOT EXISTS kv_expiring_members (
         key TEXT NOT NULL,
         member TEXT NOT NULL,
         expires_at INTEGER NOT NULL,
         PRIMARY KEY (key, member)
       ) WITHOUT ROWID;
       CREATE INDEX IF NOT EXISTS kv_expiring_members_count
         ON kv_expiring_members (key, expires_at);
       CREATE INDEX IF NOT EXISTS kv_expiring_members_expires_at
         ON kv_expiring_members (expires_at);`,
    );
    // The schema is in the file: the worker's connection opens an existing database, never a new one.
    this.checkpointer = checkpointInWorker
      ? new WalCheckpointer(file, label, this.logger)
      : undefined;
    // Files written before sets had a lifetime of their own: each set lives as its latest member did.
    if (!hadSets) {
      this.db.exec(
        `INSERT OR IGNORE INTO kv_sets (key, expires_at)
         SELECT key, MAX(expires_at) FROM kv_members GROUP BY key`,
      );
    }
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
      getWithExpiry: this.db.prepare<[string, number], { value: string; expires_at: number }>(
        'SELECT value, expires_at FROM kv WHERE key = ? AND expires_at > ?',
      ),
      delete: this.db.prepare<[string]>('DELETE FROM kv WHERE key = ?'),
      deleteIfEquals: this.db.prepare<[string, string, number]>(
        'DELETE FROM kv WHERE key = ? AND value = ? AND expires_at > ?',
      ),
      replace: this.db.prepare<[string, number, string, number]>(
        'UPDATE kv SET value = ?, expires_at = ? WHERE key = ? AND expires_at > ?',
      ),
      purge: this.db.prepare<[number]>('DELETE FROM kv WHERE expires_at <= ?'),
      // A set's lifetime is one row (kv_sets), so an addition costs the same however large the set:
      // extending every member's own row made each addition slower as the set grew (issue 18).
      purgeMembers: this.db.prepare<[number]>(
        'DELETE FROM kv_members WHERE key IN (SELECT key FROM kv_sets WHERE expires_at <= ?)',
      ),
      purgeSets: this.db.prepare<[number]>('DELETE FROM kv_sets WHERE expires_at <= ?'),
      // A set that lapsed but was not swept yet starts empty again: its old members stay gone.
      dropLapsedMembers: this.db.prepare<[string, string, number]>(
        `DELETE FROM kv_members WHERE key = ?
         AND EXISTS (SELECT 1 FROM kv_sets WHERE key = ? AND expires_at <= ?)`,
      ),
      addMember: this.db.prepare<[string, string, number]>(
        'INSERT INTO kv_members (key, member, expires_at) VALUES (?, ?, ?) ON CONFLICT(key, member) DO NOTHING',
      ),
      extendSet: this.db.prepare<[string, number, number]>(
        `INSERT INTO kv_sets (key, expires_at) VALUES (?, ?)
         ON CONFLICT(key) DO UPDATE SET expires_at =
           CASE WHEN kv_sets.expires_at <= ? THEN excluded.expires_at
                ELSE MAX(kv_sets.expires_at, excluded.expires_at) END`,
      ),
      removeMember: this.db.prepare<[string, string]>(
        'DELETE FROM kv_members WHERE key = ? AND member = ?',
      ),
      members: this.db.prepare<[string, number], { member: string; expires_at: number }>(
        `SELECT m.member, s.expires_at FROM kv_members m JOIN kv_sets s ON s.key = m.key
         WHERE m.key = ? AND s.expires_at > ?`,
      ),
      deleteMembers: this.db.prepare<[string]>('DELETE FROM kv_members WHERE key = ?'),
      addExpiringMember: this.db.prepare<[string, string, number]>(
        `INSERT INTO kv_expiring_members (key, member, expires_at) VALUES (?, ?, ?)
         ON CONFLICT(key, member) DO UPDATE SET expires_at = excluded.expires_at`,
      ),
      removeExpiringMember: this.db.prepare<[string, string]>(
        'DELETE FROM kv_expiring_members WHERE key = ? AND member = ?',
      ),
      // A range of the (key, expires_at) index: no row outside the count is read.
      countMembersAlive: this.db.prepare<[string, number], { alive: number }>(
        'SELECT COUNT(*) AS alive FROM kv_expiring_members WHERE key = ? AND expires_at > ?',
      ),
      deleteExpiringMembers: this.db.prepare<[string]>(
        'DELETE FROM kv_expiring_members WHERE key = ?',
      ),
      purgeExpiringMembers: this.db.prepare<[number]>(
        'DELETE FROM kv_expiring_members WHERE expires_at <= ?',
      ),
      deleteSet: this.db.prepare<[string]>('DELETE FROM kv_sets WHERE key = ?'),
      ping: this.db.prepare('SELECT 1'),
    };
    this.statements = s;
    // Transaction functions made once, not one per call. A batch runs addMemberNow directly,
    // inside its own transaction.
    this.addMemberInTransaction = this.db.transaction((key: string, member: string, ttl: number) =>
      this.addMemberNow(key, member, ttl),
    );
    this.writeInTransaction = this.db.transaction((writes: readonly StoreWrite[]) =>
      writes.map((write) => this.write(write)),
    );
    this.deleteInTransaction = this.db.transaction((key: string) => this.deleteNow(key));
    this.takeInTransaction = this.db.transaction((key: string) => {
      const row = this.statements.get.get(key, this.now());
      if (row) this.statements.delete.run(key);
      this.cache.delete(key);
      return row?.value;
    });
    this.purgeTimer = setInterval(() => this.purge(), PURGE_INTERVAL_MS);
    this.purgeTimer.unref();
    this.flushTimer = setInterval(() => this.flushCounters(), COUNTER_FLUSH_INTERVAL_MS);
    this.flushTimer.unref();
  }

  private expiry(ttlSeconds: number): number {
    assertValidTtl(ttlSeconds);
    return this.now() + ttlSeconds * 1000;
  }

  get(key: string): Promise<string | undefined> {
    return this.run(() => {
      assertValidKey(key);
      const now = this.now();
      const cached = this.cache.get(key);
      if (cached) {
        if (cached.expiresAt > now) {
          // Most recently used last: Map keeps insertion order, so the oldest is evicted first.
          this.cache.delete(key);
          this.cache.set(key, cached);
          return cached.value;
        }
        this.cache.delete(key);
      }
      const row = this.statements.getWithExpiry.get(key, now);
      if (row) this.remember(key, row.value, row.expires_at);
      return row?.value;
    });
  }

  set(key: string, value: string, ttlSeconds: number, options?: SetOptions): Promise<void> {
    return this.run(() => {
      assertValidKey(key);
      // Its own commit: what the caches learn, they learn at once.
      this.write({ op: 'set', key, value, ttlSeconds, ...options })();
    });
  }

  writeAll(writes: readonly StoreWrite[]): Promise<void> {
    return this.run(() => {
      assertValidWrites(writes);
      // The caches learn the writes only once the transaction committed: a rolled-back batch must
      // leave no trace in them (deletions may go at once: a missing entry only means a read).
      for (const learn of this.writeInTransaction(writes)) learn();
    });
  }

  /** One write of a batch, inside its transaction; returns what the caches learn after the commit. */
  private write(write: StoreWrite): AfterCommit {
    switch (write.op) {
      case 'set': {
        const { key, value } = write;
        const expiresAt = this.expiry(write.ttlSeconds);
        this.statements.upsert.run(key, value, expiresAt);
        // SetOptions.takenOnce: no read copy, and none left of an earlier value under the key.
        if (write.takenOnce) return () => this.cache.delete(key);
        return () => this.remember(key, value, expiresAt);
      }
      case 'delete':
        this.deleteNow(write.key);
        return NOTHING_TO_LEARN;
      case 'addMember':
        return this.addMemberNow(write.key, write.member, write.ttlSeconds);
      case 'removeMember':
        return this.removeMemberNow(write.key, write.member);
      case 'addExpiringMember':
        this.statements.addExpiringMember.run(
          write.key,
          write.member,
          this.expiry(write.ttlSeconds),
        );
        return NOTHING_TO_LEARN;
      case 'removeExpiringMember':
        this.statements.removeExpiringMember.run(write.key, write.member);
        return NOTHING_TO_LEARN;
    }
  }

  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    return this.run(() => {
      assertValidKey(key);
      const expiresAt = this.expiry(ttlSeconds);
      const stored =
        this.statements.insertIfAbsent.run(key, value, expiresAt, this.now()).changes === 1;
      if (stored) this.remember(key, value, expiresAt);
      return stored;
    });
  }

  replace(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    return this.run(() => {
      assertValidKey(key);
      const expiresAt = this.expiry(ttlSeconds);
      const written = this.statements.replace.run(value, expiresAt, key, this.now()).changes === 1;
      if (written) this.remember(key, value, expiresAt);
      else this.cache.delete(key);
      return written;
    });
  }

  take(key: string): Promise<string | undefined> {
    return this.run(() => {
      assertValidKey(key);
      return this.takeInTransaction(key);
    });
  }

  deleteIfEquals(key: string, value: string): Promise<boolean> {
    return this.run(() => {
      assertValidKey(key);
      const deleted = this.statements.deleteIfEquals.run(key, value, this.now()).changes > 0;
      if (deleted) this.cache.delete(key);
      return deleted;
    });
  }

  delete(key: string): Promise<void> {
    return this.run(() => {
      assertValidKey(key);
      this.deleteInTransaction(key);
    });
  }

  /** A key of any kind (value, set, counter); in the caller's transaction when there is one. */
  private deleteNow(key: string): void {
    this.statements.delete.run(key);
    this.statements.deleteMembers.run(key);
    this.statements.deleteSet.run(key);
    this.statements.deleteExpiringMembers.run(key);
    this.cache.delete(key);
    this.sets.delete(key);
    this.counters.delete(key);
  }

  increment(key: string, windowSeconds: number, by = 1): Promise<number> {
    return this.run(() => {
      assertValidKey(key);
      assertValidIncrement(by);
      const now = this.now();
      let counter = this.counters.get(key);
      if (!counter || counter.expiresAt <= now) {
        // A window counted before a restart is carried on from the file.
        const row = counter ? undefined : this.statements.getWithExpiry.get(key, now);
        counter = row
          ? { count: Number(row.value), expiresAt: row.expires_at, dirty: false }
          : { count: 0, expiresAt: this.expiry(windowSeconds), dirty: false };
        this.counters.set(key, counter);
      }
      counter.count += by;
      counter.dirty = true;
      return counter.count;
    });
  }

  addMember(key: string, member: string, ttlSeconds: number): Promise<void> {
    return this.run(() => {
      assertValidKey(key);
      assertValidMember(member);
      this.addMemberInTransaction(key, member, ttlSeconds)();
    });
  }

  /**
   * Three statements that must be seen together; run alone or inside a batch's transaction. The
   * cached copy of the set, if any, then changes as the file did: a lapsed set starts again empty,
   * and a set lives as long as its latest addition asks.
   */
  private addMemberNow(key: string, member: string, ttlSeconds: number): AfterCommit {
    const expiresAt = this.expiry(ttlSeconds);
    const now = this.now();
    // A set the read copy holds unexpired has not lapsed in the file either: this process is the
    // file's only writer and the copy learns every committed write. Only a set it does not hold (or
    // holds lapsed) may have members to drop, which saves one of three statements per addition on a
    // brand hop's batch (issue 35 item 5).
    const held = this.sets.get(key);
    if (!held || held.expiresAt <= now) this.statements.dropLapsedMembers.run(key, key, now);
    this.statements.addMember.run(key, member, expiresAt);
    this.statements.extendSet.run(key, expiresAt, now);
    return () => {
      const cached = this.sets.get(key);
      if (!cached) return;
      if (cached.expiresAt <= now) {
        cached.members.clear();
        cached.expiresAt = expiresAt;
      } else {
        cached.expiresAt = Math.max(cached.expiresAt, expiresAt);
      }
      cached.members.add(member);
    };
  }

  removeMember(key: string, member: string): Promise<void> {
    return this.run(() => {
      assertValidKey(key);
      assertValidMember(member);
      this.removeMemberNow(key, member)();
    });
  }

  private removeMemberNow(key: string, member: string): AfterCommit {
    this.statements.removeMember.run(key, member);
    return () => this.sets.get(key)?.members.delete(member);
  }

  /**
   * Served from memory once read, like values (see the class comment): the session page and every
   * brand hop list a set, and a query costs ~50 us under load against ~1 us for the copy (issue 18).
   */
  members(key: string): Promise<string[]> {
    return this.run(() => {
      assertValidKey(key);
      const now = this.now();
      const cached = this.sets.get(key);
      if (cached) {
        this.sets.delete(key);
        if (cached.expiresAt > now) {
          this.sets.set(key, cached);
          return [...cached.members];
        }
      }
      const rows = this.statements.members.all(key, now);
      const [first] = rows;
      if (first) {
        this.sets.set(key, {
          members: new Set(rows.map((row) => row.member)),
          expiresAt: first.expires_at,
        });
        if (this.sets.size > READ_CACHE_ENTRIES) this.evictOldest(this.sets);
      }
      return rows.map((row) => row.member);
    });
  }

  addExpiringMember(key: string, member: string, ttlSeconds: number): Promise<void> {
    return this.run(() => {
      assertValidKey(key);
      assertValidMember(member);
      this.write({ op: 'addExpiringMember', key, member, ttlSeconds });
    });
  }

  removeExpiringMember(key: string, member: string): Promise<void> {
    return this.run(() => {
      assertValidKey(key);
      assertValidMember(member);
      this.write({ op: 'removeExpiringMember', key, member });
    });
  }

  /**
   * Not cached: read from the file, which counts along the covering (key, expires_at) index without
   * reading a row (100,000 members took 10-20 ms on a loaded 2-core machine); its only reader is a
   * scrape, at most once per READING_REUSE_MS (src/metrics/scraped-reading.ts). Members past their
   * end are swept with the expired rows (purge).
   */
  countMembersAlive(key: string): Promise<number> {
    return this.run(() => {
      assertValidKey(key);
      return this.statements.countMembersAlive.get(key, this.now())?.alive ?? 0;
    });
  }

  ping(): Promise<void> {
    return this.run(() => {
      this.statements.ping.get();
    });
  }

  async close(): Promise<void> {
    clearInterval(this.purgeTimer);
    clearInterval(this.flushTimer);
    // The checkpoint worker's connection closes first: the store's, the last one, then folds the
    // whole log into the file and removes it, with no other connection left to touch either.
    await this.checkpointer?.stop();
    if (this.db.open) {
      this.flushCounters(true);
      this.db.close();
    }
    this.cache.clear();
    this.sets.clear();
    this.counters.clear();
  }

  private remember(key: string, value: string, expiresAt: number): void {
    this.cache.delete(key);
    this.cache.set(key, { value, expiresAt });
    if (this.cache.size > READ_CACHE_ENTRIES) this.evictOldest(this.cache);
  }

  /** Least recently used first: Map keeps insertion order, and every use re-inserts. */
  private evictOldest(map: Map<string, unknown>): void {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }

  /**
   * Writes the counters changed since the last flush in one transaction; drops ended windows. Only the
   * last flush, at close, waits for a lock.
   */
  private flushCounters(waitForLock = false): void {
    const now = this.now();
    const dirty: [string, Counter][] = [];
    for (const [key, counter] of this.counters) {
      if (counter.expiresAt <= now) this.counters.delete(key);
      else if (counter.dirty) dirty.push([key, counter]);
    }
    if (dirty.length === 0) return;
    try {
      const write = this.db.transaction(() => {
        for (const [key, counter] of dirty) {
          this.statements.upsert.run(key, String(counter.count), counter.expiresAt);
        }
      });
      if (waitForLock) write();
      else this.withoutWaiting(() => write());
      for (const [, counter] of dirty) counter.dirty = false;
      if (this.flushFailing) this.logger.log('rate-limit counters are written to the file again');
      this.flushFailing = false;
    } catch (error) {
      // The file refused the write (read-only, disk full): the counts stay in memory, still in
      // force, and the next flush tries again.
      if (!this.flushFailing)
        this.logger.error(`rate-limit counters could not be written: ${errorSummary(error)}`);
      this.flushFailing = true;
    }
  }

  private purge(): void {
    const now = this.now();
    for (const [key, cached] of this.cache) if (cached.expiresAt <= now) this.cache.delete(key);
    for (const [key, cached] of this.sets) if (cached.expiresAt <= now) this.sets.delete(key);
    try {
      this.withoutWaiting(() => {
        this.statements.purge.run(now);
        this.statements.purgeMembers.run(now);
        this.statements.purgeSets.run(now);
        this.statements.purgeExpiringMembers.run(now);
      });
    } catch {
      // Expired rows are invisible to reads anyway; the next sweep tries again.
    }
  }

  /** Runs background work that gives up at once, rather than stall requests, when the file is locked. */
  private withoutWaiting(work: () => void): void {
    this.db.pragma('busy_timeout = 0');
    try {
      work();
    } finally {
      this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  }

  /**
   * Turns synchronous driver errors into rejected promises. The file refusing work (disk full,
   * read-only, locked, an I/O error) is an outage: a 503 with the error page. SQLite has rolled the
   * statement or transaction back, so nothing is half-written. Other errors (a bad key) stay
   * programming errors.
   */
  private run<T>(work: () => T): Promise<T> {
    if (!this.db.open)
      return Promise.reject(
        new AppError('ServiceUnavailable', `the ${this.label} (sqlite) is closed`),
      );
    try {
      return Promise.resolve(work());
    } catch (error) {
      const code = sqliteCode(error);
      if (code)
        return Promise.reject(
          new AppError(
            'ServiceUnavailable',
            `the ${this.label} (sqlite) refused the operation: ${code}`,
            { cause: error },
          ),
        );
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/**
 * The SQLite result code of a driver error (`SQLITE_FULL`, `SQLITE_BUSY`, …). By its code rather than
 * `instanceof SqliteError`: the native driver keeps the error class it was first loaded with, which a
 * second copy of the module (a test runner's fresh registry) does not share.
 */
function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}
