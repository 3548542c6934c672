import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import type { SessionStore } from '../session/session-store';

/**
 * @nestjs/throttler's counters kept in the session store (DESIGN.md "Brute force"): with Redis, every
 * instance counts against the same limit.
 */
export class StoreThrottlerStorage implements ThrottlerStorage {
  constructor(
    private readonly store: SessionStore,
    private readonly now: () => number = Date.now,
  ) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const counterKey = `ratelimit:${throttlerName}:${key}`;
    const blockKey = `${counterKey}:blocked`;
    const windowSeconds = Math.max(1, Math.ceil(ttl / 1000));
    const blockedUntil = Number((await this.store.get(blockKey)) ?? 0);
    if (blockedUntil > this.now()) {
      const left = Math.ceil((blockedUntil - this.now()) / 1000);
      return { totalHits: limit + 1, timeToExpire: left, isBlocked: true, timeToBlockExpire: left };
    }
    const totalHits = await this.store.increment(counterKey, windowSeconds);
    if (totalHits > limit) {
      const blockSeconds = Math.max(1, Math.ceil((blockDuration || ttl) / 1000));
      await this.store.set(blockKey, String(this.now() + blockSeconds * 1000), blockSeconds);
      return {
        totalHits,
        timeToExpire: windowSeconds,
        isBlocked: true,
        timeToBlockExpire: blockSeconds,
      };
    }
    return { totalHits, timeToExpire: windowSeconds, isBlocked: false, timeToBlockExpire: 0 };
  }
}
