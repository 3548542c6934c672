import * as net from 'node:net';

/**
 * Ports are handed out below the kernel's ephemeral range (32768-60999 here), in a slice of their
 * own for each Jest worker. Asking the kernel for port 0 and closing it again (the usual trick)
 * raced twice in CI: between the close and the app's listen, another worker's outgoing connection
 * or its own "free" port took the same number (EADDRINUSE). Below the ephemeral range no outgoing
 * connection is given the port, and the slices keep workers apart.
 */
const FIRST_PORT = 20_000;
const SLICE = 500;
const SLICES = 24; // 20000 + 24 × 500 = 32000, still below the ephemeral range

const worker = Number(process.env.JEST_WORKER_ID ?? 0) || process.pid;
/**
 * Worker 1 of every Jest run would take the same slice: two runs at once on one machine (several
 * checkouts, or a run beside `npm run bench`) handed out the same ports and met EADDRINUSE. Every
 * worker of a run has the run's process as parent, so shifting by it keeps a run's workers apart
 * and moves different runs to different slices (unless their parents' ids agree modulo SLICES).
 */
const run = process.env.JEST_WORKER_ID ? process.ppid : 0;
const sliceStart = FIRST_PORT + ((worker + run) % SLICES) * SLICE;
let next = 0;

function canListenOn(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) =>
      // A machine without IPv6 cannot have anything on ::1 either.
      resolve(host === '::1' && error.code === 'EADDRNOTAVAIL'),
    );
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/**
 * Free on both loopbacks: a browser resolves `localhost` to ::1 first, so a server of another
 * process on [::1]:port would answer a page meant for ours on 127.0.0.1.
 */
async function canListen(port: number): Promise<boolean> {
  return (await canListenOn(port, '127.0.0.1')) && (await canListenOn(port, '::1'));
}

/** A TCP port on 127.0.0.1 that is free now and that no other test worker will be given. */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < SLICE; tried += 1) {
    const port = sliceStart + (next % SLICE);
    next += 1;
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${sliceStart}-${sliceStart + SLICE - 1}`);
}
