import { createHash, randomBytes } from 'node:crypto';
import type { SessionStore } from './session-store';

/** 256 bits from the CSPRNG: unguessable within any lifetime used here. */
export const ONE_TIME_KEY_BYTES = 32;
/** A presented key longer than this is refused before hashing (ours are 43 characters). */
const MAX_PRESENTED_KEY_LENGTH = 200;

export const randomKey = (bytes = ONE_TIME_KEY_BYTES): string =>
  randomBytes(bytes).toString('base64url');

const sha256 = (value: string): string => createHash('sha256').update(value).digest('base64url');

/**
 * Values handed out under a random key and taken back exactly once: OIDC login state, logout state,
 * handoff codes. The key is never stored, only its SHA-256 (a copy of the store names no usable
 * key); the value lives `ttlSeconds`; `take` reads and deletes in one atomic store call, so two
 * requests presenting the same key cannot both get it (RFC 9700 §4.2.4, §4.7.1).
 */
export class OneTimeStore<T> {
  constructor(
    private readonly store: SessionStore,
    /** The key prefix in the store, e.g. `login`, `logout`, `handoff`. */
    private readonly purpose: string,
    readonly ttlSeconds: number,
  ) {}

  /** Stores the value under a fresh random key and returns that key. */
  async issue(value: T): Promise<string> {
    const key = randomKey();
    await this.store.set(this.storeKey(key), JSON.stringify(value), this.ttlSeconds);
    return key;
  }

  /** The value for a key, once; undefined when unknown, expired, already taken or malformed. */
  async take(key: unknown): Promise<T | undefined> {
    if (typeof key !== 'string' || key.length === 0 || key.length > MAX_PRESENTED_KEY_LENGTH)
      return undefined;
    const raw = await this.store.take(this.storeKey(key));
    // Only this class writes under its prefix, so what comes back is what issue() stored.
    return raw === undefined ? undefined : (JSON.parse(raw) as T);
  }

  private storeKey(key: string): string {
    return `${this.purpose}:${sha256(key)}`;
  }
}
