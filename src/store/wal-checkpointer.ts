import { Logger } from '@nestjs/common';
import { Worker } from 'node:worker_threads';
import { errorSummary } from '../errors/error-summary';

/** How soon the worker looks again after finding new frames in the log, and after finding none. */
const BUSY_TURN_MS = 20;
const IDLE_TURN_MS = 250;
/** How long close() waits for the worker to close its connection before stopping it outright. */
const STOP_TIMEOUT_MS = 2_000;

/**
 * The worker's code. It is evaluated from this string rather than loaded from a file so that it runs
 * the same from dist/ and from the TypeScript sources the unit tests load (a worker cannot start from
 * a .ts file). It opens its own connection to the file and runs passive checkpoints: they copy
 * committed pages from the log into the database file and never wait for, or block, the request
 * thread's reads and writes. Errors are reported once when they start and once when they end.
 */
const WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
let timer;
let failing;
let seen = '';
function report(error) {
  // One line: a driver's message may go on with a require stack.
  const message = error === undefined ? undefined : String(error && error.message ? error.message : error).split('\\n')[0];
  if (message === failing) return;
  failing = message;
  parentPort.postMessage(message === undefined ? { recovered: true } : { failing: message });
}
function turn() {
  let next = ${IDLE_TURN_MS};
  try {
    if (db === undefined) {
      db = new Database(workerData.file, { fileMustExist: true });
      // Never wait for a lock: the next turn tries again.
      db.pragma('busy_timeout = 0');
    }
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    const now = result.log + '/' + result.checkpointed;
    if (now !== seen) next = ${BUSY_TURN_MS};
    seen = now;
    report(undefined);
  } catch (error) {
    report(error);
  }
  timer = setTimeout(turn, next);
}
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearTimeout(timer);
  try { db?.close(); } finally { parentPort.close(); }
});
turn();
`;

/**
 * Checkpoints a SQLite file's write-ahead log from a worker thread (issue 35 item 5).
 *
 * In WAL mode every commit appends the pages it changed to the log, and the connection that commits
 * the 1,000th page copies the log back into the database file and syncs both: on the request thread,
 * between two requests. A signed-in brand hop appends about 20 pages (two commits), so one hop in 50
 * paid that copy. Here a second connection in a worker copies the log as it grows, and the request
 * thread's own automatic checkpoint, which SQLite still runs at 1,000 pages, finds it nearly done:
 * the log is reset as before and stays about 4 MB under load. Nothing about durability changes: the
 * same pages are copied and synced, on another thread. Measured on the hop, 8 s closed-loop runs on
 * Node 24, alternated with the same build without the worker (four pairs, 2026-11-28): 1,446 against
 * 1,340 requests a second, and the same CPU a request (758 against 766 µs, every thread counted).
 *
 * If the worker cannot start, open the file or checkpoint, the request thread's automatic checkpoint
 * does the whole copy, as SQLite does by default: nothing is lost but the saving. The failure is
 * logged once, and its end once.
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  constructor(
    file: string,
    private readonly label: string,
    private readonly logger: Logger,
    driver: string = require.resolve('better-sqlite3'),
  ) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, driver },
      // Its heap holds a few small objects; the default limits would let it reserve far more.
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
    });
    // The process must not wait for it to exit, and its failure is never the process's.
    this.worker.unref();
    this.worker.on('message', (message: { failing?: string; recovered?: true }) => {
      if (message.failing !== undefined)
        this.logger.warn(
          `${this.label}: its write-ahead log is checkpointed on the request thread (${message.failing})`,
        );
      else if (message.recovered)
        this.logger.log(`${this.label}: its write-ahead log is checkpointed in its worker again`);
    });
    this.worker.on('error', (error) => {
      this.logger.warn(
        `${this.label}: its checkpoint worker stopped, so its write-ahead log is checkpointed on the request thread (${firstLine(errorSummary(error))})`,
      );
    });
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
  }

  /** Closes the worker's connection (before the store's, which then removes the log) and ends it. */
  async stop(): Promise<void> {
    this.worker.postMessage('stop');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS);
      timer.unref();
    });
    if ((await Promise.race([this.exited, timedOut])) === 'timeout') await this.worker.terminate();
    clearTimeout(timer);
  }
}

/** A module loader's message goes on with its require stack; a log line keeps the first line. */
function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
