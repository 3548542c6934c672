import Database from 'better-sqlite3';
import Redis from 'ioredis';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Browser } from '../support/browser';
import { RoundRobinProxy } from '../support/round-robin-proxy';
import { RunningRedisSentinel, startRedis, startRedisSentinel } from '../support/redis-server';
import { jarCookie, signInVia } from '../support/signin-journey';
import { TestApp, startTestApp } from '../support/test-app';
import { tempDataDir } from '../support/test-config';

/** The Redis both instances share, as the service's environment names it. */
interface SharedRedis {
  readonly env: Record<string, string>;
  /** A connection to the master, to look at the keys. */
  admin(): Redis;
  /** Set for Sentinel, where the failover test runs. */
  readonly sentinel?: RunningRedisSentinel;
  stop(): Promise<void>;
}

const TOPOLOGIES: [string, () => Promise<SharedRedis>, { failover: boolean }][] = [
  [
    'one Redis (issue 7)',
    async () => {
      const redis = await startRedis();
      return {
        env: { SESSION_STORE: 'redis', REDIS_URL: redis.url },
        admin: () => new Redis(redis.url),
        stop: () => redis.stop(),
      };
    },
    { failover: false },
  ],
  [
    // Issue 17 item 1: a master, a replica and a sentinel, with passwords.
    'a master and a replica behind Redis Sentinel (issue 17)',
    async () => {
      const sentinel = await startRedisSentinel({
        password: 'data-node-password',
        sentinelPassword: 'sentinel-password',
      });
      return {
        env: { ...sentinel.env },
        admin: () =>
          new Redis({
            sentinels: [sentinel.sentinel],
            name: sentinel.name,
            password: 'data-node-password',
            sentinelPassword: 'sentinel-password',
          }),
        sentinel,
        stop: () => sentinel.stop(),
      };
    },
    { failover: true },
  ],
];

/**
 * Issue 7 item 1: two instances behind a round-robin load balancer, sharing one Redis: the
 * service's sessions and the embedded IdP's artefacts and keys are in Redis, while the IdP's user
 * directory is its SQLite file (docs/design.md), which two processes on one host share. Every hop of a
 * journey, each IdP step included, may land on either instance; the proxy's counters show which calls
 * reached the IdP. Issue 17 item 1: the same on Sentinel, which also survives a failover mid-run.
 */
describe.each(TOPOLOGIES)('two instances, %s', (_topology, startShared, { failover }) => {
  let redis: SharedRedis;
  const proxy = new RoundRobinProxy();
  let a: TestApp;
  let b: TestApp;
  let publicUrl: string;
  let dataDir: string;

  beforeAll(async () => {
    redis = await startShared();
    // The proxy takes its port before the app starts: a port only found free could go to the app.
    const proxyPort = await proxy.listen();
    publicUrl = `http://localhost:${proxyPort}`;
    dataDir = tempDataDir();
    const shared = {
      ...redis.env,
      PUBLIC_URL: publicUrl,
      DATA_DIR: dataDir,
      // Stale at once: every request of a session refreshes (single flight across instances).
      IDP_ACCESS_TOKEN_TTL_SECONDS: '1',
      RATE_LIMIT_SIGNIN: '40/60',
      RATE_LIMIT_SIGNIN_SESSION: '1000/60',
    };
    // One after the other, as a rolling start would; starting together is covered by signing-keys.integration.spec.
    a = await startTestApp(shared);
    b = await startTestApp(shared);
    proxy.backends = [a.url, b.url];
  }, 90_000);
  afterAll(async () => {
    await proxy.close();
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  async function signedIn(): Promise<{ browser: Browser; cookie: string }> {
    const browser = new Browser();
    const { landing } = await signInVia(t(), browser, 'b=collectors');
    expect(landing.status).toBe(302);
    expect(await jarCookie(browser, publicUrl, 'sessionId')).toEqual(expect.any(String));
    return { browser, cookie: await browser.jar.getCookieString(publicUrl) };
  }
  /** The "app" a journey talks to: the load balancer's address. */
  const t = () => ({ ...a, url: publicUrl });

  it('signs in through both instances, and the session is valid on each', async () => {
    const { cookie } = await signedIn();
    for (const instance of [a, b, a, b]) {
      const res = await fetch(`${instance.url}/collection`, {
        headers: { cookie },
        redirect: 'manual',
      });
      expect(res.status).toBe(200);
    }
  }, 90_000);

  it("keeps the embedded IdP's artefacts and keys in Redis, and only its users in SQLite", async () => {
    const from = proxy.forwarded.length;
    await signedIn();
    // The IdP's own requests of that sign-in (authorize, each step, the code exchange) went to both.
    const idpHops = proxy.forwarded
      .slice(from)
      .filter(({ path }) => path.startsWith('/oauth2/') || path.startsWith('/idp/'));
    expect(new Set(idpHops.map((hop) => hop.backend))).toEqual(new Set([a.url, b.url]));
    const client = redis.admin();
    try {
      const families = new Set(
        (await client.keys('*idp:*')).map((key) =>
          key.slice(key.indexOf('idp:')).split(':').slice(0, 3).join(':'),
        ),
      );
      for (const family of [
        'idp:signing-keys',
        'idp:secret:cookie-key-1',
        'idp:oidc:Session',
        'idp:oidc:Grant',
        'idp:oidc:AuthorizationCode',
        'idp:oidc:RefreshToken',
        'idp:oidc-uid:Session',
      ])
        expect(families).toContain(family);
    } finally {
      client.disconnect();
    }
    const db = new Database(path.join(dataDir, 'idp.sqlite'), { readonly: true });
    try {
      const tables = (
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
          name: string;
        }[]
      ).map((row) => row.name);
      expect(tables).toContain('accounts');
      for (const moved of ['oidc_models', 'idp_flows', 'idp_signing_keys', 'idp_secrets'])
        expect(tables).not.toContain(moved);
    } finally {
      db.close();
    }
    // Nor in the file the IdP's state would have on its own (SESSION_STORE=sqlite).
    expect(fs.existsSync(path.join(dataDir, 'idp-state.sqlite'))).toBe(false);
  }, 90_000);

  it('a sign-out on one instance ends the session on both', async () => {
    const { cookie } = await signedIn();
    const out = await fetch(`${b.url}/logout/collectorsid?b=collectors`, {
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
      redirect: 'manual',
    });
    expect(out.status).toBe(302);
    for (const instance of [a, b]) {
      const res = await fetch(`${instance.url}/collection`, {
        headers: { cookie },
        redirect: 'manual',
      });
      expect(res.status).toBe(302);
    }
  }, 90_000);

  it('parallel requests with a stale token on both instances refresh it once', async () => {
    const { cookie } = await signedIn();
    await new Promise((r) => setTimeout(r, 1200));
    const before = proxy.hits.get('/oauth2/default/v1/token') ?? 0;
    // The IdP answers the refresh a second late, so all twelve requests reach their instance while
    // it is under way. Otherwise one arriving after it ended would see the new token, already inside
    // the refresh margin (1 s tokens), and rightly refresh again: a second refresh, not a race lost.
    proxy.delay = (path) => (path === '/oauth2/default/v1/token' ? 1000 : 0);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        fetch(`${(i % 2 === 0 ? a : b).url}/api/collectors-web/trpc/account.status`, {
          headers: { cookie },
        }),
      ),
    ).finally(() => {
      proxy.delay = () => 0;
    });
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(
        ((await res.json()) as { result: { data: { isSignedIn: boolean } } }).result.data
          .isSignedIn,
      ).toBe(true);
    }
    expect((proxy.hits.get('/oauth2/default/v1/token') ?? 0) - before).toBe(1);
  }, 90_000);

  /** account.status of one session on one instance: the HTTP status, and whether it is signed in. */
  async function status(url: string, cookie: string): Promise<{ status: number; in?: boolean }> {
    const res = await fetch(`${url}/api/collectors-web/trpc/account.status`, {
      headers: { cookie },
    });
    if (res.status !== 200) return { status: res.status };
    const body = (await res.json()) as { result: { data: { isSignedIn: boolean } } };
    return { status: 200, in: body.result.data.isSignedIn };
  }

  // Issue 17 item 1: SENTINEL FAILOVER while both instances serve signed-in collectors, each request
  // refreshing its stale access token (a rotated refresh token in the IdP's store, new tokens in the
  // session: the writes a lost second would tear apart).
  if (failover)
    it('survives a Sentinel failover mid-run: sessions intact, at most a few 503s, readiness recovers', async () => {
      const sentinel = redis.sentinel;
      if (!sentinel) throw new Error('no sentinel');
      const cookies: string[] = [];
      for (let i = 0; i < 3; i++) cookies.push((await signedIn()).cookie);

      const answers: { status: number; in?: boolean }[] = [];
      const readiness: number[] = [];
      let running = true;
      const traffic = async (lane: number): Promise<void> => {
        for (let i = 0; running; i++) {
          const instance = (lane + i) % 2 === 0 ? a : b;
          answers.push(await status(instance.url, cookies[(lane + i) % cookies.length] ?? ''));
        }
      };
      const probes = async (): Promise<void> => {
        while (running) {
          for (const instance of [a, b])
            readiness.push((await fetch(`${instance.managementUrl}/readyz`)).status);
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      const lanes = [0, 1, 2].map(traffic);
      const polling = probes();
      try {
        await new Promise((r) => setTimeout(r, 1000));
        const before = answers.length;
        const { from, to } = await sentinel.failover();
        expect(to.port).not.toBe(from.port);
        await new Promise((r) => setTimeout(r, 3000));
        expect(answers.length - before).toBeGreaterThan(10);
      } finally {
        running = false;
        await Promise.all([...lanes, polling]);
      }

      // Requests waited for the new master rather than failing; none was answered signed out.
      const failed = answers.filter((x) => x.status !== 200);
      expect(failed.every((x) => x.status === 503)).toBe(true);
      expect(failed.length).toBeLessThanOrEqual(3);
      expect(answers.filter((x) => x.status === 200).every((x) => x.in === true)).toBe(true);
      // Sessions intact on both instances, their refresh tokens too: each refreshes again now.
      await new Promise((r) => setTimeout(r, 1200));
      for (const cookie of cookies)
        for (const instance of [a, b]) {
          expect(await status(instance.url, cookie)).toEqual({ status: 200, in: true });
          const page = await fetch(`${instance.url}/collection`, {
            headers: { cookie },
            redirect: 'manual',
          });
          expect(page.status).toBe(200);
        }
      // Readiness may have said 503 while commands waited; it says 200 again.
      for (const instance of [a, b])
        expect((await fetch(`${instance.managementUrl}/readyz`)).status).toBe(200);
      expect(readiness.length).toBeGreaterThan(10);
      // And a new collector signs in on the new master.
      await signedIn();
    }, 90_000);

  it('rate limits count the requests of both instances together', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${(i % 2 === 0 ? a : b).url}/signin?b=collectors`, {
        redirect: 'manual',
      });
      statuses.push(res.status);
    }
    // 40 per address and minute in all, not 40 on each: the sign-ins above used some of them too.
    const limited = statuses.filter((s) => s === 429).length;
    expect(limited).toBeGreaterThanOrEqual(10);
    expect(statuses.slice(-5).every((s) => s === 429)).toBe(true);
  }, 90_000);
});
