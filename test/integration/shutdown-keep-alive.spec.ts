import * as http from 'node:http';
import * as net from 'node:net';
import { buildApp, removeBuild, startProcessApp } from '../support/process-app';

/**
 * A drain without resets (docs/operating.md "Keep-alive and load balancers"). Keep-alive clients,
 * as a load balancer's pool is, send requests in a loop on the real process through SIGTERM. Idle
 * keep-alive connections used to be closed at the signal, and a request sent on one just then met a
 * reset (5 and 19 of them in two runs of 10 clients). Now none may fail while the listener is open:
 * each request gets its whole answer (with `Connection: close` once draining), and once the
 * listener has closed, a new connection is refused cleanly.
 *
 * Whether the listener was still open when a request failed is asked, not timed: right after the
 * failure the client opens a fresh connection. If that one is accepted, the listener was open when
 * the request failed.
 *
 * The one failure allowed is the kernel's, at the listener's close: a connection whose handshake
 * the kernel completed but the process had not accepted yet is reset when the listening socket
 * closes (Linux resets what waits in the accept queue). These clients open a new connection for
 * each request once draining, up to the last moment; a load balancer has stopped sending by then
 * (it saw readiness 503 during the drain). Such a failure is on a new connection, never on one kept
 * alive, and only once the listener is closed.
 */

let main: string;
beforeAll(() => {
  main = buildApp();
}, 180_000);
afterAll(() => removeBuild(main));

const CLIENTS = 10;

interface Outcome {
  readonly client: number;
  /** Sent after SIGTERM. */
  readonly afterSignal: boolean;
  /** On a keep-alive connection an earlier request had used. */
  readonly reused: boolean;
  readonly status?: number;
  readonly connection?: string;
  readonly body?: string;
  readonly error?: string;
  /** For a failure: whether a fresh connection made right after it was accepted. */
  readonly listenerOpenAfter?: boolean;
}

/** True when a fresh TCP connection to the port is accepted (the listener is open). */
function accepted(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** One GET on the client's keep-alive agent. */
function get(
  port: number,
  agent: http.Agent,
): Promise<Omit<Outcome, 'client' | 'afterSignal' | 'listenerOpenAfter'>> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () =>
        resolve({
          reused: req.reusedSocket,
          status: res.statusCode ?? 0,
          connection: res.headers.connection ?? '',
          body,
        }),
      );
      res.on('error', (error: NodeJS.ErrnoException) =>
        resolve({ reused: req.reusedSocket, error: error.code ?? error.message }),
      );
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ reused: req.reusedSocket, error: error.code ?? error.message }),
    );
  });
}

describe('a drain without resets', () => {
  it('10 keep-alive clients through SIGTERM: no reset while listening, then refusals', async () => {
    const app = await startProcessApp(main, {
      SHUTDOWN_DRAIN_MS: '2000',
      SHUTDOWN_TIMEOUT_MS: '20000',
    });
    const outcomes: Outcome[] = [];
    let signalled = false;
    const loops = Array.from({ length: CLIENTS }, async (_, client) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (;;) {
          const afterSignal = signalled;
          const outcome = await get(app.port, agent);
          if (outcome.error === undefined) {
            outcomes.push({ client, afterSignal, ...outcome });
          } else {
            const listenerOpenAfter = await accepted(app.port);
            outcomes.push({ client, afterSignal, ...outcome, listenerOpenAfter });
            if (!listenerOpenAfter && outcome.error === 'ECONNREFUSED') return;
          }
          // Idle for a moment between requests, as a pooled connection mostly is.
          await new Promise((r) => setTimeout(r, client % 3));
        }
      } finally {
        agent.destroy();
      }
    });
    try {
      // Every client holds a keep-alive connection that has served requests.
      while (new Set(outcomes.filter((o) => o.reused).map((o) => o.client)).size < CLIENTS)
        await new Promise((r) => setTimeout(r, 20));
      signalled = true;
      app.child.kill('SIGTERM');
      await Promise.all(loops);
      // On any other exit, what the process wrote says why.
      const exit = await app.exit;
      expect({ exit, output: exit.code === 0 ? '' : app.output() }).toEqual({
        exit: { code: 0, signal: null },
        output: '',
      });

      const failures = outcomes.filter((o) => o.error !== undefined);
      // No request failed while the listener was open: not one reset.
      expect(failures.filter((o) => o.listenerOpenAfter)).toEqual([]);
      // Not one on a connection kept alive, before or after.
      expect(failures.filter((o) => o.reused)).toEqual([]);
      // Each client ended at a clean refusal of a new connection, once the listener had closed.
      const refusals = failures.filter((o) => o.error === 'ECONNREFUSED');
      expect(new Set(refusals.map((o) => o.client)).size).toBe(CLIENTS);
      // Anything else: a new connection the kernel reset as the listening socket closed.
      for (const other of failures.filter((o) => o.error !== 'ECONNREFUSED'))
        expect(other).toMatchObject({
          error: 'ECONNRESET',
          reused: false,
          listenerOpenAfter: false,
        });
      // Every answer was whole.
      const answers = outcomes.filter((o) => o.error === undefined);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body ?? '')).toMatchObject({ status: 'ok' });
      }
      // The drain was served, on the connections kept alive from before the signal too: each of
      // those answered with Connection: close.
      const drained = answers.filter((o) => o.afterSignal && o.connection === 'close');
      expect(drained.length).toBeGreaterThanOrEqual(CLIENTS);
      expect(drained.some((o) => o.reused)).toBe(true);
    } finally {
      signalled = true;
      await app.kill();
      await Promise.all(loops);
    }
  }, 120_000);
});
