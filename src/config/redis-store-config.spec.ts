import { productionEnv } from '../../test/support/test-config';
import { ConfigError, RawEnv, parseConfig } from './config.schema';

/** Issue 17 item 1: SESSION_STORE=redis-sentinel and redis-cluster, parsed with the rest. */
function problemsOf(env: RawEnv): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => p.key);
    throw error;
  }
  return [];
}

const SENTINEL = {
  SESSION_STORE: 'redis-sentinel',
  REDIS_SENTINELS: 'sentinel-a.internal:26379, 10.0.0.7:26380,[fd00::9]:26379',
  REDIS_SENTINEL_NAME: 'signon',
};
const CLUSTER = {
  SESSION_STORE: 'redis-cluster',
  REDIS_CLUSTER_NODES: 'redis-0.redis:6379,redis-1.redis:6379',
};

describe('Redis topologies in the configuration', () => {
  it('reads a sentinel set-up: sentinels, master name, passwords and TLS', () => {
    expect(parseConfig(SENTINEL).sessionStore).toEqual({
      kind: 'redis-sentinel',
      sentinels: [
        { host: 'sentinel-a.internal', port: 26379 },
        { host: '10.0.0.7', port: 26380 },
        { host: 'fd00::9', port: 26379 },
      ],
      name: 'signon',
      tls: false,
    });
    expect(
      parseConfig({
        ...SENTINEL,
        REDIS_PASSWORD: 'data',
        REDIS_SENTINEL_PASSWORD: 'watch',
        REDIS_TLS: 'true',
      }).sessionStore,
    ).toMatchObject({ password: 'data', sentinelPassword: 'watch', tls: true });
  });

  it('reads a cluster set-up: seed nodes, password and TLS', () => {
    expect(parseConfig(CLUSTER).sessionStore).toEqual({
      kind: 'redis-cluster',
      nodes: [
        { host: 'redis-0.redis', port: 6379 },
        { host: 'redis-1.redis', port: 6379 },
      ],
      tls: false,
    });
    expect(
      parseConfig({ ...CLUSTER, REDIS_PASSWORD: 'data', REDIS_TLS: 'true' }).sessionStore,
    ).toMatchObject({ kind: 'redis-cluster', password: 'data', tls: true });
  });

  it('keeps SESSION_STORE=redis as it was', () => {
    expect(
      parseConfig({ SESSION_STORE: 'redis', REDIS_URL: 'rediss://:pw@r:6380' }).sessionStore,
    ).toEqual({ kind: 'redis', url: 'rediss://:pw@r:6380' });
  });

  it('runs in prod on either topology', () => {
    expect(parseConfig({ ...productionEnv(), ...SENTINEL }).sessionStore.kind).toBe(
      'redis-sentinel',
    );
    expect(parseConfig({ ...productionEnv(), ...CLUSTER }).sessionStore.kind).toBe('redis-cluster');
  });

  const rejected: [string, RawEnv, string[]][] = [
    [
      'sentinel without sentinels or name',
      { SESSION_STORE: 'redis-sentinel' },
      ['REDIS_SENTINELS', 'REDIS_SENTINEL_NAME'],
    ],
    ['cluster without nodes', { SESSION_STORE: 'redis-cluster' }, ['REDIS_CLUSTER_NODES']],
    [
      'a sentinel without a port',
      { ...SENTINEL, REDIS_SENTINELS: 'sentinel-a' },
      ['REDIS_SENTINELS'],
    ],
    ['port 0', { ...SENTINEL, REDIS_SENTINELS: 'sentinel-a:0' }, ['REDIS_SENTINELS']],
    ['a port too high', { ...CLUSTER, REDIS_CLUSTER_NODES: 'r:70000' }, ['REDIS_CLUSTER_NODES']],
    [
      'a URL instead of host:port',
      { ...CLUSTER, REDIS_CLUSTER_NODES: 'redis://r:6379' },
      ['REDIS_CLUSTER_NODES'],
    ],
    ['an empty entry', { ...CLUSTER, REDIS_CLUSTER_NODES: 'r:6379,' }, ['REDIS_CLUSTER_NODES']],
    [
      'a node named twice',
      { ...CLUSTER, REDIS_CLUSTER_NODES: 'r:6379,r:6379' },
      ['REDIS_CLUSTER_NODES'],
    ],
    [
      'an unbracketed IPv6 address',
      { ...SENTINEL, REDIS_SENTINELS: 'fd00::9:26379' },
      ['REDIS_SENTINELS'],
    ],
    [
      'a master name with a space',
      { ...SENTINEL, REDIS_SENTINEL_NAME: 'my master' },
      ['REDIS_SENTINEL_NAME'],
    ],
    ['TLS neither true nor false', { ...CLUSTER, REDIS_TLS: 'yes' }, ['REDIS_TLS']],
  ];
  it.each(rejected)('stops on %s, naming it', (_name, env, keys) => {
    expect(problemsOf(env).sort()).toEqual([...keys].sort());
  });

  it("warns about another topology's variables, which are ignored", () => {
    const cluster = parseConfig({
      ...CLUSTER,
      REDIS_URL: 'redis://r:6379',
      REDIS_SENTINEL_NAME: 'x',
    });
    expect(cluster.warnings.map((w) => w.key).sort()).toEqual(['REDIS_SENTINEL_NAME', 'REDIS_URL']);
    const single = parseConfig({
      SESSION_STORE: 'redis',
      REDIS_URL: 'redis://r:6379',
      REDIS_PASSWORD: 'pw',
    });
    expect(single.warnings).toEqual([
      { key: 'REDIS_PASSWORD', message: expect.stringContaining('REDIS_URL carries the password') },
    ]);
    // SQLite reads none of them: a developer's exported REDIS_URL is no concern of a local start.
    expect(parseConfig({ REDIS_URL: 'redis://r:6379', REDIS_TLS: 'true' }).warnings).toEqual([]);
  });
});
