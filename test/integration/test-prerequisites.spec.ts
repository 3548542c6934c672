import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CHROMIUM_MISSING, launchChromium } from '../support/chromium';

/**
 * A machine without the programs the tests start (issue 13 item 0): `npm test` stops before any test
 * with a message naming each program and its Debian package, and a browser spec that still finds no
 * Chromium fails with the same advice. Nothing is skipped either way.
 */
const SCRIPT = path.resolve(__dirname, '../../scripts/test-prerequisites.js');

/** A directory to use as the whole PATH: empty stand-ins for the given programs, and maybe sh. */
function pathWith(programs: string[], options: { sh: boolean } = { sh: true }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-prerequisites-'));
  if (options.sh) fs.symlinkSync('/bin/sh', path.join(dir, 'sh'));
  for (const program of programs) {
    fs.writeFileSync(path.join(dir, program), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  }
  return dir;
}

/** `node scripts/test-prerequisites.js` with PATH as its only environment variable. */
function runPrerequisites(pathDir: string): {
  status: number | null;
  stdout: string;
  stderr: string;
} {
  const run = spawnSync(process.execPath, [SCRIPT], {
    env: { PATH: pathDir },
    encoding: 'utf8',
    timeout: 30_000,
  });
  fs.rmSync(pathDir, { recursive: true, force: true });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('test prerequisites on a machine without them', () => {
  it('launchChromium fails, naming the way to install it, when the browser is missing', async () => {
    await expect(launchChromium({ executablePath: '/nonexistent/chromium' })).rejects.toThrow(
      CHROMIUM_MISSING,
    );
    await expect(launchChromium({ executablePath: '/nonexistent/chromium' })).rejects.toThrow(
      '/nonexistent/chromium',
    );
  });

  it('the script stops, naming every missing program, its package and why, without apt-get', () => {
    const run = runPrerequisites(pathWith([]));
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('The tests need programs that are not installed');
    expect(run.stderr).toContain('redis-server (Debian package redis-server): session-store');
    // Issue 17 item 1: the cluster tests create their cluster with redis-cli.
    expect(run.stderr).toContain('redis-cli (Debian package redis-tools): the Redis Cluster tests');
    expect(run.stderr).toContain('chromium (Debian package chromium): the browser a person runs');
    expect(run.stderr).toContain(
      'chromium-headless-shell (Debian package chromium-headless-shell): browser specs',
    );
    expect(run.stderr).toContain(
      'promtool (Debian package prometheus): the alert rules of deploy/monitoring',
    );
    expect(run.stderr).toContain(
      'prometheus (Debian package prometheus): the end-to-end alert test',
    );
    // The package that provides two of the programs is installed once.
    expect(run.stderr).toContain(
      'apt-get install -y redis-server redis-tools chromium chromium-headless-shell prometheus kubernetes-client) and',
    );
    expect(run.stderr).toContain('kubectl (Debian package kubernetes-client): the Kubernetes');
  });

  it('names only what is missing', () => {
    const run = runPrerequisites(pathWith(['redis-server', 'redis-cli']));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('chromium (Debian package chromium)');
    expect(run.stderr).not.toContain('redis-server');
    expect(run.stderr).not.toContain('redis-cli');
  });

  it('passes, installing nothing, when every program is on PATH (even one without a shell)', () => {
    // No sh on this PATH: the script must find its shell at /bin/sh, not report everything missing.
    const run = runPrerequisites(
      pathWith(
        [
          'redis-server',
          'redis-cli',
          'chromium',
          'chromium-headless-shell',
          'promtool',
          'prometheus',
          'kubectl',
        ],
        { sh: false },
      ),
    );
    expect(run).toEqual({ status: 0, stdout: '', stderr: '' });
  });
});
