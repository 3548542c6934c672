import Redis, { Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { ConnectionOptions } from 'node:tls';
import type { RedisStoreConfig } from '../config/app-config';

/** The longest a command waits for an answer (or for a connection being made), so requests fail fast. */
export const COMMAND_TIMEOUT_MS = 2000;

/** One node, the master Sentinel names, or a whole cluster: the same commands on each. */
export type RedisClient = Redis | Cluster;

/** TLS settings beyond "on" (REDIS_TLS=true uses Node's trust store, NODE_EXTRA_CA_CERTS included). */
export interface RedisClientExtras {
  readonly tls?: ConnectionOptions;
}

/** Reconnect 200 ms later per failed attempt, at most every 2 s, for as long as it takes. */
export const reconnectDelay = (attempt: number): number => Math.min(attempt * 200, 2000);

/** Every connection to a data node: one retry, then the command fails; nothing waits longer than 2 s. */
const NODE_OPTIONS = {
  maxRetriesPerRequest: 1,
  commandTimeout: COMMAND_TIMEOUT_MS,
  connectTimeout: COMMAND_TIMEOUT_MS,
} as const satisfies RedisOptions;

/**
 * Replies that say "not now" while a topology changes, not "this command is wrong": a replica that was
 * the master (READONLY), a node still loading its data (LOADING), a replica whose master is gone
 * (MASTERDOWN), a cluster without all its slots or in the middle of a resharding (CLUSTERDOWN,
 * TRYAGAIN), a master short of replicas (NOREPLICAS, min-replicas-to-write). They answer 503.
 */
export const TRANSIENT_REPLY = /^(READONLY|LOADING|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|NOREPLICAS)\b/;

/** The ioredis options of each topology (exported for their unit test). */
export function sentinelOptions(
  config: Extract<RedisStoreConfig, { kind: 'redis-sentinel' }>,
  extras: RedisClientExtras = {},
): RedisOptions {
  const tls = config.tls ? { ...extras.tls } : undefined;
  return {
    ...NODE_OPTIONS,
    retryStrategy: reconnectDelay,
    sentinels: config.sentinels.map(({ host, port }) => ({ host, port })),
    name: config.name,
    ...(config.password === undefined ? {} : { password: config.password }),
    ...(config.sentinelPassword === undefined ? {} : { sentinelPassword: config.sentinelPassword }),
    // A frozen sentinel must not hold up finding the master.
    sentinelCommandTimeout: COMMAND_TIMEOUT_MS,
    // ioredis: `tls` is for the master, `sentinelTLS` for the sentinels, and the first applies only
    // with enableTLSForSentinelMode.
    ...(tls ? { tls, sentinelTLS: tls, enableTLSForSentinelMode: true } : {}),
    // The store's SentinelFailoverWatch reconnects earlier than ioredis' own detector would (at
    // +try-failover rather than +switch-master), so that one stays off.
    failoverDetector: false,
    // A master turned replica answers writes with READONLY (should the watch have missed the
    // failover): reconnect, which asks the sentinels for the master again, and resend the command.
    reconnectOnError: (error: Error) => (error.message.startsWith('READONLY') ? 2 : false),
  };
}

export function clusterOptions(
  config: Extract<RedisStoreConfig, { kind: 'redis-cluster' }>,
  extras: RedisClientExtras = {},
): ClusterOptions {
  const tls = config.tls ? { ...extras.tls } : undefined;
  return {
    redisOptions: {
      ...NODE_OPTIONS,
      ...(config.password === undefined ? {} : { password: config.password }),
      ...(tls ? { tls } : {}),
    },
    clusterRetryStrategy: reconnectDelay,
    // No queue of its own while the cluster is not ready: that queue has no time limit, and a
    // command left in it would run whenever Redis came back, long after its request was answered.
    // RedisSessionStore waits for the cluster for COMMAND_TIMEOUT_MS before each command instead.
    enableOfflineQueue: false,
    // Learn a changed topology (a replica promoted, a master back, slots moved) within 5 s even
    // without a MOVED reply to point at it; readiness then pings the right masters.
    slotsRefreshInterval: 5000,
    // ioredis README, "Special note: AWS ElastiCache Clusters with TLS": keep node host names as given,
    // so TLS checks the certificate against the name rather than a resolved address.
    ...(tls
      ? {
          dnsLookup: (address: string, callback: (error: null, address: string) => void) =>
            callback(null, address),
        }
      : {}),
  };
}

/** The ioredis client for a configured topology, or for a plain URL (one node). */
export function createRedisClient(
  config: RedisStoreConfig,
  extras: RedisClientExtras = {},
): RedisClient {
  switch (config.kind) {
    case 'redis':
      return new Redis(config.url, { ...NODE_OPTIONS, retryStrategy: reconnectDelay });
    case 'redis-sentinel':
      return new Redis(sentinelOptions(config, extras));
    case 'redis-cluster':
      return new Cluster(
        config.nodes.map(({ host, port }) => ({ host, port })),
        clusterOptions(config, extras),
      );
  }
}
