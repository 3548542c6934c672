import {
  RunningRedisSentinel,
  redisClock,
  startRedisSentinel,
} from '../../test/support/redis-server';
import { testConfig } from '../../test/support/test-config';
import { RedisSessionStore } from './redis-session-store';
import { describeSessionStoreContract } from './session-store.contract';
import { createSessionStore } from './create-session-store';

/**
 * Issue 17 item 1: the store on a master and a replica found through Redis Sentinel
 * (SESSION_STORE=redis-sentinel), all three real redis-server processes, with passwords on the data
 * nodes and on the sentinel.
 */
let redis: RunningRedisSentinel;

beforeAll(async () => {
  redis = await startRedisSentinel({
    password: 'data-node-password',
    sentinelPassword: 'sentinel-password',
  });
}, 60_000);
afterAll(async () => {
  await redis?.stop();
});

// The configuration as the service parses it: REDIS_SENTINELS, REDIS_SENTINEL_NAME and both passwords.
describeSessionStoreContract('redis sentinel', async () => ({
  store: await createSessionStore(testConfig(redis.env)),
  advance: redisClock([(...args: string[]) => redis.onMaster(...args)]),
}));

describe('RedisSessionStore through Sentinel', () => {
  it('talks to the master, never the replica, and needs the right password', async () => {
    const store = new RedisSessionStore(redis.config, `who-${process.pid}:`);
    const wrong = new RedisSessionStore(
      { ...redis.config, password: 'not-the-password' },
      `who-${process.pid}:`,
    );
    try {
      await store.set('k', 'v', 60);
      expect(await redis.onMaster('GET', `who-${process.pid}:k`)).toBe('v');
      await expect(wrong.get('k')).rejects.toThrow(/redis/);
    } finally {
      await store.close();
      await wrong.close();
    }
  });

  it('loses no acknowledged write through SENTINEL FAILOVER, and goes on on the new master', async () => {
    const prefix = `failover-${process.pid}:`;
    const store = new RedisSessionStore(redis.config, prefix);
    const fresh = new RedisSessionStore(redis.config, prefix);
    let running = true;
    try {
      await store.ping();
      const written = new Map<string, string>();
      let increments = 0;
      const failures: string[] = [];
      // Four writers, as concurrent requests would be: each a value of its own and one shared counter.
      const writer = async (w: number): Promise<void> => {
        for (let i = 0; running; i++) {
          const key = `w${w}:${i}`;
          try {
            await store.set(key, `value-${w}-${i}`, 600);
            written.set(key, `value-${w}-${i}`);
            await store.increment('counter', 600);
            increments += 1;
          } catch (error) {
            failures.push((error as Error).message);
          }
          await new Promise((r) => setTimeout(r, 5));
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      await new Promise((r) => setTimeout(r, 500));
      const { from, to } = await redis.failover();
      await new Promise((r) => setTimeout(r, 1500));
      running = false;
      await Promise.all(writers);
      expect(to.port).not.toBe(from.port);

      // Commands waited for the new master instead of failing (ioredis' own failover detector,
      // tried in its place, failed about 150 of them here) or landing on the old one.
      expect(failures.length).toBeLessThanOrEqual(4);
      expect(written.size).toBeGreaterThan(100);
      // Every write that was acknowledged is on the new master (with ioredis' detector, some of the
      // last second before the switch were not), and the counter counted each once.
      expect((await redis.master()).port).toBe(to.port);
      for (const [key, value] of written) expect(await fresh.get(key)).toBe(value);
      expect(Number(await fresh.get('counter'))).toBe(increments);
      // Still so once the old master has come back as the new one's replica (and resynchronised).
      await redis.replicasSynced();
      expect(Number(await fresh.get('counter'))).toBe(increments);
      await store.set('after', 'v', 60);
      expect(await redis.onMaster('GET', `${prefix}after`)).toBe('v');
      await store.ping();
    } finally {
      running = false;
      await fresh.close();
      await store.close();
    }
  }, 90_000);
});
