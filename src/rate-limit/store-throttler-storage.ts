import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import type { SessionStore } from '../store/session-store';

/**
 * @nestjs/throttler's counters kept in the session store (docs/design.md "Brute force"): with Redis, every
 * instance counts against the same limit. One store call per request: past the limit, the caller stays
 * blocked until its window ends (the configured block duration equals the window).
 */
export class StoreThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly store: SessionStore) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const windowSeconds = Math.max(1, Math.ceil(ttl / 1000));
    const totalHits = await this.store.increment(
      `ratelimit:${throttlerName}:${key}`,
      windowSeconds,
    );
    const isBlocked = totalHits > limit;
    return {
      totalHits,
      timeToExpire: windowSeconds,
      isBlocked,
      timeToBlockExpire: isBlocked ? windowSeconds : 0,
    };
  }
}
