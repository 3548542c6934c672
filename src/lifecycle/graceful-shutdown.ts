import type { LoggerService } from '@nestjs/common';
import type { HttpDrain } from './http-drain';
import type { ShutdownState } from './shutdown-state';

export interface ShutdownSettings {
  /** Readiness answers 503 for this long while new connections are still served (AppConfig.shutdown). */
  readonly drainMs: number;
  /** From the signal to a forced exit 1. */
  readonly timeoutMs: number;
}

export interface ShutdownParts {
  /** Nest's close: stops the HTTP server, waits for in-flight requests, then closes the stores. */
  readonly app: { close(): Promise<void> };
  readonly state: ShutdownState;
  readonly drain: HttpDrain;
  readonly logger: LoggerService;
  readonly exit: (code: number) => void;
}

const CONTEXT = 'Shutdown';

/**
 * Graceful shutdown on SIGTERM and SIGINT (issue 7 item 5), in three steps:
 * 1. at once: readiness answers 503 and every response closes its connection; idle keep-alive
 *    connections stay open, so a request already on its way on one is answered, not reset
 *    (HttpDrain);
 * 2. for `drainMs` the server still accepts connections (a load balancer needs a few probe intervals
 *    to see the 503; 0 locally, where nothing watches);
 * 3. then Nest closes: the listening socket (new connections are refused) and the connections still
 *    idle, waits for in-flight requests, then runs the shutdown hooks that close the session store
 *    and the IdP's database.
 * Exit 0 when done; exit 1 if it takes longer than `timeoutMs` from the signal, or on a second signal
 * (a developer pressing Ctrl-C twice).
 */
export class GracefulShutdown {
  private started = false;

  constructor(
    private readonly parts: ShutdownParts,
    private readonly settings: ShutdownSettings,
  ) {}

  listen(target: NodeJS.EventEmitter = process): void {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      target.on(signal, () => void this.run(signal));
    }
  }

  async run(signal: string): Promise<void> {
    const { app, state, drain, logger, exit } = this.parts;
    if (this.started) {
      logger.warn(`${signal} received again while shutting down: exiting now`, CONTEXT);
      exit(1);
      return;
    }
    this.started = true;
    const startedAt = Date.now();
    state.beginDraining();
    drain.begin();
    logger.log(
      `${signal} received: readiness 503, draining for ${this.settings.drainMs} ms, then closing (limit ${this.settings.timeoutMs} ms)`,
      CONTEXT,
    );
    const limit = setTimeout(() => {
      logger.error(
        `shutdown did not finish within ${this.settings.timeoutMs} ms (requests still in flight: ${drain.inFlightCount}): exiting 1`,
        CONTEXT,
      );
      exit(1);
    }, this.settings.timeoutMs);
    try {
      if (this.settings.drainMs > 0)
        await new Promise((resolve) => setTimeout(resolve, this.settings.drainMs));
      await app.close();
      logger.log(`shutdown complete in ${Date.now() - startedAt} ms`, CONTEXT);
      exit(0);
    } catch (error) {
      logger.error(
        `shutdown failed: ${error instanceof Error ? error.message : String(error)}`,
        CONTEXT,
      );
      exit(1);
    } finally {
      clearTimeout(limit);
    }
  }
}
