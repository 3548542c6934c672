import type { RedisAddress, RedisStoreConfig } from './app-config';
import type { ConfigProblem } from './brand-directory';

/** The raw environment (config.schema.ts RawEnv; not imported from there, which imports this). */
type RawEnv = Readonly<Record<string, string | undefined>>;

/** SESSION_STORE: SQLite for one instance, or one of the Redis topologies (issue 17 item 1). */
export const SESSION_STORE_KINDS = ['sqlite', 'redis', 'redis-sentinel', 'redis-cluster'] as const;
export type RedisStoreKind = Exclude<(typeof SESSION_STORE_KINDS)[number], 'sqlite'>;

/** The variables each Redis topology reads; any other of them set beside it is reported as ignored. */
const VARIABLES: Record<RedisStoreKind, readonly string[]> = {
  redis: ['REDIS_URL'],
  'redis-sentinel': [
    'REDIS_SENTINELS',
    'REDIS_SENTINEL_NAME',
    'REDIS_PASSWORD',
    'REDIS_SENTINEL_PASSWORD',
    'REDIS_TLS',
  ],
  'redis-cluster': ['REDIS_CLUSTER_NODES', 'REDIS_PASSWORD', 'REDIS_TLS'],
};
const ALL_VARIABLES = [...new Set(Object.values(VARIABLES).flat())];

/** `host:port`, the host a name, an IPv4 address or a bracketed IPv6 address. */
const ADDRESS =
  /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?)):(\d{1,5})$/;

/** A comma-separated `host:port` list; undefined (with a problem) when any entry is not one. */
function addressList(
  key: string,
  value: string,
  problems: ConfigProblem[],
): RedisAddress[] | undefined {
  const addresses: RedisAddress[] = [];
  for (const entry of value.split(',').map((e) => e.trim())) {
    const match = ADDRESS.exec(entry);
    const port = Number(match?.[3]);
    if (!match || port < 1 || port > 65535) {
      problems.push({
        key,
        message: `must be a comma-separated list of host:port (got "${entry.slice(0, 60)}")`,
      });
      return undefined;
    }
    const host = match[1] ?? match[2] ?? '';
    if (addresses.some((a) => a.host === host && a.port === port)) {
      problems.push({ key, message: `names ${entry} twice` });
      return undefined;
    }
    addresses.push({ host, port });
  }
  return addresses;
}

/**
 * The Redis part of the configuration, for SESSION_STORE=redis|redis-sentinel|redis-cluster. Problems
 * stop the start (parseConfig lists them all); variables of another topology set beside the chosen one
 * are warnings, since the service runs without them but the operator probably meant something else.
 */
export function parseRedisStore(
  kind: RedisStoreKind,
  raw: RawEnv,
  problems: ConfigProblem[],
  warnings: ConfigProblem[],
): RedisStoreConfig | undefined {
  const value = (key: string): string | undefined => {
    const v = raw[key];
    return v === undefined || v === '' ? undefined : v;
  };
  const requiredValue = (key: string): string | undefined => {
    const v = value(key);
    if (v === undefined) problems.push({ key, message: `is required when SESSION_STORE=${kind}` });
    return v;
  };
  for (const key of ALL_VARIABLES) {
    if (value(key) !== undefined && !VARIABLES[kind].includes(key))
      warnings.push({
        key,
        message:
          kind === 'redis'
            ? 'is ignored with SESSION_STORE=redis: REDIS_URL carries the password (redis://:password@host) and TLS (rediss://)'
            : `is ignored with SESSION_STORE=${kind}`,
      });
  }
  // Optional for the sentinel and cluster topologies: `true` or `false`.
  const tls = (): boolean => {
    const v = value('REDIS_TLS');
    if (v === undefined || v === 'false') return false;
    if (v === 'true') return true;
    problems.push({ key: 'REDIS_TLS', message: 'must be true or false' });
    return false;
  };
  const password = value('REDIS_PASSWORD');

  switch (kind) {
    case 'redis': {
      const url = requiredValue('REDIS_URL');
      if (url === undefined) return undefined;
      if (!/^rediss?:\/\/[^\s]+$/.test(url)) {
        problems.push({ key: 'REDIS_URL', message: 'must be a redis:// or rediss:// URL' });
        return undefined;
      }
      return { kind, url };
    }
    case 'redis-sentinel': {
      const list = requiredValue('REDIS_SENTINELS');
      const sentinels =
        list === undefined ? undefined : addressList('REDIS_SENTINELS', list, problems);
      const name = requiredValue('REDIS_SENTINEL_NAME');
      if (name !== undefined && !/^[\x21-\x7e]{1,200}$/.test(name))
        problems.push({
          key: 'REDIS_SENTINEL_NAME',
          message: 'must be the master group name, 1-200 printable characters without spaces',
        });
      const sentinelPassword = value('REDIS_SENTINEL_PASSWORD');
      const useTls = tls();
      if (!sentinels || name === undefined) return undefined;
      return {
        kind,
        sentinels,
        name,
        ...(password === undefined ? {} : { password }),
        ...(sentinelPassword === undefined ? {} : { sentinelPassword }),
        tls: useTls,
      };
    }
    case 'redis-cluster': {
      const list = requiredValue('REDIS_CLUSTER_NODES');
      const nodes =
        list === undefined ? undefined : addressList('REDIS_CLUSTER_NODES', list, problems);
      const useTls = tls();
      if (!nodes) return undefined;
      return { kind, nodes, ...(password === undefined ? {} : { password }), tls: useTls };
    }
  }
}
