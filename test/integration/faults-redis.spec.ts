import Redis from 'ioredis';
import { Browser, BrowserResponse } from '../support/browser';
import {
  ProcessApp,
  buildApp,
  eventually,
  removeBuild,
  signInAt,
  startProcessApp,
} from '../support/process-app';
import { RunningRedis, startRedis } from '../support/redis-server';
import { jarCookie, pageText } from '../support/signin-journey';

/**
 * Issue 7 item 6: Redis stops while the service runs (a real redis-server, a real service process).
 * The test's redis-server keeps nothing on disk, so sessions do not survive its restart: a collector
 * signs in again (with persistence they would; nothing in the service depends on which).
 */

let main: string;
beforeAll(() => {
  main = buildApp();
}, 180_000);
afterAll(() => removeBuild(main));

/** Requests fail within this (the adapter's 2 s command timeout, with slack for a loaded machine). */
const FAST_MS = 3_000;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work();
  return { value, ms: Date.now() - started };
}

const htmlGet = (browser: Browser, url: string): Promise<BrowserResponse> =>
  browser.request(url, { headers: { accept: 'text/html' } });

function expectErrorPage(page: BrowserResponse): void {
  expect(page.status).toBe(503);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.getSetCookie()).toEqual([]);
  const text = pageText(page.body);
  expect(text).toContain('The service is busy right now. Please try again shortly.');
  expect(text).toContain(`Reference: ${page.headers.get('x-request-id')}`);
  expect(text).toContain('Error code: ServiceUnavailable');
  expect(page.body).not.toMatch(/\bat .*\.js:\d+/);
}

/** The line the store writes once Redis answers again after an outage. */
const REACHABLE_AGAIN = 'session store (redis) reachable again';

describe('Redis stops mid-run (issue 7 item 6)', () => {
  let redis: RunningRedis;
  let app: ProcessApp;
  afterEach(async () => {
    await app?.kill();
    await redis?.stop();
  });

  it('readiness 503, pages fail fast with the error page, no crash, and all is well when Redis returns', async () => {
    redis = await startRedis();
    app = await startProcessApp(main, { SESSION_STORE: 'redis', REDIS_URL: redis.url });
    const browser = new Browser();
    const landing = await signInAt(app.url, browser);
    expect(landing.status).toBe(302);
    expect(await jarCookie(browser, app.url, 'sessionId')).toMatch(/^[\w-]{43}$/);
    expect((await browser.get(`${app.url}/collection`)).status).toBe(200);
    // Where a collector without a session is sent: the embedded IdP, whose state is in Redis too.
    const authorize = (await new Browser().get(`${app.url}/signin?b=psa`)).headers.get('location');
    expect(authorize).toMatch(/\/oauth2\/default\/v1\/authorize\?/);

    await redis.stop();

    const ready = await timed(() => fetch(`${app.managementUrl}/readyz`));
    expect(ready.value.status).toBe(503);
    expect(ready.ms).toBeLessThan(FAST_MS);
    const report = (await ready.value.json()) as {
      checks: Record<string, { status: string; error?: string }>;
    };
    expect(report.checks['sessionStore:redis']?.status).toBe('down');

    // Pages that need the session store: the signed-in shell page and the sign-in entry.
    const failed: string[] = [];
    for (const path of ['/collection', '/signin', '/collection']) {
      const page = await timed(() => htmlGet(browser, `${app.url}${path}`));
      expect(page.ms).toBeLessThan(FAST_MS);
      expectErrorPage(page.value);
      failed.push(page.value.headers.get('x-request-id') ?? '');
    }
    // An API caller gets the same as JSON.
    const json = await fetch(`${app.url}/collection`, {
      headers: {
        accept: 'application/json',
        // The browser's cookies: the session id and its binding (issue 14 item 4).
        cookie: await browser.jar.getCookieString(app.url),
      },
    });
    expect(json.status).toBe(503);
    expect(await json.json()).toMatchObject({
      statusCode: 503,
      error: 'ServiceUnavailable',
      correlationId: json.headers.get('x-request-id'),
    });
    failed.push(json.headers.get('x-request-id') ?? '');

    // Alive, and each failure logged once with its correlation id and what failed; the outage once.
    expect((await fetch(`${app.managementUrl}/healthz`)).status).toBe(200);
    expect(app.exited).toBe(false);
    await eventually('the log lines arrive', () =>
      Promise.resolve(
        failed.every((id) => app.logs().some((l) => l.correlationId === id && l.level === 50)),
      ),
    );
    const logs = app.logs();
    for (const id of failed) {
      const lines = logs.filter((l) => l.correlationId === id && l.level === 50);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ status: 503, error: 'ServiceUnavailable' });
      expect(String(lines[0]?.msg)).toMatch(/^request failed: the session store \(redis\) /);
    }
    const outage = logs.filter((l) =>
      String(l.msg).startsWith('session store (redis) unreachable, requests that need it fail'),
    );
    expect(outage).toHaveLength(1);
    expect(outage[0]).toMatchObject({ level: 50, context: 'RedisSessionStore' });
    expect(app.output()).not.toMatch(/unhandled|uncaught/i);

    // The IdP's own page says the same (503, try again, a reference), and its failure is logged once.
    const idpPage = await timed(() => htmlGet(new Browser(), authorize ?? ''));
    expect(idpPage.ms).toBeLessThan(FAST_MS);
    expect(idpPage.value.status).toBe(503);
    expect(idpPage.value.headers.get('cache-control')).toBe('no-store');
    const idpReference = idpPage.value.headers.get('x-request-id') ?? '';
    const idpText = pageText(idpPage.value.body);
    expect(idpText).toContain('The sign-in service is briefly unavailable');
    expect(idpText).toContain(`Reference: ${idpReference}`);
    expect(idpPage.value.body).not.toMatch(/\bat .*\.js:\d+/);
    await eventually('the IdP failure is logged', () =>
      Promise.resolve(app.logs().some((l) => l.correlationId === idpReference && l.level === 50)),
    );
    expect(app.logs().filter((l) => l.correlationId === idpReference && l.level === 50)).toEqual([
      expect.objectContaining({
        context: 'EmbeddedIdp',
        msg: expect.stringMatching(
          /^embedded IdP request failed: the embedded IdP state store \(redis\) /,
        ),
      }),
    ]);

    // Redis comes back where it was.
    redis = await startRedis({ port: redis.port });
    await eventually(
      'readiness returns to 200',
      async () => (await fetch(`${app.managementUrl}/readyz`)).status === 200,
      20_000,
    );
    // The line is written when the store reconnects; it reaches the test through the child's stdout,
    // which can come after the readiness answer.
    await eventually('the return is logged', () =>
      Promise.resolve(app.logs().some((l) => l.msg === REACHABLE_AGAIN)),
    );
    expect(app.logs().filter((l) => l.msg === REACHABLE_AGAIN)).toHaveLength(1);
    // The old session went with Redis's memory: the collector is sent to sign in, and can.
    const signedOut = await browser.get(`${app.url}/collection`);
    expect(signedOut.status).toBe(302);
    expect(new URL(signedOut.headers.get('location') ?? '').pathname).toBe('/signin');
    const again = new Browser();
    expect((await signInAt(app.url, again)).status).toBe(302);
    expect((await again.get(`${app.url}/collection`)).status).toBe(200);
    expect(app.exited).toBe(false);
    // Every reconnect attempt failed during the outage, yet it was logged once, and the return once.
    expect(
      app.logs().filter((l) => String(l.msg).startsWith('session store (redis) unreachable')),
    ).toHaveLength(1);
    expect(app.logs().filter((l) => l.msg === REACHABLE_AGAIN)).toHaveLength(1);
  }, 120_000);

  it('a Redis that hangs (SIGSTOP) makes requests fail within the command timeout, not hang', async () => {
    redis = await startRedis();
    const admin = new Redis(redis.url);
    const pid = Number(/process_id:(\d+)/.exec(await admin.info('server'))?.[1]);
    admin.disconnect();
    app = await startProcessApp(main, { SESSION_STORE: 'redis', REDIS_URL: redis.url });
    const browser = new Browser();
    expect((await signInAt(app.url, browser)).status).toBe(302);

    process.kill(pid, 'SIGSTOP');
    try {
      // The connection stays open and silent: only the adapter's timeouts can end the wait.
      const ready = await timed(() => fetch(`${app.managementUrl}/readyz`));
      expect(ready.value.status).toBe(503);
      expect(ready.ms).toBeLessThan(FAST_MS);
      for (const path of ['/collection', '/signin']) {
        const page = await timed(() => htmlGet(browser, `${app.url}${path}`));
        expect(page.ms).toBeLessThan(FAST_MS);
        expectErrorPage(page.value);
      }
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    // Nothing was lost: Redis kept its data, so the same session works again.
    await eventually(
      'readiness returns to 200',
      async () => (await fetch(`${app.managementUrl}/readyz`)).status === 200,
      20_000,
    );
    expect((await browser.get(`${app.url}/collection`)).status).toBe(200);
    expect(app.exited).toBe(false);
    expect(app.output()).not.toMatch(/unhandled|uncaught/i);
  }, 120_000);
});
