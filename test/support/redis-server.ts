import Redis from 'ioredis';
import { ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as tls from 'node:tls';
import type { RedisStoreConfig } from '../../src/config/app-config';
import { freePort } from './free-port';

export interface RunningRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Starts a throw-away redis-server on a free loopback port (or `port`, e.g. to bring one back where
 * it was), without persistence. `npm test` installs Debian's redis-server first
 * (scripts/test-prerequisites.js); a missing binary fails loudly here.
 */
export async function startRedis(options: { port?: number } = {}): Promise<RunningRedis> {
  if (spawnSync('sh', ['-c', 'command -v redis-server'], { stdio: 'ignore' }).status !== 0) {
    throw new Error(
      'redis-server is not installed: run `npm test` (it installs it) or `apt-get install -y redis-server`',
    );
  }
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--protected-mode',
      'yes',
    ],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 10_000;
  while (!(await answersPing(port))) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('redis-server did not start within 10 s');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => {
      socket.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

// ---------------------------------------------------------------------------------------------------
// Issue 17 item 1: the topologies production runs. Real processes of Debian's redis-server (also the
// sentinel: `redis-server <conf> --sentinel`) and redis-cli (`--cluster create`), each in a temporary
// folder of its own (`--dir`, so no dump or nodes file lands in the checkout), on ports from freePort.

const TLS_DIR = path.resolve(__dirname, '../fixtures/redis-tls');

/** What a client needs to trust the test servers' certificate (test/fixtures/redis-tls). */
export const TEST_TLS: Readonly<tls.ConnectionOptions> = {
  ca: fs.readFileSync(path.join(TLS_DIR, 'ca.crt'), 'utf8'),
};

export interface Address {
  readonly host: string;
  readonly port: number;
}

function assertInstalled(program: string, pkg: string): void {
  if (spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status !== 0) {
    throw new Error(
      `${program} is not installed: run \`npm test\` (it installs it) or \`apt-get install -y ${pkg}\``,
    );
  }
}

/** `count` distinct ports that are free right now. */
async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitUntil(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

interface Connect {
  readonly password?: string;
  readonly tls?: boolean;
}

/** One command on a fresh connection to 127.0.0.1:port (no retries, no queue). */
async function command(port: number, connect: Connect, ...args: string[]): Promise<unknown> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    ...(connect.password ? { password: connect.password } : {}),
    ...(connect.tls ? { tls: { ...TEST_TLS } } : {}),
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    commandTimeout: 2000,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const [name = '', ...rest] = args;
    return await client.call(name, ...rest);
  } finally {
    client.disconnect();
  }
}

/** A redis-server child: started with `args`, stopped with SIGTERM (SIGKILL after 5 s). */
class RedisProcess {
  private child: ChildProcess | undefined;
  constructor(
    readonly port: number,
    private readonly args: readonly string[],
    private readonly connect: Connect,
  ) {}

  async start(): Promise<void> {
    const child = spawn('redis-server', [...this.args], { stdio: 'ignore' });
    this.child = child;
    await waitUntil(`redis-server on port ${this.port} answers`, async () => {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      return (await command(this.port, this.connect, 'PING')) === 'PONG';
    });
  }

  stop(): Promise<void> {
    const child = this.child;
    return new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  call(...args: string[]): Promise<unknown> {
    return command(this.port, this.connect, ...args);
  }
}

export interface RunningRedisCluster {
  /** The masters, each with a third of the slots. */
  readonly nodes: readonly Address[];
  /** SESSION_STORE=redis-cluster with its nodes, as a service's environment sets them. */
  readonly env: Readonly<Record<string, string>>;
  /** The configuration the store adapter takes. */
  readonly config: Extract<RedisStoreConfig, { kind: 'redis-cluster' }>;
  /** A command on one node (by index). */
  call(node: number, ...args: string[]): Promise<unknown>;
  /** Stops one node (its slots go out of reach); startNode brings it back with its slots, empty. */
  stopNode(node: number): Promise<void>;
  startNode(node: number): Promise<void>;
  /** Stops every node, keeping their cluster configuration; resume() starts them all again. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Three masters made one cluster by `redis-cli --cluster create` (no replicas). Each node's cluster
 * bus gets a free port of its own (`--cluster-port`) rather than port + 10000.
 */
export async function startRedisCluster(): Promise<RunningRedisCluster> {
  assertInstalled('redis-server', 'redis-server');
  assertInstalled('redis-cli', 'redis-tools');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redis-cluster-'));
  const ports = await freePorts(6);
  const nodes = [0, 1, 2].map((i) => {
    const port = ports[i] ?? 0;
    return new RedisProcess(
      port,
      [
        '--port',
        String(port),
        '--cluster-port',
        String(ports[i + 3]),
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        '5000',
        '--dir',
        dir,
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      {},
    );
  });
  const stop = async (): Promise<void> => {
    await Promise.all(nodes.map((n) => n.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all(nodes.map((n) => n.start()));
    await new Promise<void>((resolve, reject) =>
      execFile(
        'redis-cli',
        [
          '--cluster',
          'create',
          ...nodes.map((n) => `127.0.0.1:${n.port}`),
          '--cluster-replicas',
          '0',
          '--cluster-yes',
        ],
        { timeout: 30_000 },
        (error, stdout, stderr) =>
          error ? reject(new Error(`redis-cli --cluster create: ${stdout}${stderr}`)) : resolve(),
      ),
    );
    await clusterSettled(nodes);
  } catch (error) {
    await stop();
    throw error;
  }
  const addresses = nodes.map((n) => ({ host: '127.0.0.1', port: n.port }));
  const list = addresses.map((a) => `${a.host}:${a.port}`).join(',');
  return {
    nodes: addresses,
    env: { SESSION_STORE: 'redis-cluster', REDIS_CLUSTER_NODES: list },
    config: { kind: 'redis-cluster', nodes: addresses, tls: false },
    call: (node, ...args) => nodeAt(nodes, node).call(...args),
    stopNode: (node) => nodeAt(nodes, node).stop(),
    startNode: async (node) => {
      await nodeAt(nodes, node).start();
      await clusterSettled(nodes);
    },
    pause: async () => {
      await Promise.all(nodes.map((n) => n.stop()));
    },
    resume: async () => {
      await Promise.all(nodes.map((n) => n.start()));
      await clusterSettled(nodes);
    },
    stop,
  };
}

function nodeAt(nodes: readonly RedisProcess[], index: number): RedisProcess {
  const node = nodes[index];
  if (!node) throw new Error(`no node ${index}`);
  return node;
}

/** Every node sees all three and every slot served. */
async function clusterSettled(nodes: readonly RedisProcess[]): Promise<void> {
  await waitUntil('the cluster is ok on every node', async () => {
    for (const node of nodes) {
      const info = String(await node.call('CLUSTER', 'INFO'));
      if (!info.includes('cluster_state:ok') || !info.includes('cluster_known_nodes:3'))
        return false;
    }
    return true;
  });
}

export interface SentinelOptions {
  /** requirepass/masterauth of the master and replica. */
  readonly password?: string;
  /** requirepass of the sentinel. */
  readonly sentinelPassword?: string;
  /** TLS only (no plain port) on every process, with test/fixtures/redis-tls. */
  readonly tls?: boolean;
  /** Start a replica (default), without which no failover is possible. */
  readonly replica?: boolean;
}

export interface RunningRedisSentinel {
  /** The master group name. */
  readonly name: string;
  readonly sentinel: Address;
  /** SESSION_STORE=redis-sentinel and its variables, as a service's environment sets them. */
  readonly env: Readonly<Record<string, string>>;
  /** The configuration the store adapter takes. */
  readonly config: Extract<RedisStoreConfig, { kind: 'redis-sentinel' }>;
  /** The master, as the sentinel names it now. */
  master(): Promise<Address>;
  /** A command on the current master. */
  onMaster(...args: string[]): Promise<unknown>;
  /**
   * SENTINEL FAILOVER, resolving once the sentinel names the replica as master and it says so
   * itself. The old master rejoins as a replica some seconds later (replicasSynced waits for it).
   */
  failover(): Promise<{ from: Address; to: Address }>;
  /** Until every data node other than the master replicates it with its link up. */
  replicasSynced(): Promise<void>;
  /**
   * Stops every process (data nodes and sentinel), keeping the sentinel's configuration; resume()
   * starts them all again, the sentinel last, once the replica is back in sync.
   */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A master, a replica and one sentinel (quorum 1) watching them, optionally with passwords and TLS.
 * The sentinel starts once the replica is in sync, and this resolves once the sentinel knows the
 * replica as one it could promote, so that a failover can start at once.
 */
export async function startRedisSentinel(
  options: SentinelOptions = {},
): Promise<RunningRedisSentinel> {
  assertInstalled('redis-server', 'redis-server');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redis-sentinel-'));
  const name = 'collectors-signon';
  const [masterPort = 0, replicaPort = 0, sentinelPort = 0] = await freePorts(3);
  const tlsFiles = [
    ['tls-cert-file', path.join(TLS_DIR, 'server.crt')],
    ['tls-key-file', path.join(TLS_DIR, 'server.key')],
    ['tls-ca-cert-file', path.join(TLS_DIR, 'ca.crt')],
    ['tls-auth-clients', 'no'],
    // Replication and the sentinel's own connections to the data nodes over TLS too.
    ['tls-replication', 'yes'],
  ];
  const listen = (port: number): string[][] =>
    options.tls
      ? [['port', '0'], ['tls-port', String(port)], ...tlsFiles]
      : [['port', String(port)]];
  const dataNode = (port: number, extra: string[][] = []): RedisProcess => {
    const settings = [
      ...listen(port),
      ['bind', '127.0.0.1'],
      ['dir', dir],
      ['dbfilename', `dump-${port}.rdb`],
      ['save', ''],
      ['appendonly', 'no'],
      ...(options.password
        ? [
            ['requirepass', options.password],
            ['masterauth', options.password],
          ]
        : []),
      ...extra,
    ];
    return new RedisProcess(
      port,
      settings.flatMap(([key = '', ...values]) => [`--${key}`, ...values]),
      dataConnect,
    );
  };
  const dataConnect: Connect = {
    ...(options.password ? { password: options.password } : {}),
    ...(options.tls ? { tls: true } : {}),
  };
  const sentinelConnect: Connect = {
    ...(options.sentinelPassword ? { password: options.sentinelPassword } : {}),
    ...(options.tls ? { tls: true } : {}),
  };
  const withReplica = options.replica ?? true;
  const dataNodes = [dataNode(masterPort)];
  if (withReplica)
    dataNodes.push(dataNode(replicaPort, [['replicaof', '127.0.0.1', String(masterPort)]]));
  // Sentinel rewrites its configuration file, so it lives in the temporary folder.
  const conf = path.join(dir, 'sentinel.conf');
  fs.writeFileSync(
    conf,
    [
      ...listen(sentinelPort),
      ['bind', '127.0.0.1'],
      ['dir', dir],
      ...(options.sentinelPassword ? [['requirepass', options.sentinelPassword]] : []),
      ['sentinel', 'monitor', name, '127.0.0.1', String(masterPort), '1'],
      ...(options.password ? [['sentinel', 'auth-pass', name, options.password]] : []),
      // Only SENTINEL FAILOVER fails over here: a loaded test machine must not look like a dead master.
      ['sentinel', 'down-after-milliseconds', name, '30000'],
      ['sentinel', 'failover-timeout', name, '10000'],
    ]
      .map((line) => line.map((word) => (word === '' ? '""' : word)).join(' '))
      .join('\n') + '\n',
  );
  const sentinel = new RedisProcess(sentinelPort, [conf, '--sentinel'], sentinelConnect);
  const processes = [...dataNodes, sentinel];
  const stop = async (): Promise<void> => {
    await Promise.all(processes.map((p) => p.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  };

  const master = async (): Promise<Address> => {
    const reply = (await sentinel.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name)) as string[];
    return { host: reply[0] ?? '', port: Number(reply[1]) };
  };
  const byPort = (port: number): RedisProcess => {
    const node = dataNodes.find((n) => n.port === port);
    if (!node) throw new Error(`no data node on port ${port}`);
    return node;
  };
  const replicasSynced = async (): Promise<void> => {
    const current = (await master()).port;
    for (const node of dataNodes.filter((n) => n.port !== current))
      await waitUntil(`the replica on ${node.port} is in sync with ${current}`, async () => {
        const info = String(await node.call('INFO', 'replication'));
        return (
          info.includes('role:slave') &&
          info.includes(`master_port:${current}`) &&
          info.includes('master_link_status:up')
        );
      });
  };
  /** The sentinel sees a replica it could promote (SENTINEL FAILOVER answers NOGOODSLAVE otherwise). */
  const promotable = async (): Promise<void> =>
    waitUntil('the sentinel knows a replica it could promote', async () => {
      const replicas = (await sentinel.call('SENTINEL', 'REPLICAS', name)) as string[][];
      return replicas.some((fields) => {
        const field = (key: string) => fields[fields.indexOf(key) + 1];
        return field('flags') === 'slave' && field('master-link-status') === 'ok';
      });
    });

  try {
    for (const node of dataNodes) await node.start();
    await replicasSynced0(dataNodes, masterPort);
    await sentinel.start();
    if (withReplica) await promotable();
  } catch (error) {
    await stop();
    throw error;
  }

  const sentinelAddress = { host: '127.0.0.1', port: sentinelPort };
  return {
    name,
    sentinel: sentinelAddress,
    env: {
      SESSION_STORE: 'redis-sentinel',
      REDIS_SENTINELS: `127.0.0.1:${sentinelPort}`,
      REDIS_SENTINEL_NAME: name,
      ...(options.password ? { REDIS_PASSWORD: options.password } : {}),
      ...(options.sentinelPassword ? { REDIS_SENTINEL_PASSWORD: options.sentinelPassword } : {}),
      ...(options.tls ? { REDIS_TLS: 'true' } : {}),
    },
    config: {
      kind: 'redis-sentinel',
      sentinels: [sentinelAddress],
      name,
      ...(options.password ? { password: options.password } : {}),
      ...(options.sentinelPassword ? { sentinelPassword: options.sentinelPassword } : {}),
      tls: options.tls ?? false,
    },
    master,
    onMaster: async (...args) => byPort((await master()).port).call(...args),
    failover: async () => {
      const from = await master();
      await promotable();
      await sentinel.call('SENTINEL', 'FAILOVER', name);
      await waitUntil('the sentinel names the new master', async () => {
        const now = await master();
        return (
          now.port !== from.port && String(await byPort(now.port).call('ROLE')).startsWith('master')
        );
      });
      return { from, to: await master() };
    },
    replicasSynced,
    pause: async () => {
      await Promise.all(processes.map((p) => p.stop()));
    },
    resume: async () => {
      for (const node of dataNodes) await node.start();
      await replicasSynced0(dataNodes, masterPort);
      await sentinel.start();
    },
    stop,
  };
}

/** Before the sentinel starts: the replica replicates the first master. */
async function replicasSynced0(nodes: readonly RedisProcess[], masterPort: number): Promise<void> {
  for (const node of nodes.filter((n) => n.port !== masterPort))
    await waitUntil(`the replica on ${node.port} is in sync`, async () =>
      String(await node.call('INFO', 'replication')).includes('master_link_status:up'),
    );
}

/**
 * Time, for a Redis the tests started (issue 34 item 1: controlled clocks, not sleeps): every key with
 * an expiry has `seconds` taken off it, and one that would have expired by then is deleted, which is
 * what Redis does at expiry. Every sorted set has `seconds` taken off its scores: the store's only
 * sorted sets are counted sets scored by each member's end (SessionStore.addExpiringMember) on
 * Redis's clock, which this cannot move. One script per node, so nothing moves while it runs.
 * `nodes` are the data nodes' command functions (a single server's, a Sentinel group's master,
 * each cluster master).
 */
export function redisClock(
  nodes: readonly ((...args: string[]) => Promise<unknown>)[],
): (seconds: number) => Promise<void> {
  const script = `
    local ms = tonumber(ARGV[1])
    for _, key in ipairs(redis.call('KEYS', '*')) do
      local left = redis.call('PTTL', key)
      if left > 0 then
        if left <= ms then redis.call('DEL', key) else redis.call('PEXPIRE', key, left - ms) end
      end
      if redis.call('EXISTS', key) == 1 and redis.call('TYPE', key)['ok'] == 'zset' then
        local scored = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
        for i = 1, #scored, 2 do
          redis.call('ZADD', key, tonumber(scored[i + 1]) - ms, scored[i])
        end
      end
    end
    return 0`;
  return async (seconds) => {
    for (const call of nodes) await call('EVAL', script, '0', String(Math.round(seconds * 1000)));
  };
}

/** One command to a server the tests started without a password, on a fresh connection. */
export function redisCommand(port: number, ...args: string[]): Promise<unknown> {
  return command(port, {}, ...args);
}
