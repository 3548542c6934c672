import { exportJWK, generateKeyPair } from 'jose';
import type { JWK } from 'jose';
import { randomBytes, randomUUID } from 'node:crypto';
import type { SessionStore } from '../../store/session-store';

/**
 * The IdP's RS256 signing keys and cookie secrets, kept in its state store (idp-state-store.ts, issue 7):
 * every instance signs with the same key and reads the others' cookies, and tokens stay verifiable
 * across restarts.
 *
 * Rotation publishes a key before it signs (issue 3): the ring always holds a `next` key that is in
 * /v1/keys but unused. `rotate()` promotes `next` to `current`, demotes the old `current` to
 * `retired` (still published, so tokens it signed keep verifying until they expire) and creates a new
 * `next`. oidc-provider signs with the first suitable key, so `current` is listed first.
 */
export type KeyState = 'current' | 'next' | 'retired';

export interface RingKey {
  readonly kid: string;
  readonly state: KeyState;
  readonly jwk: JWK;
  readonly createdAt: number;
  readonly retiredAt: number | null;
}

export interface KeyRing {
  readonly keys: readonly RingKey[];
}

/** A retired key stays published this long: longer than any access or ID token lives. */
export const RETIRED_KEY_GRACE_MS = 24 * 60 * 60 * 1000;

/** The ring and the secrets have no natural expiry; the port needs one, so: ten years. */
const KEEP_SECONDS = 10 * 365 * 24 * 60 * 60;
const RING_KEY = 'idp:signing-keys';
const secretKey = (name: string): string => `idp:secret:${name}`;

const ORDER: Readonly<Record<KeyState, number>> = { current: 0, next: 1, retired: 2 };

/** The published set: current first (it signs), then next, then retired keys still in their grace. */
export function publishedKeys(ring: KeyRing, now: number): JWK[] {
  return ring.keys
    .filter((k) => k.state !== 'retired' || (k.retiredAt ?? 0) > now - RETIRED_KEY_GRACE_MS)
    .sort((a, b) => ORDER[a.state] - ORDER[b.state] || b.createdAt - a.createdAt)
    .map((k) => k.jwk);
}

/**
 * The ring after one rotation: `next` signs, the old `current` retires at `now`, `newNext` waits.
 * Keys retired longer ago than the grace period are dropped for good.
 */
export function rotatedRing(ring: KeyRing, now: number, newNext: RingKey): KeyRing {
  if (!ring.keys.some((k) => k.state === 'next')) throw new Error('no next key to promote');
  const kept = ring.keys.filter(
    (k) => k.state !== 'retired' || (k.retiredAt ?? 0) > now - RETIRED_KEY_GRACE_MS,
  );
  return {
    keys: [
      ...kept.map((k): RingKey => {
        if (k.state === 'current') return { ...k, state: 'retired', retiredAt: now };
        if (k.state === 'next') return { ...k, state: 'current' };
        return k;
      }),
      newNext,
    ],
  };
}

async function newKey(state: 'current' | 'next', now: number): Promise<RingKey> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const kid = randomUUID();
  const jwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, state, jwk, createdAt: now, retiredAt: null };
}

export class SigningKeys {
  constructor(
    private readonly store: SessionStore,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Makes sure a `current` and a `next` key exist, then returns the published set. Instances that
   * start together race to create the first ring; the first write wins and the others read it.
   */
  async load(): Promise<{ keys: JWK[] }> {
    let ring = await this.ring();
    if (!ring) {
      const created: KeyRing = {
        keys: [await newKey('current', this.now()), await newKey('next', this.now())],
      };
      await this.store.setIfAbsent(RING_KEY, JSON.stringify(created), KEEP_SECONDS);
      ring = await this.ring();
      if (!ring) throw new Error('the signing key ring could not be stored');
    }
    return { keys: publishedKeys(ring, this.now()) };
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    const ring = await this.ring();
    return { keys: ring ? publishedKeys(ring, this.now()) : [] };
  }

  /**
   * Takes effect for signing when the instances next start; the new `next` is published then too.
   * An operator's command (npm run idp:rotate-keys), so two rotations at once are not guarded against.
   */
  async rotate(): Promise<void> {
    const ring = await this.ring();
    if (!ring) throw new Error('no signing keys yet: call load() first');
    const rotated = rotatedRing(ring, this.now(), await newKey('next', this.now()));
    await this.store.set(RING_KEY, JSON.stringify(rotated), KEEP_SECONDS);
  }

  /** A random secret created once and shared by every instance (the provider's cookie keys). */
  async secret(name: string): Promise<string> {
    const existing = await this.store.get(secretKey(name));
    if (existing !== undefined) return existing;
    const value = randomBytes(32).toString('base64url');
    await this.store.setIfAbsent(secretKey(name), value, KEEP_SECONDS);
    return (await this.store.get(secretKey(name))) ?? value;
  }

  private async ring(): Promise<KeyRing | undefined> {
    const raw = await this.store.get(RING_KEY);
    return raw === undefined ? undefined : (JSON.parse(raw) as KeyRing);
  }
}
