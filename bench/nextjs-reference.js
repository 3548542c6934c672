// The same-shape Next.js page for `npm run bench:page` (issue 35 item 2: "also print the same-shape
// Next.js 16 page ... served with the same headers and loaded the same way"). bench/nextjs-reference/
// is a stock Next.js 16 App Router app that renders our signed-in /collection page element for
// element, styled by our own critical stylesheet and answering with our headers. This module installs
// it on demand (its own package.json and lock, so the root `npm ci` never carries Next), builds it
// and starts `next start`, so the bench can load it beside our pages.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const APP = path.join(__dirname, 'nextjs-reference');
const ROOT = path.join(__dirname, '..');
const NEXT_BIN = path.join(APP, 'node_modules', 'next', 'dist', 'bin', 'next');
/** Written in .next after a build: the hash of everything the build read. */
const STAMP = path.join(APP, '.next', 'reference-stamp');
const ENV = { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' };

/** `npm ci` in the app when Next is missing or not the version its package.json pins. */
function install() {
  const pinned = require(path.join(APP, 'package.json')).dependencies.next;
  const installed = path.join(APP, 'node_modules', 'next', 'package.json');
  if (fs.existsSync(installed) && JSON.parse(fs.readFileSync(installed, 'utf8')).version === pinned)
    return;
  console.log(`Installing the Next.js reference (next@${pinned}) in ${APP}`);
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: APP, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`npm ci in ${APP} failed (${r.status ?? r.signal})`);
}

/**
 * Our critical stylesheet, exactly as the service inlines it in its <style>: read by the service's
 * own loader from the built client (the bench builds dist/ first).
 */
function criticalCss() {
  const { loadClientAssets } = require(path.join(ROOT, 'dist', 'src', 'render', 'client-assets'));
  return loadClientAssets().criticalCss;
}

/** Writes `file` only when its content changes, so an unchanged build input keeps its mtime. */
function write(file, content) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!fs.existsSync(file) || !fs.readFileSync(file).equals(Buffer.from(content)))
    fs.writeFileSync(file, content);
}

/**
 * What the build reads from outside the app: our stylesheet (app/shell.css), our brand images at the
 * service's URLs (public/static/brand/), and the headers (required-headers.json, imported by proxy.js).
 */
function prepare({ headers, csp }) {
  write(path.join(APP, 'app', 'shell.css'), criticalCss());
  for (const image of ['logo-psa-color.svg', 'favicon-psa.svg'])
    write(
      path.join(APP, 'public', 'static', 'brand', image),
      fs.readFileSync(path.join(ROOT, 'client', 'public', 'brand', image)),
    );
  write(path.join(APP, 'required-headers.json'), `${JSON.stringify({ headers, csp }, null, 2)}\n`);
}

/** A hash of every build input (sources, lock, copied files), to skip a build that would not change. */
function inputsHash() {
  const hash = crypto.createHash('sha256');
  const walk = (dir) => {
    for (const entry of fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (['node_modules', '.next'].includes(entry.name)) continue;
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else hash.update(`${path.relative(APP, file)}\0`).update(fs.readFileSync(file));
    }
  };
  walk(APP);
  return hash.digest('hex');
}

function build() {
  const hash = inputsHash();
  if (fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === hash) return;
  console.log('Building the Next.js reference (next build)...');
  // Its output only matters when it fails: then it is printed whole.
  const r = spawnSync(process.execPath, [NEXT_BIN, 'build'], {
    cwd: APP,
    env: ENV,
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    process.stderr.write(`${r.stdout}${r.stderr}`);
    throw new Error(`next build failed (${r.status ?? r.signal})`);
  }
  fs.writeFileSync(STAMP, hash);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the Next.js reference page. `headers` are the service's response headers as [name, value]
 * pairs, `csp` its page Content-Security-Policy with `NONCE` where each response's nonce goes.
 * Returns the page's URL (on `localhost`, as the bench loads the service) and `stop()`.
 */
async function startNextReference({ headers, csp }) {
  install();
  prepare({ headers, csp });
  build();
  const port = await freePort();
  // `next start` serves from this one process (16.4.6 starts no other), so ending it ends the
  // server. It stays in the bench's process group, so a Ctrl-C of the bench reaches it too.
  const child = spawn(
    process.execPath,
    [NEXT_BIN, 'start', '-H', '127.0.0.1', '-p', String(port)],
    { cwd: APP, env: ENV, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  let exited = false;
  const exit = new Promise((resolve) => child.once('exit', resolve)).then(() => (exited = true));
  const kill = (signal) => exited || child.kill(signal);
  // A bench that throws or exits never leaves the server running behind it.
  const onExit = () => kill('SIGKILL');
  process.once('exit', onExit);
  const stop = async () => {
    process.removeListener('exit', onExit);
    kill('SIGTERM');
    const timer = setTimeout(() => kill('SIGKILL'), 5000);
    await exit;
    clearTimeout(timer);
  };
  // Ready when the page answers 200 (the first request also warms Next's render path).
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) {
      await stop();
      throw new Error('next start exited before it answered');
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error('next start did not answer 200 within 60 s');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url: `http://localhost:${port}/`, stop };
}

module.exports = { startNextReference };
