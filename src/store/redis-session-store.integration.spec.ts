import {
  RunningRedis,
  redisClock,
  redisCommand,
  startRedis,
} from '../../test/support/redis-server';
import { RedisSessionStore } from './redis-session-store';
import { describeSessionStoreContract } from './session-store.contract';

let redis: RunningRedis;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

// Redis keeps its own clock: the contract's time steps take the time off every key's expiry
// (redisClock) instead of waiting it out.
describeSessionStoreContract('redis', () =>
  Promise.resolve({
    store: new RedisSessionStore(redis.url, `test-${process.pid}:`),
    advance: redisClock([(...args) => redisCommand(redis.port, ...args)]),
  }),
);

describe(RedisSessionStore.name, () => {
  it('fails fast with an error while Redis is unreachable', async () => {
    const own = await startRedis();
    const store = new RedisSessionStore(own.url);
    try {
      await store.set('k', 'v', 60);
      await own.stop();
      const started = Date.now();
      await expect(store.get('k')).rejects.toThrow();
      await expect(store.ping()).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await store.close();
    }
  });
});
