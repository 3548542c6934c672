import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { freePort } from '../support/free-port';
import { buildApp } from '../support/process-app';
import { productionEnv, tempDataDir } from '../support/test-config';

const ROOT = path.resolve(__dirname, '../..');
/** main.js as `npm run build` compiles it: the run's one build (test/support/run-build.js). */
let MAIN = '';

/**
 * The services the running test started. One that a failed assertion left running is killed after
 * its test: its open pipes would otherwise keep Jest from ever exiting.
 */
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

/**
 * The process `npm start` runs, with only the given environment (plus PATH). Tests that let it
 * listen give it a MANAGEMENT_PORT of its own: many run at once, and 9000 is the default.
 */
function startService(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  stdout: () => string;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: tempDataDir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  let stdout = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
    stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return { child, output: () => out, stdout: () => stdout, exit };
}

/** Waits for /healthz on the management listener (docs/operating.md "The management port"). */
async function waitForHealth(url: string, exit: Promise<number | null>): Promise<Response> {
  const deadline = Date.now() + 20_000;
  let exited = false;
  void exit.then(() => (exited = true));
  while (Date.now() < deadline && !exited) {
    try {
      return await fetch(`${url}/healthz`);
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('service did not answer /healthz');
}

/**
 * The service started with test/support/loaded-modules-probe.js preloaded: `stop()` ends it (exit code
 * 0 expected) and returns the files of `pkg` it had loaded, one a line.
 */
async function startProbed(pkg: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const managementPort = await freePort();
  const dir = tempDataDir();
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, 'loaded-modules.txt');
  const svc = startService({
    ...env,
    PORT: String(port),
    MANAGEMENT_PORT: String(managementPort),
    NODE_OPTIONS: `--require ${path.join(ROOT, 'test/support/loaded-modules-probe.js')}`,
    LOADED_MODULES_PROBE_OUT: out,
    LOADED_MODULES_PROBE_PACKAGE: pkg,
  });
  return {
    svc,
    url: `http://127.0.0.1:${port}`,
    managementUrl: `http://127.0.0.1:${managementPort}`,
    stop: async (): Promise<string> => {
      svc.child.kill('SIGTERM');
      expect(await svc.exit).toBe(0);
      return readFileSync(out, 'utf8');
    },
  };
}

beforeAll(() => {
  // Built exactly as `npm start` builds it (tsc -p tsconfig.build.json), once per test run.
  MAIN = buildApp();
}, 120_000);

describe('start-up (npm start)', () => {
  it('starts with the embedded defaults, answers /healthz, logs JSON, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const managementPort = await freePort();
    const svc = startService({ PORT: String(port), MANAGEMENT_PORT: String(managementPort) });
    const res = await waitForHealth(`http://127.0.0.1:${managementPort}`, svc.exit);
    expect(res.status).toBe(200);
    svc.child.kill('SIGTERM');
    expect(await svc.exit).toBe(0);
    // stdout is the log stream. (stderr may carry oidc-provider's notice that Node 20 is older than it prefers.)
    const lines = svc.stdout().trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(svc.output()).toContain(
      `listening on http://localhost:${port} (local, IdP embedded), management on 127.0.0.1:${managementPort}`,
    );
  }, 30_000);

  // Issue 33 item 4: a newcomer's terminal after `npm start`. `script` gives the service a
  // pseudo-terminal, as a shell would; nothing else in the environment asks for a format.
  it('in a terminal: readable lines, no framework bookkeeping, and the last says where to go and as whom', async () => {
    const port = await freePort();
    const child = spawn('script', ['-qfec', `"${process.execPath}" "${MAIN}"`, '/dev/null'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: tempDataDir(),
        PORT: String(port),
        MANAGEMENT_PORT: String(await freePort()),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    running.add(child);
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    const invitation = `ready: open http://localhost:${port}/ and sign in as collector@example.com with the password Collect0rs!Demo`;
    const deadline = Date.now() + 20_000;
    while (!out.includes(invitation) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGKILL');
    const lines = out
      // The colours pino-pretty adds on a terminal (ESC [ ... m).
      .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
      .replace(/\r/g, '')
      .trim()
      .split('\n');
    expect(lines.at(-1)).toContain(invitation);
    for (const line of lines) expect(line.startsWith('{')).toBe(false);
    expect(lines.filter((l) => / INFO: /.test(l)).length).toBeLessThanOrEqual(3);
    expect(out).not.toMatch(/RouterExplorer|InstanceLoader|Mapped \{/);
    expect(lines.find((l) => l.includes('listening on'))).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: /,
    );
  }, 30_000);

  it('piped (a log collector, as in qa and prod): JSON lines only, ending with the same invitation', async () => {
    const port = await freePort();
    const svc = startService({ PORT: String(port), MANAGEMENT_PORT: String(await freePort()) });
    const deadline = Date.now() + 20_000;
    while (!svc.stdout().includes('"msg":"ready: open') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    svc.child.kill('SIGTERM');
    expect(await svc.exit).toBe(0);
    const lines = svc
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string; context?: string });
    const shutdown = lines.findIndex((l) => l.context === 'Shutdown');
    const startup = lines.slice(0, shutdown);
    expect(startup.at(-1)?.msg).toMatch(/^ready: open http:\/\/localhost:\d+\/ and sign in as /);
    expect(startup.length).toBeLessThanOrEqual(3);
  }, 30_000);

  it('with the SQLite store, loads no Redis client at all (issue 18 item 4: a shorter start)', async () => {
    const run = await startProbed('ioredis');
    expect((await waitForHealth(run.managementUrl, run.svc.exit)).status).toBe(200);
    expect(await run.stop()).toBe('');
  }, 30_000);

  it('loads none of the parts of nestjs-i18n it does not use, and still translates (patches/)', async () => {
    // patches/nestjs-i18n+10.6.1.patch: class-validator (about 320 files with its own dependencies),
    // chokidar and js-yaml are required where nestjs-i18n uses them, not when it is loaded.
    const run = await startProbed('class-validator,validator,libphonenumber-js,chokidar,js-yaml');
    expect((await waitForHealth(run.managementUrl, run.svc.exit)).status).toBe(200);
    const page = await fetch(`${run.url}/signin?b=nosuchbrand&lang=fr-CA`, {
      headers: { accept: 'text/html' },
    });
    expect(page.status).toBe(400);
    expect(await page.text()).toMatch(/<html lang="fr-CA"[^>]*>.*<title>[^<]*Une erreur/s);
    expect(await run.stop()).toBe('');
  }, 30_000);

  it('with an external issuer (qa, prod), loads no embedded IdP at all (issue 18 item 4)', async () => {
    // oidc-provider is ESM, which require.cache does not list; koa is the CommonJS framework it
    // alone brings (npm ls koa), so koa's files stand for it.
    const run = await startProbed('koa', { ...productionEnv(), SHUTDOWN_DRAIN_MS: '0' });
    expect((await waitForHealth(run.managementUrl, run.svc.exit)).status).toBe(200);
    expect(run.svc.output()).toContain('(prod, IdP external)');
    expect(await run.stop()).toBe('');
  }, 30_000);

  // docs/security.md, knowingly left open: more trusted proxies than documented starts, with a
  // warning an operator sees in the start-up log, naming the setting.
  it('starts in prod with more trusted proxies than documented, and its log says so', async () => {
    const run = await startProbed('koa', {
      ...productionEnv(),
      TRUST_PROXY: '3',
      SHUTDOWN_DRAIN_MS: '0',
    });
    expect((await waitForHealth(run.managementUrl, run.svc.exit)).status).toBe(200);
    const warning = run.svc
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level?: number; key?: string; msg?: string })
      .find((line) => line.key === 'TRUST_PROXY');
    expect(warning).toMatchObject({
      level: 40,
      msg: expect.stringMatching(/^TRUST_PROXY: is 3, /),
    });
    expect(await run.stop()).toBe('');
  }, 30_000);

  it('with the embedded IdP, builds it once listening: /readyz turns 200 and the IdP answers', async () => {
    const run = await startProbed('koa');
    expect((await waitForHealth(run.managementUrl, run.svc.exit)).status).toBe(200);
    // Readiness waits for the provider (built after the listener is up) and the demo users.
    const deadline = Date.now() + 20_000;
    while ((await fetch(`${run.managementUrl}/readyz`)).status !== 200 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect((await fetch(`${run.managementUrl}/readyz`)).status).toBe(200);
    const discovery = await fetch(`${run.url}/oauth2/default/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(await run.stop()).toContain(`${path.sep}koa${path.sep}`);
  }, 30_000);

  it('stops on an invalid APP_ENV, naming it', async () => {
    const svc = startService({ APP_ENV: 'staging' });
    expect(await svc.exit).toBe(1);
    expect(svc.output()).toContain('APP_ENV: must be one of local, dev, qa, prod (got "staging")');
  }, 20_000);

  it.each(['qa', 'prod'])(
    'stops in %s without its secrets and addresses, listing every one',
    async (appEnv) => {
      const svc = startService({ APP_ENV: appEnv });
      expect(await svc.exit).toBe(1);
      for (const key of [
        'PUBLIC_URL',
        'GRADING_BASE_URL',
        'GRADING_JAPAN_BASE_URL',
        'CID_ROUTER_BASE_URL',
        'POWERPACKS_BASE_URL',
        'SESSION_SECRET',
        'IDP_ISSUER',
        'IDP_CLIENT_ID',
        'IDP_CLIENT_SECRET',
        'BRAND_URLS.pcgs.baseURL',
      ]) {
        expect(svc.output()).toContain(`- ${key}: is required in ${appEnv}`);
      }
    },
    20_000,
  );

  it('the Docker image without configuration refuses to start: no embedded IdP, no demo password (issue 15 item 4)', async () => {
    // The runtime stage's ENV, as the image sets it; an operator who forgot everything else.
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('AS runtime'));
    const block = /^ENV ((?:.*\\\n)*.*)$/m.exec(runtime)?.[1] ?? '';
    const env = Object.fromEntries(
      [...block.matchAll(/([A-Z_]+)=(\S+)/g)].map((m) => [m[1] ?? '', m[2] ?? '']),
    );
    expect(env.APP_ENV).toBe('prod');
    const port = await freePort();
    const svc = startService({ ...env, PORT: String(port), DATA_DIR: tempDataDir() });
    expect(await svc.exit).toBe(1);
    expect(svc.output()).toContain('Invalid configuration');
    for (const key of ['PUBLIC_URL', 'SESSION_SECRET', 'IDP_ISSUER', 'TRUST_PROXY'])
      expect(svc.output()).toContain(`- ${key}: is required in prod`);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  }, 20_000);

  // Issue 50 item 10: secrets a person typed, a key of zero bytes and one secret for two purposes.
  it('stops in prod on weak or shared secrets, naming each', async () => {
    const env = productionEnv();
    const svc = startService({
      ...env,
      SESSION_SECRET: 's'.repeat(40),
      TOKEN_ENCRYPTION_KEYS: `prod-1:${Buffer.alloc(32).toString('base64')}`,
      BRAND_CLIENTS: JSON.stringify({
        ...(JSON.parse(env.BRAND_CLIENTS ?? '{}') as object),
        pcgs: { clientId: '0oa-pcgs', clientSecret: env.IDP_CLIENT_SECRET },
      }),
    });
    expect(await svc.exit).toBe(1);
    expect(svc.output()).toContain('Invalid configuration (3 problems)');
    for (const key of [
      'SESSION_SECRET: has too little variety',
      'TOKEN_ENCRYPTION_KEYS.prod-1: holds 1 different byte value(s) of 32',
      'BRAND_CLIENTS.pcgs.clientSecret: must not be the secret of IDP_CLIENT_SECRET',
    ])
      expect(svc.output()).toContain(`- ${key}`);
  }, 20_000);

  it('stops in prod when one secret is missing, naming only it', async () => {
    const env = productionEnv();
    delete (env as Record<string, string | undefined>).SESSION_SECRET;
    const svc = startService(env);
    expect(await svc.exit).toBe(1);
    expect(svc.output()).toContain(
      'Invalid configuration (1 problem):\n  - SESSION_SECRET: is required in prod',
    );
  }, 20_000);
});
