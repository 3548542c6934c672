import {
  RunningRedisSentinel,
  TEST_TLS,
  startRedisSentinel,
} from '../../test/support/redis-server';
import { RedisSessionStore } from './redis-session-store';

/**
 * Issue 17 item 1, "optional password and TLS": a master and a sentinel that speak TLS only (no plain
 * port), with passwords, and a store that reaches the master through the sentinel over TLS both ways.
 * The servers' certificate is issued by the test authority in test/fixtures/redis-tls, which the store
 * is given as its CA (a service would take it from NODE_EXTRA_CA_CERTS).
 */
let redis: RunningRedisSentinel;

beforeAll(async () => {
  redis = await startRedisSentinel({
    tls: true,
    replica: false,
    password: 'data-node-password',
    sentinelPassword: 'sentinel-password',
  });
}, 60_000);
afterAll(async () => {
  await redis?.stop();
});

describe('RedisSessionStore through Sentinel over TLS', () => {
  it('finds the master through the sentinel and works, all over TLS', async () => {
    expect(redis.config.tls).toBe(true);
    const store = new RedisSessionStore(redis.config, `tls-${process.pid}:`, 'session store', {
      tls: TEST_TLS,
    });
    try {
      await store.ping();
      await store.set('k', 'v', 60);
      expect(await store.get('k')).toBe('v');
      expect(await store.increment('n', 60)).toBe(1);
      await store.addMember('s', 'm', 60);
      expect(await store.members('s')).toEqual(['m']);
      expect(await redis.onMaster('GET', `tls-${process.pid}:k`)).toBe('v');
    } finally {
      await store.close();
    }
  });

  it('refuses a server whose certificate it cannot verify, and plain text, failing fast', async () => {
    const untrusting = new RedisSessionStore(redis.config, `tls-${process.pid}:`);
    const plain = new RedisSessionStore({ ...redis.config, tls: false }, `tls-${process.pid}:`);
    try {
      for (const store of [untrusting, plain]) {
        const started = Date.now();
        await expect(store.get('k')).rejects.toThrow(/redis/);
        expect(Date.now() - started).toBeLessThan(5000);
      }
    } finally {
      await untrusting.close();
      await plain.close();
    }
  });
});
