import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as net from 'node:net';
import { freePort } from './free-port';

export interface RunningRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Starts a throw-away redis-server on a free loopback port (or `port`, e.g. to bring one back where
 * it was), without persistence. `npm test` installs Debian's redis-server first
 * (scripts/test-prerequisites.js); a missing binary fails loudly here.
 */
export async function startRedis(options: { port?: number } = {}): Promise<RunningRedis> {
  if (spawnSync('sh', ['-c', 'command -v redis-server'], { stdio: 'ignore' }).status !== 0) {
    throw new Error(
      'redis-server is not installed: run `npm test` (it installs it) or `apt-get install -y redis-server`',
    );
  }
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--protected-mode',
      'yes',
    ],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 10_000;
  while (!(await answersPing(port))) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('redis-server did not start within 10 s');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => {
      socket.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
