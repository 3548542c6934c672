import { hash } from 'node:crypto';
import { pooledRandomBytes } from '../common/random-bytes';
import type { SessionStore, StoreSet } from './session-store';
import type { TokenVault } from './token-vault';

/** 256 bits from the CSPRNG: unguessable within any lifetime used here. */
export const ONE_TIME_KEY_BYTES = 32;
/** A presented key longer than this is refused before hashing (ours are 43 characters). */
const MAX_PRESENTED_KEY_LENGTH = 200;

export const randomKey = (bytes = ONE_TIME_KEY_BYTES): string =>
  pooledRandomBytes(bytes).toString('base64url');

/** Node's one-shot hash: no Hash object for a short key (see bindingHashOf). */
const sha256 = (value: string): string => hash('sha256', value, 'base64url');

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
    /** Values that hold tokens (handoff codes) are sealed at rest (issue 15 item 9). */
    private readonly vault?: TokenVault,
  ) {}

  /** Stores the value under a fresh random key and returns that key. */
  async issue(value: T): Promise<string> {
    const { key, write } = this.prepare(value);
    await this.save(write);
    return key;
  }

  /** Stores a prepared value on its own. */
  async save(write: StoreSet): Promise<void> {
    await this.store.set(write.key, write.value, write.ttlSeconds, { takenOnce: true });
  }

  /**
   * A fresh random key for the value and the store write that keeps it, for a caller that commits it
   * in one batch with writes of its own (SessionStore.writeAll): nothing is stored until then.
   */
  prepare(value: T): { readonly key: string; readonly write: StoreSet } {
    const key = randomKey();
    const storeKey = this.storeKey(key);
    const json = JSON.stringify(value);
    return {
      key,
      write: {
        op: 'set',
        key: storeKey,
        value: this.vault ? this.vault.seal(json, storeKey) : json,
        ttlSeconds: this.ttlSeconds,
        takenOnce: true,
      },
    };
  }

  /** The value for a key, once; undefined when unknown, expired, already taken or malformed. */
  async take(key: unknown): Promise<T | undefined> {
    if (typeof key !== 'string' || key.length === 0 || key.length > MAX_PRESENTED_KEY_LENGTH)
      return undefined;
    const storeKey = this.storeKey(key);
    const raw = await this.store.take(storeKey);
    if (raw === undefined) return undefined;
    // Only this class writes under its prefix, so what comes back is what issue() stored.
    const json = this.vault ? this.vault.open(raw, storeKey) : raw;
    return json === undefined ? undefined : (JSON.parse(json) as T);
  }

  /** The value for a key without taking it (a page that shows what a later step will take). */
  async peek(key: unknown): Promise<T | undefined> {
    if (typeof key !== 'string' || key.length === 0 || key.length > MAX_PRESENTED_KEY_LENGTH)
      return undefined;
    const storeKey = this.storeKey(key);
    const raw = await this.store.get(storeKey);
    if (raw === undefined) return undefined;
    const json = this.vault ? this.vault.open(raw, storeKey) : raw;
    return json === undefined ? undefined : (JSON.parse(json) as T);
  }

  /**
   * Where a key's value is kept: its hash under the purpose, never the key itself (a copy of an index
   * that names it yields no usable key). For a caller that indexes its values (TokenOffers).
   */
  storeKey(key: string): string {
    return `${this.purpose}:${sha256(key)}`;
  }
}
