// What both benchmarks share: free ports, the reference hello server, the app as a production-like
// child process, and autocannon runs. Loopback only.
'use strict';
const autocannon = require('autocannon');
const { execFileSync, fork, spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
/**
 * How production runs the service (scripts/runtime.json): the same flags and environment here.
 * For experiments only: BENCH_NODE_FLAGS replaces the flags, BENCH_APP_ENV (JSON) adds variables.
 */
const RUNTIME = require('../scripts/runtime.json');
const CONNECTIONS = 50;
const DEMO_PASSWORD = 'Collect0rs!Demo';

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(url) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

async function startHello() {
  return startReference('hello-server.js', '/');
}

/** /healthz's platform floor (bench/healthz-floor-server.js), started as the hello server is. */
async function startHealthzFloor() {
  return startReference('healthz-floor-server.js', '/healthz');
}

async function startReference(script, probe) {
  const port = await freePort();
  const child = fork(path.join(__dirname, script), {
    env: { ...process.env, PORT: String(port) },
    stdio: 'ignore',
  });
  await waitFor(`http://127.0.0.1:${port}${probe}`);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

/**
 * The service's main.js in `root`: dist/src/main.js, or on Node 24 the image-shaped copy that
 * bench/on-node24.js made for this checkout (its better-sqlite3 is built for Node 24).
 */
function appMain(root) {
  if (root === ROOT && process.env.BENCH_APP_MAIN) return process.env.BENCH_APP_MAIN;
  return path.join(root, 'dist/src/main.js');
}

/**
 * The app as `npm start` runs it. `root` is the checkout to run (its dist/ built): this one by
 * default, or another for a before/after comparison in the same run (BENCH_BASELINE in run.js).
 */
async function startApp(extraEnv = {}, root = ROOT, dataDir = undefined) {
  const port = await freePort();
  // A data folder made here is the run's own: removed when the app exits.
  const ownDataDir = dataDir === undefined;
  dataDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  // The same runtime flags as `npm start` and the Dockerfile: a larger young generation means fewer
  // scavenges for a server that allocates a little per request.
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? RUNTIME.nodeFlags),
      appMain(root),
    ],
    {
      cwd: root,
      // Production-like: React's and Express's production builds (as `npm start` and the Dockerfile
      // run), JSON logs at info (to /dev/null here), limits out of the way of the load.
      env: {
        PATH: process.env.PATH,
        ...RUNTIME.env,
        PORT: String(port),
        // Several apps run at once (a baseline beside this checkout): each its own management port.
        MANAGEMENT_PORT: String(await freePort()),
        DATA_DIR: dataDir,
        RATE_LIMIT_SIGNIN: '999999/60',
        RATE_LIMIT_SIGNIN_SESSION: '999999/60',
        ...(process.env.BENCH_APP_ENV ? JSON.parse(process.env.BENCH_APP_ENV) : {}),
        ...extraEnv,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
    if (process.env.BENCH_APP_STDERR) process.stderr.write(d);
  });
  const url = `http://localhost:${port}`;
  // Ready, not only alive: the start-up work (the demo users) runs after the listener (issue 18 item 4).
  await waitFor(`${url}/readyz`).catch((error) => {
    throw new Error(`${error.message}\n${stderr}`);
  });
  const exit = new Promise((resolve) => child.once('exit', resolve)).then(() => {
    if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    url,
    pid: child.pid,
    stop: () => child.kill('SIGTERM'),
    stopped: () => {
      child.kill('SIGTERM');
      return exit;
    },
  };
}

/** The version of the machine's Node, whichever Node runs the bench. */
function machineNodeVersion() {
  const node = process.env.BENCH_MACHINE_NODE;
  if (!node) return process.versions.node;
  return execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
}

/**
 * The runtimes a cold start is timed on (issue 35 item 1): this machine's Node, and Node 24, the
 * image's, from the npm registry (scripts/node24.js, as `npm test` prepares it), running dist/ laid
 * out as the image lays it out in a folder of its own (or the one bench/on-node24.js made).
 * `remove()` deletes a folder made here.
 */
function coldStartRuntimes() {
  const { ensureNode24, layOutImage } = require('../scripts/node24');
  const paths = ensureNode24();
  // Under bench/on-node24.js the image-shaped copy is already laid out: it is used, not made again.
  const laidOut = process.env.BENCH_APP_MAIN;
  // .test-data/ exists only once `npm test` has run: a bench on a fresh clone makes it itself.
  if (!laidOut) fs.mkdirSync(path.join(ROOT, '.test-data'), { recursive: true });
  const image = laidOut
    ? undefined
    : fs.mkdtempSync(path.join(ROOT, '.test-data', 'bench-node24-image-'));
  return {
    runtimes: [
      {
        name: `Node ${machineNodeVersion()} (this machine)`,
        // Under bench/on-node24.js the bench itself runs on Node 24; this is still the machine's.
        node: process.env.BENCH_MACHINE_NODE ?? process.execPath,
        main: path.join(ROOT, 'dist/src/main.js'),
      },
      {
        name: `Node ${paths.version} (the image's)`,
        node: paths.node,
        main: laidOut ?? layOutImage(paths, path.join(ROOT, 'dist'), image),
      },
    ],
    remove: () => image && fs.rmSync(image, { recursive: true, force: true }),
  };
}

/**
 * Issue 18 item 4, cold start: milliseconds from spawning the process to its first 200 on /healthz,
 * with `dataDir` as it is (empty on a first start), on `runtime` (coldStartRuntimes). The process
 * is then left to finish its start-up work (so the next start finds complete data) and stopped.
 */
async function coldStart(dataDir, runtime, env = {}) {
  return timeToFirst200(
    runtime.node,
    runtime.main,
    '/healthz',
    { ...env, DATA_DIR: dataDir },
    '/readyz',
  );
}

/** The same for the NestJS hello reference (bench/hello-server.js): the platform's own start. */
function helloColdStart(runtime) {
  return timeToFirst200(runtime.node, path.join(__dirname, 'hello-server.js'), '/', {});
}

/**
 * Milliseconds from spawning `script` on `node` (with production's flags) to its first 200 on
 * `probe`; then, when `settled` is given, waits for that to answer 200 too before stopping it.
 */
async function timeToFirst200(node, script, probe, env, settled) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(node, [...RUNTIME.nodeFlags, script], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      ...RUNTIME.env,
      PORT: String(port),
      MANAGEMENT_PORT: String(await freePort()),
      ...env,
    },
    stdio: 'ignore',
  });
  const exit = new Promise((resolve) => child.once('exit', resolve));
  let ms;
  while (ms === undefined) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}${probe}`)).ok) ms = performance.now() - started;
    } catch {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  if (settled) await waitFor(`http://127.0.0.1:${port}${settled}`);
  child.kill('SIGTERM');
  await exit;
  return ms;
}

/**
 * The platform floor (floor-server.js) for a signed-in session of the product: its cookie header and
 * tokens (signedIn below), and the /collection page data the product rendered for it.
 */
async function startFloor({ cookie, accessToken, refreshToken }, pageData) {
  const jar = Object.fromEntries(
    cookie
      .split('; ')
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-floor-'));
  fs.writeFileSync(path.join(dir, 'page-data.json'), JSON.stringify(pageData));
  const port = await freePort();
  const child = fork(path.join(__dirname, 'floor-server.js'), {
    execArgv: process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? RUNTIME.nodeFlags,
    env: {
      PATH: process.env.PATH,
      ...RUNTIME.env,
      PORT: String(port),
      FLOOR_DB: path.join(dir, 'floor.sqlite'),
      FLOOR_SESSION_ID: jar.sessionId,
      FLOOR_BINDING: jar.sessionBinding,
      FLOOR_ACCESS_TOKEN: accessToken,
      FLOOR_REFRESH_TOKEN: refreshToken,
      // The brand received no ID token; the access token carries the claims the floor reads (sub).
      FLOOR_ID_TOKEN: accessToken,
      FLOOR_PAGE_DATA: path.join(dir, 'page-data.json'),
      ...(process.env.BENCH_SQLITE_MODULE
        ? { BENCH_SQLITE_MODULE: process.env.BENCH_SQLITE_MODULE }
        : {}),
    },
    stdio: 'ignore',
  });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`floor server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: () => {
      child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The bench's collector signs in through PCGS's link, so that the hops to PSA measured below never
 * supersede the session its cookie names (a sign-in keeps one `si` per brand: Sessions.supersede).
 * Returns the cookie header of the session and the tokens PCGS received with it (§4 step 6).
 */
async function signedIn(base) {
  const { passwordSignIn } = require('./signin');
  const { jar, brandUrl } = await passwordSignIn(
    base,
    'collector@example.com',
    DEMO_PASSWORD,
    '/signin?b=pcgs',
  );
  const cookie = await jar.getCookieString(`${base}/signin`);
  if (!/sessionId=/.test(cookie)) throw new Error('bench sign-in did not produce a session');
  return {
    cookie,
    accessToken: brandUrl.searchParams.get('t'),
    refreshToken: brandUrl.searchParams.get('rt'),
  };
}
/**
 * Issue 17: an OTLP/HTTP endpoint for the tracing-on scenario (otlp-sink.js), in its own process.
 * `received()` asks it how many exports (and bytes) arrived.
 */
async function startOtlpSink() {
  const port = await freePort();
  const child = fork(path.join(__dirname, 'otlp-sink.js'), {
    env: { PATH: process.env.PATH, PORT: String(port) },
    stdio: 'ignore',
  });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`OTLP sink exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    received: () =>
      new Promise((resolve) => {
        child.once('message', resolve);
        child.send('count');
      }),
    stop: () => child.kill('SIGTERM'),
  };
}

/** The ShellData a rendered shell page carries for hydration (views/Document.tsx, id page-data). */
function pageDataOf(html) {
  const m = /<script id="page-data" type="application\/json"[^>]*>([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no page data in the rendered page');
  return JSON.parse(m[1]);
}

/** CPU time (user + system) a process has used, in microseconds; undefined where /proc is missing. */
function cpuMicros(pid) {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised name), in clock ticks of 10 ms.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

/**
 * One autocannon run. With `pid`, the result also has `cpuPerRequest`: the server's CPU microseconds
 * per answered request. On a shared VM, wall-clock req/s swing with the neighbours; CPU time per
 * request hardly does, so it is the figure to compare between runs.
 */
async function run({ pid, ...opts }) {
  const before = pid === undefined ? undefined : cpuMicros(pid);
  const result = await new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, ...opts }, (err, r) => (err ? reject(err) : resolve(r)));
  });
  const after = pid === undefined ? undefined : cpuMicros(pid);
  if (before !== undefined && after !== undefined && result.requests.total > 0)
    result.cpuPerRequest = (after - before) / result.requests.total;
  return result;
}

module.exports = {
  CONNECTIONS,
  DEMO_PASSWORD,
  ROOT,
  coldStart,
  coldStartRuntimes,
  cpuMicros,
  helloColdStart,
  freePort,
  pageDataOf,
  run,
  signedIn,
  startApp,
  startFloor,
  startHealthzFloor,
  startHello,
  startOtlpSink,
  waitFor,
};
