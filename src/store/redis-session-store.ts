import { Logger } from '@nestjs/common';
import { Cluster } from 'ioredis';
import type { RedisStoreConfig } from '../config/app-config';
import { AppError } from '../errors/app-error';
import { errorSummary } from '../errors/error-summary';
import {
  COMMAND_TIMEOUT_MS,
  RedisClient,
  RedisClientExtras,
  TRANSIENT_REPLY,
  createRedisClient,
} from './redis-client';
import { SentinelFailoverWatch } from './sentinel-failover-watch';
import {
  SessionStore,
  StoreWrite,
  assertValidIncrement,
  assertValidKey,
  assertValidMember,
  assertValidTtl,
  assertValidWrites,
} from './session-store';

/** Connection states in which Redis is known to be gone: commands fail at once instead of queueing. */
const UNREACHABLE_STATES: ReadonlySet<string> = new Set(['reconnecting', 'close', 'end']);

/*
 * Hash slots (issue 17 item 1). Redis Cluster specification, "Key distribution model" and "Hash
 * tags": a command or script whose keys lie in different hash slots is refused (CROSSSLOT), and a
 * script may touch only the keys it declares. Keys meant to be used together must therefore share
 * a hash tag `{...}`, the part of the key the slot is computed from.
 *
 * This adapter never needs one: every command it issues names exactly one key, and every script
 * declares exactly one (KEYS[1], numkeys 1, enforced by the signature of `script()`) and touches no
 * other. Keys that belong together are written by separate one-key calls whose order tolerates a
 * failure in between: a session and its collector's and IdP session's handle sets (sessions.ts,
 * pruned when a handle names no session), an IdP artefact and its grant's and account's sets, its uid
 * index (store-oidc-storage.ts). So each call lands in one slot as the key is, and keys spread over
 * every master. A shared tag for such a family would only pile it onto one master; a common one for
 * everything (`{cs}:`) would make the cluster a single node. Whoever adds a command or script over
 * several keys must put those keys under one hash tag, and extend this note.
 */

/** Compare-and-delete in one step (a GET then a DEL could delete a lock another instance took). */
const DELETE_IF_EQUALS_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/** INCRBY, and start the window on the first increment, atomically. */
const INCREMENT_SCRIPT = `
local by = tonumber(ARGV[2] or '1')
local n = redis.call('INCRBY', KEYS[1], by)
if n == by then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n`;

/** SADD, and keep the set at least ARGV[2] seconds more, atomically. */
const ADD_MEMBER_SCRIPT = `
redis.call('SADD', KEYS[1], ARGV[1])
local ttl = redis.call('TTL', KEYS[1])
if ttl < tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return 1`;

/**
 * Counted sets (addExpiringMember) are sorted sets scored by each member's end, in ms on Redis's
 * own clock (TIME): one clock for every instance. Adding drops the members whose end has passed,
 * in the same step, so the set holds little beyond the members alive with no sweep of its own;
 * each member is dropped once, so an addition costs O(log n) over time. A script may write after TIME since
 * Redis 5 replicates its effects, not the script (`take` needs GETDEL, Redis 6.2, anyway).
 */
const REDIS_NOW_MS = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

const ADD_EXPIRING_MEMBER_SCRIPT = `${REDIS_NOW_MS}
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]) * 1000, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return 1`;

/** ZCOUNT of the members whose end is still ahead: O(log n), whatever the set's size. */
const COUNT_MEMBERS_ALIVE_SCRIPT = `${REDIS_NOW_MS}
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')`;

/**
 * Redis adapter for several instances behind a load balancer, on one node (SESSION_STORE=redis), a
 * master found through Sentinel (redis-sentinel) or a Redis Cluster (redis-cluster). Commands fail
 * fast while Redis is unreachable: at once while ioredis knows the connection is down, otherwise after
 * the command timeout (or one retry), so a request gets a clear error (503, AppError
 * ServiceUnavailable) instead of hanging. ioredis reconnects on its own (every 2 s at most) when Redis
 * returns. Losing and regaining the connection are logged once each. With Sentinel, commands wait
 * while a failover is under way (SentinelFailoverWatch).
 */
export class RedisSessionStore implements SessionStore {
  readonly kind = 'redis' as const;
  private readonly client: RedisClient;
  private readonly failover: SentinelFailoverWatch | undefined;
  private readonly logger = new Logger(RedisSessionStore.name);
  private reachable = true;
  /** close() was called: the connection ending is no outage. */
  private closing = false;

  /**
   * `connection` is a topology from the configuration, or a redis:// URL (one node). `label` names the
   * store in its log lines and errors (the embedded IdP keeps its state in a store of its own, so an
   * outage reads as two distinct stores going down). `extras` carries TLS settings beyond "on".
   */
  constructor(
    connection: string | RedisStoreConfig,
    private readonly prefix = 'cs:',
    private readonly label = 'session store',
    extras: RedisClientExtras = {},
  ) {
    const config: RedisStoreConfig =
      typeof connection === 'string' ? { kind: 'redis', url: connection } : connection;
    const client = createRedisClient(config, extras);
    this.client = client;
    this.failover =
      config.kind === 'redis-sentinel'
        ? new SentinelFailoverWatch({
            sentinels: config.sentinels,
            name: config.name,
            ...(config.sentinelPassword === undefined
              ? {}
              : { sentinelPassword: config.sentinelPassword }),
            ...(config.tls ? { tls: { ...extras.tls } } : {}),
            label,
            reconnect: () => client.disconnect(true),
          })
        : undefined;
    // Without a listener ioredis would print every failed reconnect attempt to stderr; the commands
    // that fail meanwhile report themselves (the exception filter logs each with its correlation id).
    client.on('error', (error: Error) => this.lost(errorSummary(error)));
    client.on('close', () => {
      if (!this.closing) this.lost('the connection closed');
    });
    client.on('ready', () => this.found());
    if (client instanceof Cluster) {
      // A cluster stays "ready" while one of its nodes is gone: the node's own errors tell.
      client.on('node error', (error: Error, node: string) =>
        this.lost(`node ${node}: ${errorSummary(error)}`),
      );
    } else {
      client.on('ready', () =>
        this.failover?.connected({
          address: client.stream?.remoteAddress,
          port: client.stream?.remotePort,
        }),
      );
    }
  }

  /** Logs the start of an outage once, however many reconnect attempts fail during it. */
  private lost(why: string): void {
    // A failover drops the connection on purpose; the watch logs it.
    if (!this.reachable || this.closing || this.failover?.holding) return;
    this.reachable = false;
    this.logger.error(
      `${this.label} (redis) unreachable, requests that need it fail with 503 until it returns: ${why}`,
    );
  }

  private found(): void {
    if (!this.reachable) this.logger.log(`${this.label} (redis) reachable again`);
    this.reachable = true;
  }

  /**
   * Runs one command; an unreachable or silent Redis becomes ServiceUnavailable, and so does a reply
   * that only says the topology is changing (TRANSIENT_REPLY). Any other reply error (Redis answered,
   * and refused) is a programming error and stays one.
   */
  private async call<T>(command: () => Promise<T>): Promise<T> {
    if (this.failover?.holding && !(await this.failover.settled(COMMAND_TIMEOUT_MS)))
      throw new AppError(
        'ServiceUnavailable',
        `the ${this.label} (redis) is failing over to a new master`,
      );
    const status = this.client.status;
    if (UNREACHABLE_STATES.has(status))
      throw new AppError(
        'ServiceUnavailable',
        `the ${this.label} (redis) is not connected (${status})`,
      );
    // A cluster still (re)connecting would hold the command in its own queue with no time limit:
    // ioredis empties that queue only when it gives up reconnecting, which it never does here, so a
    // request made while every node is down waited until Redis came back. It waits for the
    // cluster as long as a command waits for an answer instead; the queue itself is off
    // (clusterOptions), so nothing is sent late after the collector was answered 503.
    if (this.client instanceof Cluster && status !== 'ready') {
      try {
        await readyWithin(this.client, COMMAND_TIMEOUT_MS);
      } catch (error) {
        throw new AppError(
          'ServiceUnavailable',
          `the ${this.label} (redis) is not connected (${status})`,
          { cause: error },
        );
      }
    }
    try {
      return await command();
    } catch (error) {
      const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
      if (name === 'ReplyError' && !TRANSIENT_REPLY.test(String(message))) throw error;
      throw new AppError(
        'ServiceUnavailable',
        `the ${this.label} (redis) did not answer: ${errorSummary(error)}`,
        { cause: error },
      );
    }
  }

  private k(key: string): string {
    assertValidKey(key);
    return this.prefix + key;
  }

  /** Runs a Lua script over exactly one key: see "Hash slots" above. */
  private script(source: string, key: string, ...args: (string | number)[]): Promise<unknown> {
    return this.client.eval(source, 1, key, ...args);
  }

  // Keys and arguments are checked before call(): a bad one is a programming error, not an outage.

  async get(key: string): Promise<string | undefined> {
    const k = this.k(key);
    return (await this.call(() => this.client.get(k))) ?? undefined;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    assertValidTtl(ttlSeconds);
    const k = this.k(key);
    await this.call(() => this.client.set(k, value, 'EX', ttlSeconds));
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    assertValidTtl(ttlSeconds);
    const k = this.k(key);
    return (await this.call(() => this.client.set(k, value, 'EX', ttlSeconds, 'NX'))) === 'OK';
  }

  async replace(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    assertValidTtl(ttlSeconds);
    const k = this.k(key);
    return (await this.call(() => this.client.set(k, value, 'EX', ttlSeconds, 'XX'))) === 'OK';
  }

  async take(key: string): Promise<string | undefined> {
    const k = this.k(key);
    return (await this.call(() => this.client.getdel(k))) ?? undefined;
  }

  async deleteIfEquals(key: string, value: string): Promise<boolean> {
    const k = this.k(key);
    return Number(await this.call(() => this.script(DELETE_IF_EQUALS_SCRIPT, k, value))) === 1;
  }

  async delete(key: string): Promise<void> {
    const k = this.k(key);
    await this.call(() => this.client.del(k));
  }

  async increment(key: string, windowSeconds: number, by = 1): Promise<number> {
    assertValidTtl(windowSeconds);
    assertValidIncrement(by);
    const k = this.k(key);
    return Number(await this.call(() => this.script(INCREMENT_SCRIPT, k, windowSeconds, by)));
  }

  async addMember(key: string, member: string, ttlSeconds: number): Promise<void> {
    assertValidMember(member);
    assertValidTtl(ttlSeconds);
    const k = this.k(key);
    await this.call(() => this.script(ADD_MEMBER_SCRIPT, k, member, ttlSeconds));
  }

  async removeMember(key: string, member: string): Promise<void> {
    assertValidMember(member);
    const k = this.k(key);
    await this.call(() => this.client.srem(k, member));
  }

  async members(key: string): Promise<string[]> {
    const k = this.k(key);
    return this.call(() => this.client.smembers(k));
  }

  /** A sorted set by end time (see ADD_EXPIRING_MEMBER_SCRIPT); one key, so one hash slot. */
  async addExpiringMember(key: string, member: string, ttlSeconds: number): Promise<void> {
    assertValidMember(member);
    assertValidTtl(ttlSeconds);
    const k = this.k(key);
    await this.call(() => this.script(ADD_EXPIRING_MEMBER_SCRIPT, k, member, ttlSeconds));
  }

  async removeExpiringMember(key: string, member: string): Promise<void> {
    assertValidMember(member);
    const k = this.k(key);
    await this.call(() => this.client.zrem(k, member));
  }

  async countMembersAlive(key: string): Promise<number> {
    const k = this.k(key);
    return Number(await this.call(() => this.script(COUNT_MEMBERS_ALIVE_SCRIPT, k)));
  }

  /**
   * One call after another, each on one key as the single calls are (see "Hash slots" above): a
   * MULTI over several keys would need them in one slot. The first failure stops the batch.
   */
  async writeAll(writes: readonly StoreWrite[]): Promise<void> {
    assertValidWrites(writes);
    for (const write of writes) {
      switch (write.op) {
        case 'set':
          await this.set(write.key, write.value, write.ttlSeconds);
          break;
        case 'delete':
          await this.delete(write.key);
          break;
        case 'addMember':
          await this.addMember(write.key, write.member, write.ttlSeconds);
          break;
        case 'removeMember':
          await this.removeMember(write.key, write.member);
          break;
        case 'addExpiringMember':
          await this.addExpiringMember(write.key, write.member, write.ttlSeconds);
          break;
        case 'removeExpiringMember':
          await this.removeExpiringMember(write.key, write.member);
          break;
      }
    }
  }

  async ping(): Promise<void> {
    const client = this.client;
    if (client instanceof Cluster) {
      await this.call(() => pingEveryMaster(client));
      this.found();
    } else {
      await this.call(() => client.ping());
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.failover?.close();
    if (this.client.status === 'ready') {
      // QUIT goes to every node of a cluster; a node that does not answer is cut off below.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.client.quit().catch(() => undefined),
        new Promise((resolve) => (timer = setTimeout(resolve, COMMAND_TIMEOUT_MS))),
      ]);
      clearTimeout(timer);
    }
    this.client.disconnect();
  }
}

/**
 * Readiness of a cluster: every master that owns slots answers. PING alone would reach one node at
 * random, and a cluster with one master gone still answers there while a third of the sessions are
 * out of reach. A master the client holds no connection to (it dropped it) fails the check and makes
 * the client learn the topology again, so the next check finds it when it is back.
 */
async function pingEveryMaster(cluster: Cluster): Promise<void> {
  if (cluster.status !== 'ready') await readyWithin(cluster, COMMAND_TIMEOUT_MS);
  const owners = new Set<string>();
  for (const nodes of cluster.slots) if (nodes?.[0]) owners.add(nodes[0]);
  if (owners.size === 0) throw new Error('no master of the cluster known yet');
  const connected = new Map(
    cluster.nodes('master').map((node) => [`${node.options.host}:${node.options.port}`, node]),
  );
  await Promise.all(
    [...owners].map(async (key) => {
      const node = connected.get(key);
      if (!node) {
        cluster.refreshSlotsCache();
        throw new Error(`no connection to the master ${key}`);
      }
      await node.ping();
    }),
  );
}

/** A cluster still connecting (first use) knows no slots yet: wait for it, as queued commands do. */
function readyWithin(cluster: Cluster, ms: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cluster.off('ready', ready);
      reject(new Error(`the cluster was not ready within ${ms} ms (${cluster.status})`));
    }, ms);
    const ready = (): void => {
      clearTimeout(timer);
      resolve();
    };
    cluster.once('ready', ready);
  });
}
