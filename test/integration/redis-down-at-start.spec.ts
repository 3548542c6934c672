import { Browser } from '../support/browser';
import { freePort } from '../support/free-port';
import { OKTA_USERS, signInThroughOkta, startOktaStack } from '../support/okta-stack';
import {
  buildApp,
  eventually,
  removeBuild,
  signInAt,
  startProcessApp,
  within,
} from '../support/process-app';
import { startRedis, startRedisCluster, startRedisSentinel } from '../support/redis-server';
import { jarCookie } from '../support/signin-journey';

/**
 * A start while Redis is down recovers by itself (docs/operating.md "Redis down at start"). The
 * embedded IdP's build once failed for good when its state store did not answer at start:
 * /healthz said 200, readiness stayed 503 and /signin answered 502 until a restart. Each topology
 * the service runs on (one node, Sentinel, Cluster; real redis-server processes), with the
 * embedded IdP and with the Okta-shaped one: the service starts with Redis down, readiness is 503
 * and sign-in fails with a clean 503; Redis starts; with no restart, readiness turns 200 and a whole
 * sign-in works.
 */

let main: string;
beforeAll(() => {
  main = buildApp();
}, 180_000);
afterAll(() => removeBuild(main));

/** A Redis topology that is down now, and the environment that names it. */
interface DownRedis {
  readonly env: Readonly<Record<string, string>>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** One node on a port where nothing listens yet. */
async function downSingle(): Promise<DownRedis> {
  const port = await freePort();
  let stop = (): Promise<void> => Promise.resolve();
  return {
    env: { SESSION_STORE: 'redis', REDIS_URL: `redis://127.0.0.1:${port}` },
    start: async () => {
      stop = (await startRedis({ port })).stop;
    },
    stop: () => stop(),
  };
}

/** A master and its sentinel (no failover here, so no replica), stopped before the start. */
async function downSentinel(): Promise<DownRedis> {
  const sentinel = await startRedisSentinel({ replica: false });
  await sentinel.pause();
  return { env: sentinel.env, start: () => sentinel.resume(), stop: () => sentinel.stop() };
}

/** Three cluster masters, all stopped before the service starts. */
async function downCluster(): Promise<DownRedis> {
  const cluster = await startRedisCluster();
  await cluster.pause();
  return { env: cluster.env, start: () => cluster.resume(), stop: () => cluster.stop() };
}

/**
 * The most one step may take, on a machine running the whole suite: a step past it fails naming
 * itself, where a bare test timeout would say nothing of where the time went.
 */
const PHASE_MS = 45_000;
/**
 * A test's own limit: the sum of its steps' limits (seven of PHASE_MS at most, with the waits for
 * readiness and the invitation), so that a slow step, not Jest's bare timeout, is what fails.
 */
const TEST_MS = 8 * PHASE_MS + 45_000;

const TOPOLOGIES = [
  ['one node', downSingle],
  ['Sentinel', downSentinel],
  ['Cluster', downCluster],
] as const;

interface Readiness {
  readonly status: number;
  readonly checks: Record<string, { status: string; error?: string }>;
}

async function readiness(url: string): Promise<Readiness> {
  const res = await fetch(`${url}/readyz`);
  const body = (await res.json()) as { checks: Readiness['checks'] };
  return { status: res.status, checks: body.checks };
}

/** Redis being down, as readiness and a collector's first request see it. */
async function expectDownCleanly(url: string, signin: () => Promise<number>): Promise<void> {
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  const ready = await readiness(url);
  expect(ready.status).toBe(503);
  expect(Object.keys(ready.checks)).toContain('sessionStore:redis');
  expect(ready.checks['sessionStore:redis']?.status).toBe('down');
  // Sign-in fails with the service's own "busy, try again" answer: never a 502 or a 500.
  expect(await signin()).toBe(503);
}

describe.each(TOPOLOGIES)('Redis (%s) down at start', (_name, down) => {
  let redis: DownRedis | undefined;
  afterEach(async () => {
    await within('the topology stops', PHASE_MS, redis?.stop() ?? Promise.resolve());
    redis = undefined;
  }, PHASE_MS + 5_000);

  it(
    'embedded IdP: 503s while down, then ready and signing in once Redis starts',
    async () => {
      redis = await within('the topology is made and stopped', PHASE_MS, down());
      const app = await within(
        'the service starts with Redis down',
        PHASE_MS,
        startProcessApp(main, { ...redis.env }, process.execPath, 'listening'),
      );
      try {
        // The start-up work that needs Redis waits for it (still trying, or failed and to be
        // retried, depending on how soon the topology's client gives up on a connection).
        const ready = await within('readiness while Redis is down', PHASE_MS, readiness(app.url));
        expect(ready.checks.startup?.status).toBe('down');
        expect(ready.checks.startup?.error).toMatch(/^(starting|start-up failed): embeddedIdp\b/);
        await within(
          'the service answers cleanly while Redis is down',
          PHASE_MS,
          expectDownCleanly(app.url, async () => (await fetch(`${app.url}/signin`)).status),
        );

        await within('Redis starts again', PHASE_MS, redis.start());
        await eventually(
          'readiness turns 200 without a restart',
          async () => (await readiness(app.url)).status === 200,
          30_000,
        );
        const browser = new Browser();
        const landing = await within(
          'a sign-in once Redis is back',
          PHASE_MS,
          signInAt(app.url, browser),
        );
        expect(landing.status).toBe(302);
        expect(await jarCookie(browser, app.url, 'sessionId')).toMatch(/^[\w-]{43}$/);
        expect((await browser.get(`${app.url}/collection`)).status).toBe(200);
        // The start-up still ends with its one line saying where to go and as whom.
        await eventually('the demo invitation is printed once recovered', () =>
          Promise.resolve(
            /ready: open http:\/\/\S+ and sign in as collector@example\.com/.test(app.output()),
          ),
        );
        expect(app.exited).toBe(false);
        expect(app.output()).not.toMatch(/unhandled|uncaught/i);
      } finally {
        await within('the service stops', PHASE_MS, app.kill());
      }
    },
    TEST_MS,
  );

  it(
    'Okta-shaped IdP: 503s while down, then ready and signing in once Redis starts',
    async () => {
      redis = await within('the topology is made and stopped', PHASE_MS, down());
      const stack = await within(
        'the stack starts with Redis down',
        PHASE_MS,
        startOktaStack({ env: { ...redis.env } }),
      );
      try {
        await within(
          'the service answers cleanly while Redis is down',
          PHASE_MS,
          expectDownCleanly(
            stack.app.url,
            async () => (await stack.browser().get(`${stack.url}/signin?b=collectors`)).status,
          ),
        );

        await within('Redis starts again', PHASE_MS, redis.start());
        await eventually(
          'readiness turns 200 without a restart',
          async () => (await readiness(stack.app.url)).status === 200,
          30_000,
        );
        const { browser, landed } = await within(
          'a sign-in once Redis is back',
          PHASE_MS,
          signInThroughOkta(stack, OKTA_USERS.plain),
        );
        expect(landed.status).toBe(302);
        expect(new URL(landed.headers.get('location') ?? '', stack.url).pathname).toBe(
          '/collection',
        );
        expect((await browser.get(`${stack.url}/collection`)).status).toBe(200);
        expect(stack.app.exited).toBe(false);
        expect(stack.app.output()).not.toMatch(/unhandled|uncaught/i);
      } finally {
        await within('the stack stops', PHASE_MS, stack.close());
      }
    },
    TEST_MS,
  );
});
