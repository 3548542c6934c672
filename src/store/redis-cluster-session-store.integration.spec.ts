import {
  RunningRedisCluster,
  redisClock,
  startRedisCluster,
} from '../../test/support/redis-server';
import { testConfig } from '../../test/support/test-config';
import { AppError } from '../errors/app-error';
import { RedisSessionStore } from './redis-session-store';
import { describeSessionStoreContract } from './session-store.contract';
import { createSessionStore } from './create-session-store';

/**
 * Issue 17 item 1: the store on a Redis Cluster of three masters (SESSION_STORE=redis-cluster), made
 * by `redis-cli --cluster create` from real redis-server processes.
 */
let cluster: RunningRedisCluster;

beforeAll(async () => {
  cluster = await startRedisCluster();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

// The configuration as the service parses it, so the contract also covers REDIS_CLUSTER_NODES.
describeSessionStoreContract('redis cluster', async () => ({
  store: await createSessionStore(testConfig(cluster.env)),
  advance: redisClock(
    cluster.nodes.map(
      (_, i) =>
        (...args: string[]) =>
          cluster.call(i, ...args),
    ),
  ),
}));

/** How many keys each master holds. */
async function keysPerNode(): Promise<number[]> {
  return Promise.all(cluster.nodes.map(async (_, i) => Number(await cluster.call(i, 'DBSIZE'))));
}

/** Clients connected to each node, not counting the connection that asks. */
async function clientsPerNode(): Promise<number[]> {
  return Promise.all(
    cluster.nodes.map(async (_, i) => {
      const info = String(await cluster.call(i, 'INFO', 'clients'));
      return Number(/connected_clients:(\d+)/.exec(info)?.[1]) - 1;
    }),
  );
}

describe('RedisSessionStore on a cluster', () => {
  it('is a real cluster: a command over keys of two slots is refused (CROSSSLOT)', async () => {
    await expect(cluster.call(0, 'MSET', 'a', '1', 'b', '2')).rejects.toThrow(/CROSSSLOT|MOVED/);
  });

  it("spreads one family's keys and every operation, scripts included, over all three masters", async () => {
    const store = new RedisSessionStore(cluster.config, `spread-${process.pid}:`);
    try {
      const before = await keysPerNode();
      // A collector's session, its handle set, a counter and a lock, as the service writes them:
      // no hash tag binds them, so they land wherever their own slot is.
      for (let i = 0; i < 60; i++) {
        await store.set(`session:${i}`, 'record', 60);
        await store.addMember(`sessions-of:${i}`, `handle-${i}`, 60);
        expect(await store.increment(`ratelimit:${i}`, 60)).toBe(1);
        expect(await store.setIfAbsent(`lock:${i}`, 'holder', 60)).toBe(true);
        expect(await store.deleteIfEquals(`lock:${i}`, 'holder')).toBe(true);
        expect(await store.members(`sessions-of:${i}`)).toEqual([`handle-${i}`]);
        expect(await store.take(`session:${i}`)).toBe('record');
      }
      for (let i = 0; i < 60; i++) await store.set(`session:${i}`, 'record', 60);
      const grown = (await keysPerNode()).map((n, i) => n - (before[i] ?? 0));
      expect(grown.every((n) => n > 20)).toBe(true);
      expect(grown.reduce((a, b) => a + b, 0)).toBe(180);
    } finally {
      await store.close();
    }
  });

  it('readiness asks every master: one master down fails it, and it recovers when the master returns', async () => {
    const store = new RedisSessionStore(cluster.config, `ready-${process.pid}:`);
    try {
      await store.ping();
      await cluster.stopNode(2);
      const started = Date.now();
      await expect(store.ping()).rejects.toThrow(/redis/);
      expect(Date.now() - started).toBeLessThan(5000);
      // The other masters still serve their own keys meanwhile; this one is on node 0 or 1 or 2.
      await cluster.startNode(2);
      const deadline = Date.now() + 20_000;
      for (;;) {
        try {
          await store.ping();
          break;
        } catch (error) {
          if (Date.now() > deadline) throw error;
          await new Promise((r) => setTimeout(r, 250));
        }
      }
      await store.set('after', 'v', 60);
      expect(await store.get('after')).toBe('v');
    } finally {
      await store.close();
    }
  }, 60_000);

  it('close ends the connection to every node', async () => {
    // Connections of stores closed just before may still be going: wait for quiet.
    let idle = await clientsPerNode();
    for (let settled = false; !settled;) {
      await new Promise((r) => setTimeout(r, 200));
      const now = await clientsPerNode();
      settled = now.every((n, i) => n === idle[i]);
      idle = now;
    }
    const store = new RedisSessionStore(cluster.config, `close-${process.pid}:`);
    for (let i = 0; i < 30; i++) await store.set(`k${i}`, 'v', 60);
    await store.ping();
    const open = await clientsPerNode();
    expect(open.every((n, i) => n > (idle[i] ?? 0))).toBe(true);
    await store.close();
    const deadline = Date.now() + 5000;
    while ((await clientsPerNode()).some((n, i) => n > (idle[i] ?? 0))) {
      if (Date.now() > deadline) throw new Error('connections left open after close()');
      await new Promise((r) => setTimeout(r, 100));
    }
  });
});

/** `work`, or an error naming `what` once `ms` have passed (test/support's within(), which a spec
 * here may not import: it would close a folder cycle for dependency-cruiser). */
async function within<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('RedisSessionStore on a cluster that is down', () => {
  // ioredis keeps a command sent while the cluster is (re)connecting in a queue of its own with no
  // time limit: a request made while every master was down waited until Redis came back. Each
  // command now settles (503) within the store's wait for the cluster, whenever it is sent.
  it('answers every command while all masters are down, and serves once they are back', async () => {
    await cluster.pause();
    const store = new RedisSessionStore(cluster.config, `down-${process.pid}:`);
    try {
      const until = Date.now() + 6_000;
      let sent = 0;
      while (Date.now() < until) {
        // A command left in a queue would never settle: within() fails naming it instead.
        const settled = await within(
          `command ${++sent} while the cluster is down`,
          10_000,
          store.get(`k${sent}`).then(
            () => 'answered',
            (error: unknown) => (error instanceof AppError ? error.code : String(error)),
          ),
        );
        expect(settled).toBe('ServiceUnavailable');
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(sent).toBeGreaterThan(3);
      await cluster.resume();
      const deadline = Date.now() + 20_000;
      for (;;) {
        try {
          await store.set('back', 'v', 60);
          break;
        } catch (error) {
          if (Date.now() > deadline) throw error;
          await new Promise((r) => setTimeout(r, 250));
        }
      }
      expect(await store.get('back')).toBe('v');
    } finally {
      await store.close();
      await cluster.resume().catch(() => undefined);
    }
  }, 90_000);
});
