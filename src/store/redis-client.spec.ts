import { clusterOptions, sentinelOptions } from './redis-client';

/** Issue 17 item 1: what each topology's configuration asks of ioredis. */
describe('Redis client options', () => {
  const sentinels = [
    { host: 's1', port: 26379 },
    { host: 's2', port: 26380 },
  ];

  it('sentinel: the sentinels, the master name, both passwords, and TLS to sentinels and master', () => {
    const ca = '-----BEGIN CERTIFICATE-----';
    const options = sentinelOptions(
      {
        kind: 'redis-sentinel',
        sentinels,
        name: 'signon',
        password: 'data',
        sentinelPassword: 'watch',
        tls: true,
      },
      { tls: { ca } },
    );
    expect(options).toMatchObject({
      sentinels,
      name: 'signon',
      password: 'data',
      sentinelPassword: 'watch',
      tls: { ca },
      sentinelTLS: { ca },
      enableTLSForSentinelMode: true,
      failoverDetector: false,
      commandTimeout: 2000,
      sentinelCommandTimeout: 2000,
    });
    expect(
      options.reconnectOnError?.(new Error('READONLY You cannot write against a replica')),
    ).toBe(2);
    expect(options.reconnectOnError?.(new Error('WRONGTYPE'))).toBe(false);
  });

  it('sentinel without TLS or passwords sets none', () => {
    const options = sentinelOptions({ kind: 'redis-sentinel', sentinels, name: 'n', tls: false });
    for (const key of [
      'tls',
      'sentinelTLS',
      'enableTLSForSentinelMode',
      'password',
      'sentinelPassword',
    ])
      expect(options).not.toHaveProperty(key);
  });

  it('cluster: password and TLS on every node, host names kept for TLS', () => {
    const options = clusterOptions({
      kind: 'redis-cluster',
      nodes: [{ host: 'r0', port: 6379 }],
      password: 'data',
      tls: true,
    });
    expect(options.redisOptions).toMatchObject({ password: 'data', tls: {}, commandTimeout: 2000 });
    const looked: string[] = [];
    options.dnsLookup?.('r0.example', (_error, address) => looked.push(address));
    expect(looked).toEqual(['r0.example']);
    const plain = clusterOptions({ kind: 'redis-cluster', nodes: [], tls: false });
    expect(plain.redisOptions).not.toHaveProperty('tls');
    expect(plain).not.toHaveProperty('dnsLookup');
    // The cluster's own queue has no time limit: off, the store waits for the cluster instead.
    expect(plain.enableOfflineQueue).toBe(false);
  });
});
