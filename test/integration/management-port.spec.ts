import * as http from 'node:http';
import * as net from 'node:net';
import { DEVELOPER_SECRETS, EMBEDDED_CLIENT_ID } from '../../src/config/config.schema';
import { ManagementServer } from '../../src/management/management-server';
import { freePort } from '../support/free-port';
import { buildApp, eventually, removeBuild, startProcessApp } from '../support/process-app';
import { basicAuth } from '../support/signin-journey';
import { startTestApp, useTestApp } from '../support/test-app';
import { productionEnv } from '../support/test-config';

/**
 * docs/operating.md "The management port": /metrics, /healthz and /readyz on a listener of their
 * own (MANAGEMENT_PORT), as Keycloak's management interface on 9000. /metrics is never served on the
 * public port, in any environment; the probes read health there; the listener closes with the app,
 * after the public one.
 */

const MANAGEMENT_PATHS = ['/metrics', '/healthz', '/readyz'] as const;

/** True when a new TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

const portOf = (url: string) => Number(new URL(url).port);

describe.each([
  ['local', {}],
  // qa and prod's rules and defaults, with an external IdP that is never called here.
  ['prod', { ...productionEnv(), APP_ENV: 'prod' }],
])('the management port in %s', (_env, env) => {
  const t = useTestApp(env);

  it.each(MANAGEMENT_PATHS)('answers %s there', async (path) => {
    const res = await fetch(`${t.managementUrl}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('serves the Prometheus text format with the service’s own metrics', async () => {
    const res = await fetch(`${t.managementUrl}/metrics`);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    for (const name of ['http_requests_total', 'signins_total', 'idp_up', 'process_start_time'])
      expect(text).toContain(`# TYPE ${name}`);
    // One registry, never registered twice: each metric is declared once.
    const types = text.split('\n').filter((l) => l.startsWith('# TYPE '));
    expect(new Set(types).size).toBe(types.length);
  });

  it.each(['/metrics', '/metrics/', '/METRICS', '/Metrics'])(
    'the public port has no %s',
    async (path) => {
      const res = await fetch(`${t.url}${path}`, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('# TYPE');
    },
  );

  it('is neither logged per request nor rate limited', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => fetch(`${t.managementUrl}/readyz`).then((r) => r.status)),
    );
    expect(new Set(answers)).toEqual(new Set([200]));
    expect(t.logs.text).not.toContain('"url":"/readyz"');
  });

  it('answers nothing else: the service’s pages are not there', async () => {
    for (const path of ['/signin?b=psa', '/collection', '/.well-known/jwks.json'])
      expect((await fetch(`${t.managementUrl}${path}`, { redirect: 'manual' })).status).toBe(404);
  });
});

describe('closing the app', () => {
  it('closes the management listener after the public one, letting a request in flight finish', async () => {
    const t = await startTestApp();
    const publicPort = portOf(t.url);
    const managementPort = portOf(t.managementUrl);
    // A token introspection whose body trickles in holds the public listener's close open.
    const body = 'token=not-a-real-token&token_type_hint=access_token';
    const slow = http.request({
      host: '127.0.0.1',
      port: publicPort,
      path: '/oauth2/default/v1/introspect',
      method: 'POST',
      agent: false,
      headers: {
        host: `localhost:${publicPort}`,
        authorization: basicAuth(EMBEDDED_CLIENT_ID, DEVELOPER_SECRETS.IDP_CLIENT_SECRET),
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(Buffer.byteLength(body)),
      },
    });
    const answered = new Promise<number>((resolve, reject) => {
      slow.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      slow.on('error', reject);
    });
    slow.write(body.slice(0, 6));
    await new Promise((r) => setTimeout(r, 200));

    const closing = t.close();
    await eventually('the public listener refuses new connections', () => refused(publicPort));
    // The public listener is closed, its last request still running: the management one still
    // answers (probes and the last scrape).
    expect((await fetch(`${t.managementUrl}/metrics`)).status).toBe(200);
    expect(t.app.get(ManagementServer).port).toBe(managementPort);

    slow.end(body.slice(6));
    expect(await answered).toBe(200);
    await closing;
    expect(await refused(managementPort)).toBe(true);
    expect(t.app.get(ManagementServer).port).toBeUndefined();
  }, 30_000);
});

describe('the service process (npm start)', () => {
  let main: string;
  beforeAll(() => {
    main = buildApp();
  }, 180_000);
  afterAll(() => removeBuild(main));

  it('on SIGTERM the management listener reports the drain, then closes with the process', async () => {
    const app = await startProcessApp(main, {
      SHUTDOWN_DRAIN_MS: '1500',
      SHUTDOWN_TIMEOUT_MS: '10000',
    });
    try {
      expect((await fetch(`${app.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${app.managementUrl}/metrics`)).status).toBe(200);
      app.child.kill('SIGTERM');
      await eventually(
        'readiness on the management port turns 503',
        async () => (await fetch(`${app.managementUrl}/readyz`)).status === 503,
        1_400,
      );
      // Still scraped during the drain.
      expect((await fetch(`${app.managementUrl}/metrics`)).status).toBe(200);
      expect(await app.exit).toEqual({ code: 0, signal: null });
      expect(await refused(app.managementPort)).toBe(true);
      expect(await refused(app.port)).toBe(true);
      expect(app.logs().map((l) => l.msg)).toContain(
        `listening on ${app.url} (local, IdP embedded), management on 127.0.0.1:${app.managementPort}`,
      );
    } finally {
      await app.kill();
    }
  }, 60_000);

  it('refuses MANAGEMENT_PORT equal to PORT, naming the problem', async () => {
    const port = await freePort();
    const start = startProcessApp(main, { PORT: String(port), MANAGEMENT_PORT: String(port) });
    await expect(start).rejects.toThrow(
      /MANAGEMENT_PORT: must differ from PORT \(\d+\): the management listener needs a port of its own, and \/metrics is never served on the public port/,
    );
  }, 60_000);

  it('stops with exit 1 when the management port is taken, rather than run unprobed', async () => {
    // Taken by something that hangs up on every connection (the start-up poll must not wait on it).
    const taken = net.createServer((socket) => socket.destroy());
    const port = await freePort();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      const start = startProcessApp(main, { MANAGEMENT_PORT: String(port) });
      await expect(start).rejects.toThrow(/start-up failed: listen EADDRINUSE.*:\d+/);
    } finally {
      taken.close();
    }
  }, 60_000);
});
