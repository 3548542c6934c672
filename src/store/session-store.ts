/**
 * The port for shared, short-lived server state: sessions, one-time handoff codes, OIDC login state,
 * rate-limit counters and single-flight locks (docs/design.md "Storage"). Two adapters implement it,
 * SQLite (default, one instance) and Redis (several instances: one node, Sentinel or Cluster), and
 * both pass one contract suite (session-store.contract.ts), Redis on each topology. Every operation
 * names one key (writeAll is a list of such operations, which Redis makes one by one), which keeps
 * the Redis adapter clear of cluster hash-slot rules (see there). Values are opaque strings; callers
 * serialise.
 */
export interface SessionStore {
  readonly kind: 'sqlite' | 'redis';
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlSeconds: number, options?: SetOptions): Promise<void>;
  /** Stores only when the key is absent (or expired); true when this call stored it. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /**
   * Overwrites only a value that is still there (a session being refreshed must not come back after
   * it was ended); true when this call wrote it.
   */
  replace(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Reads and deletes in one atomic step, so a one-time value can be taken exactly once. */
  take(key: string): Promise<string | undefined>;
  delete(key: string): Promise<void>;
  /**
   * Deletes only while the key still holds `value` (compare-and-delete, atomic): a lock is released
   * only by the holder that wrote its value, never by one whose lock expired and was taken over
   * (issue 15 item 10). True when this call deleted it.
   */
  deleteIfEquals(key: string, value: string): Promise<boolean>;
  /**
   * Adds `by` (a positive integer, one by default) to a counter whose window starts at its first
   * increment; returns the new count.
   */
  increment(key: string, windowSeconds: number, by?: number): Promise<number>;
  /**
   * Sets of strings (e.g. the sessions of one collector): adds a member and keeps the set for at
   * least ttlSeconds more. `delete(key)` removes the whole set.
   */
  addMember(key: string, member: string, ttlSeconds: number): Promise<void>;
  removeMember(key: string, member: string): Promise<void>;
  /** The set's members, in no particular order; empty when there is no such set. */
  members(key: string): Promise<string[]>;
  /**
   * Counted sets, whose members each have a lifetime of their own (unlike addMember's sets, which
   * live as one): adds a member, or moves an existing one's end, to ttlSeconds from now. Made to be
   * counted cheaply (countMembersAlive), not listed: the live_sessions gauge (docs/operating.md
   * "On-call metrics"). A Redis sorted set by end time, a SQLite table indexed by it.
   */
  addExpiringMember(key: string, member: string, ttlSeconds: number): Promise<void>;
  removeExpiringMember(key: string, member: string): Promise<void>;
  /**
   * How many members of a counted set have not reached their end: O(log n) in Redis (ZCOUNT), an
   * index range in SQLite. Members past their end are dropped by the adapter (Redis as the set is
   * added to, SQLite with its periodic sweep of expired rows).
   */
  countMembersAlive(key: string): Promise<number>;
  /**
   * Several writes, in order, each as its own call would make it. Every write is checked before any
   * is made, so a batch with a bad key, member or lifetime is refused whole. SQLite makes them in
   * one transaction: all or none, and one commit where separate calls make one each (issue 18: a
   * brand hop's session and its index entries, ~10 commits before). Redis makes them one by one,
   * each atomic on its own (a Cluster cannot run one transaction across hash slots): callers order
   * a batch so that stopping part-way leaves nothing a reader trusts (sessions.ts).
   */
  writeAll(writes: readonly StoreWrite[]): Promise<void>;
  /** Resolves when the store answers; used by readiness. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** What a `set` says of its value beyond the value itself. */
export interface SetOptions {
  /**
   * A value handed out to be taken back once (OneTimeStore: login states, handoff codes): `take`
   * reads it from the store itself, so an adapter that keeps read copies keeps none of it. Cached,
   * each would push a session out of the copy and never be read from it.
   */
  readonly takenOnce?: boolean;
}

/** One write of SessionStore.writeAll: the call of the same name, as data. */
export type StoreWrite =
  | ({
      readonly op: 'set';
      readonly key: string;
      readonly value: string;
      readonly ttlSeconds: number;
    } & SetOptions)
  | { readonly op: 'delete'; readonly key: string }
  | {
      readonly op: 'addMember';
      readonly key: string;
      readonly member: string;
      readonly ttlSeconds: number;
    }
  | { readonly op: 'removeMember'; readonly key: string; readonly member: string }
  | {
      readonly op: 'addExpiringMember';
      readonly key: string;
      readonly member: string;
      readonly ttlSeconds: number;
    }
  | { readonly op: 'removeExpiringMember'; readonly key: string; readonly member: string };

/** The `set` of a batch. */
export type StoreSet = Extract<StoreWrite, { readonly op: 'set' }>;

/** Checks every write of a batch before any is made (SessionStore.writeAll). */
export function assertValidWrites(writes: readonly StoreWrite[]): void {
  for (const write of writes) {
    assertValidKey(write.key);
    if ('ttlSeconds' in write) assertValidTtl(write.ttlSeconds);
    if ('member' in write) assertValidMember(write.member);
  }
}

export const SESSION_STORE = Symbol('SESSION_STORE');

/** Members of a set are bounded like keys. */
export const MAX_MEMBER_LENGTH = 512;

export function assertValidMember(member: string): void {
  if (member.length === 0 || member.length > MAX_MEMBER_LENGTH) {
    throw new RangeError(`set member must be 1-${MAX_MEMBER_LENGTH} characters`);
  }
}

/** Keys are namespaced by purpose, e.g. `session:…`, `ratelimit:…`; this bounds their size. */
export const MAX_KEY_LENGTH = 512;

export function assertValidKey(key: string): void {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new RangeError(`store key must be 1-${MAX_KEY_LENGTH} characters`);
  }
}

/** What a counter may be incremented by at once. */
export function assertValidIncrement(by: number): void {
  if (!Number.isSafeInteger(by) || by <= 0) {
    throw new RangeError('an increment must be a positive integer');
  }
}

export function assertValidTtl(ttlSeconds: number): void {
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) {
    throw new RangeError('ttlSeconds must be a positive integer');
  }
}
