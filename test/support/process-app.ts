import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, BrowserResponse } from './browser';
import { freePort } from './free-port';
import { throughIdp } from './signin-journey';
import { tempDataDir } from './test-config';

const ROOT = path.resolve(__dirname, '../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS module Jest's globalSetup also loads
const { BUILD_ENV, compileService } = require('./run-build') as {
  BUILD_ENV: string;
  compileService: (outDir: string) => string;
};

/**
 * The service as `npm run build` compiles it: the run's one build (test/support/run-build.js, made by
 * Jest's globalSetup), or, when a spec runs outside that setup, a build of its own into a folder under
 * .test-data/ so that suites side by side never read a half-written dist/. The product finds its
 * project root (locales, client bundle) and node_modules by walking up from there.
 * Returns the path of main.js; pass it to removeBuild when the suite ends.
 */
export function buildApp(): string {
  // On Node 24 (scripts/test-on-node24.js) the service runs as the image lays it out, with the
  // node_modules built for Node 24 (test/support/run-build.js).
  const image = process.env.SIGNON_TEST_NODE24_MAIN;
  if (process.env.SIGNON_NODE24_MODULES && image && fs.existsSync(image)) return image;
  const shared = process.env[BUILD_ENV];
  if (shared && fs.existsSync(shared)) return shared;
  return compileService(path.join(ROOT, '.test-data', `build-${randomUUID()}`));
}

/** Removes a suite's own build; the run's shared one is removed by Jest's globalTeardown. */
export function removeBuild(main: string): void {
  if (main === process.env[BUILD_ENV] || main === process.env.SIGNON_TEST_NODE24_MAIN) return;
  fs.rmSync(path.resolve(main, '../..'), { recursive: true, force: true });
}

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface ProcessApp {
  readonly child: ChildProcess;
  readonly port: number;
  /** The public URL (http://localhost:PORT), as the embedded issuer names it. */
  readonly url: string;
  readonly managementPort: number;
  /** The management listener (/healthz, /readyz, /metrics): http://127.0.0.1:MANAGEMENT_PORT. */
  readonly managementUrl: string;
  readonly dataDir: string;
  /** Settles when the process has exited. */
  readonly exit: Promise<ProcessExit>;
  readonly exited: boolean;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** The JSON log lines written to stdout so far. */
  logs(): Record<string, unknown>[];
  /** Kills the process (SIGKILL) if it still runs, and waits for it to go. */
  kill(): Promise<ProcessExit>;
}

/**
 * The service as `npm start` runs it (NODE_ENV=production, the environment given and PATH only), as a
 * real child process on a free port (or `env.PORT`) and a free management port (or
 * `env.MANAGEMENT_PORT`), with a fresh DATA_DIR unless one is given. Resolves once the management
 * listener's /readyz says the start-up work is done (its `startup` check), or, with
 * `until: 'listening'`, as soon as /readyz answers at all (a start whose start-up work cannot
 * finish yet, e.g. with Redis down).
 */
export async function startProcessApp(
  main: string,
  env: Record<string, string> = {},
  /** The Node binary to run it on: this process's by default (Node 24, the image's: runtimes.ts). */
  node: string = process.execPath,
  until: 'startup' | 'listening' = 'startup',
): Promise<ProcessApp> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const managementPort = env.MANAGEMENT_PORT ? Number(env.MANAGEMENT_PORT) : await freePort();
  const dataDir = env.DATA_DIR ?? tempDataDir();
  const child = spawn(node, [main], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      // Journeys post many forms from one address.
      RATE_LIMIT_CREDENTIAL_POSTS: '10000/60',
      RATE_LIMIT_SIGNIN: '10000/60',
      RATE_LIMIT_SIGNIN_SESSION: '10000/60',
      ...env,
      PORT: String(port),
      MANAGEMENT_PORT: String(managementPort),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let all = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
    all += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => (all += d.toString()));
  let exited = false;
  const exit = new Promise<ProcessExit>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true;
      resolve({ code, signal });
    }),
  );
  const app: ProcessApp = {
    child,
    port,
    url: `http://localhost:${port}`,
    managementPort,
    managementUrl: `http://127.0.0.1:${managementPort}`,
    dataDir,
    exit,
    get exited() {
      return exited;
    },
    output: () => all,
    logs: () =>
      stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    kill: () => {
      if (!exited) child.kill('SIGKILL');
      return exit;
    },
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) throw new Error(`the service exited during start-up:\n${all}`);
    try {
      // Up, and its start-up work done (readiness's `startup` check; other checks may be down on
      // purpose in a fault test).
      const ready = (await (await fetch(`http://127.0.0.1:${managementPort}/readyz`)).json()) as {
        checks?: Record<string, { status?: string }>;
      };
      if (until === 'listening' || ready.checks?.startup?.status === 'up' || ready.checks?.shutdown)
        return app;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await app.kill();
      throw new Error(
        `the service did not answer /readyz on its management port within 30 s:\n${all}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls `probe` until it returns true, or fails after `timeoutMs`. */
export async function eventually(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // One probe that never answers (a request to a process that hangs) counts as a no, so the
    // deadline still holds and the failure names `what` rather than Jest's bare test timeout.
    const attempt = Math.max(1_000, Math.min(5_000, deadline - Date.now()));
    if (await within(`${what} (one probe)`, attempt, probe()).catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `work`, or an error naming `what` once `ms` have passed without it settling. */
export async function within<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A collector's whole sign-in at a running service (any: in-process or child): GET /signin, the
 * embedded IdP's steps, then the landing, whose answer (a 302 carrying the sessionId cookie) is
 * returned.
 */
export async function signInAt(url: string, browser: Browser): Promise<BrowserResponse> {
  const start = await browser.get(`${url}/signin`);
  const callback = await throughIdp(browser, start);
  return browser.get(callback.href);
}
