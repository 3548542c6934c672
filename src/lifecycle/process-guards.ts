import type { LoggerService } from '@nestjs/common';

const CONTEXT = 'Process';

/**
 * Last-resort handlers (issue 7 item 6: a fault never crashes the process unnoticed). A rejected
 * promise nobody awaited is a bug, but it leaves the process consistent: log it once and keep serving.
 * An uncaught exception may have left any state half-changed: log it and exit 1 so the orchestrator
 * starts a clean process.
 */
export function installProcessGuards(
  logger: LoggerService,
  exit: (code: number) => void,
  target: NodeJS.EventEmitter = process,
): void {
  target.on('unhandledRejection', (reason: unknown) => {
    logger.error(
      { err: reason instanceof Error ? reason : new Error(String(reason)) },
      'unhandled promise rejection (the process keeps running)',
      CONTEXT,
    );
  });
  target.on('uncaughtException', (error: Error) => {
    logger.fatal?.({ err: error }, 'uncaught exception: exiting 1', CONTEXT);
    exit(1);
  });
}
