import * as http from 'node:http';
import * as net from 'node:net';
import { DEVELOPER_SECRETS, EMBEDDED_CLIENT_ID } from '../../src/config/config.schema';
import {
  ProcessApp,
  buildApp,
  eventually,
  removeBuild,
  startProcessApp,
} from '../support/process-app';
import { basicAuth } from '../support/signin-journey';

/**
 * Issue 7 item 5: graceful shutdown of the real process. The slow in-flight request is a token
 * introspection at the embedded IdP whose form body trickles in: the server holds the request open
 * until the last byte arrives, and then answers 200.
 */

let main: string;
beforeAll(() => {
  main = buildApp();
}, 180_000);
afterAll(() => removeBuild(main));

interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** POST /oauth2/default/v1/introspect, sending only the first bytes of its body until finish(). */
function trickledIntrospection(app: ProcessApp): {
  finish: () => void;
  answer: Promise<Answer>;
} {
  const body = 'token=not-a-real-token&token_type_hint=access_token';
  const req = http.request({
    host: '127.0.0.1',
    port: app.port,
    path: '/oauth2/default/v1/introspect',
    method: 'POST',
    agent: false,
    headers: {
      host: `localhost:${app.port}`,
      authorization: basicAuth(EMBEDDED_CLIENT_ID, DEVELOPER_SECRETS.IDP_CLIENT_SECRET),
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(Buffer.byteLength(body)),
      accept: 'application/json',
    },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 6));
  return { finish: () => req.end(body.slice(6)), answer };
}

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

/** A fresh connection each time: the keep-alive pool may hold a socket the server just closed. */
function getFresh(app: ProcessApp, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: app.port, path, agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
    });
    req.on('error', reject);
  });
}

const messages = (app: ProcessApp) => app.logs().map((l) => String(l.msg));

describe('graceful shutdown (issue 7 item 5)', () => {
  it('on SIGTERM: readiness 503 at once, the in-flight request finishes 200, new connections are refused after the drain, exit 0', async () => {
    const app = await startProcessApp(main, {
      SHUTDOWN_DRAIN_MS: '3000',
      SHUTDOWN_TIMEOUT_MS: '20000',
    });
    try {
      expect((await getFresh(app, '/readyz')).status).toBe(200);
      const slow = trickledIntrospection(app);
      // The request is in flight once its headers are in: give the server a moment to read them.
      await new Promise((r) => setTimeout(r, 300));

      const signalledAt = Date.now();
      app.child.kill('SIGTERM');
      // Draining: still answering new connections, but no longer ready.
      let ready: Answer | undefined;
      await eventually(
        'readiness turns 503',
        async () => (ready = await getFresh(app, '/readyz')).status === 503,
        2_500,
      );
      expect(JSON.parse(ready?.body ?? '{}')).toEqual({
        status: 'unavailable',
        checks: { shutdown: { status: 'down', error: 'the instance is shutting down' } },
      });
      expect(ready?.headers.connection).toBe('close');
      expect((await getFresh(app, '/healthz')).status).toBe(200);

      // After the drain the listening socket is closed, while the slow request still runs.
      await eventually('new connections are refused', () => refused(app.port), 15_000);
      expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(2_500);
      expect(app.exited).toBe(false);

      slow.finish();
      const answer = await slow.answer;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ active: false });
      expect(answer.headers.connection).toBe('close');

      expect(await app.exit).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalledAt).toBeLessThan(20_000);
      expect(messages(app)).toEqual(
        expect.arrayContaining([
          'SIGTERM received: readiness 503, draining for 3000 ms, then closing (limit 20000 ms)',
          expect.stringMatching(/^shutdown complete in \d+ ms$/),
        ]),
      );
    } finally {
      await app.kill();
    }
  }, 120_000);

  it('on SIGINT with no drain (the local default): stops at once and exits 0', async () => {
    const app = await startProcessApp(main);
    try {
      expect((await getFresh(app, '/readyz')).status).toBe(200);
      const signalledAt = Date.now();
      app.child.kill('SIGINT');
      expect(await app.exit).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalledAt).toBeLessThan(10_000);
      expect(await refused(app.port)).toBe(true);
      expect(messages(app)).toContain(
        'SIGINT received: readiness 503, draining for 0 ms, then closing (limit 10000 ms)',
      );
    } finally {
      await app.kill();
    }
  }, 120_000);

  it('exits 1 when an in-flight request outlasts SHUTDOWN_TIMEOUT_MS', async () => {
    const app = await startProcessApp(main, { SHUTDOWN_TIMEOUT_MS: '2000' });
    try {
      const stuck = trickledIntrospection(app);
      stuck.answer.catch(() => undefined);
      await new Promise((r) => setTimeout(r, 300));
      const signalledAt = Date.now();
      app.child.kill('SIGTERM');
      expect(await app.exit).toEqual({ code: 1, signal: null });
      const elapsed = Date.now() - signalledAt;
      expect(elapsed).toBeGreaterThanOrEqual(1_900);
      expect(elapsed).toBeLessThan(10_000);
      expect(messages(app)).toContain(
        'shutdown did not finish within 2000 ms (requests still in flight: 1): exiting 1',
      );
    } finally {
      await app.kill();
    }
  }, 120_000);
});
