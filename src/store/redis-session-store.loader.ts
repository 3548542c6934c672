import type { RedisSessionStore } from './redis-session-store';

/**
 * The Redis adapter and ioredis, loaded only when Redis is configured: a SQLite deployment starts
 * without them (issue 18 item 4; ioredis is about a tenth of the modules loaded at start).
 */
export async function loadRedisSessionStore(): Promise<typeof RedisSessionStore> {
  return (await import('./redis-session-store')).RedisSessionStore;
}
