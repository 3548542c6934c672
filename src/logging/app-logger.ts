import { Inject, Injectable, LoggerService, Scope } from '@nestjs/common';
import type { Logger as Pino } from 'pino';
import { currentLogger } from './request-logging';

export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * The logger services inject: one JSON line per call, with the current request's id and trace ids
 * when called inside a request, and the class that logged (`setContext`) as `context`. Called as
 * pino is: (fields, message) or (message). One instance per consumer (transient), so each keeps its
 * own context.
 */
@Injectable({ scope: Scope.TRANSIENT })
export class AppLogger {
  private context: string | undefined;

  constructor(@Inject(ROOT_LOGGER) private readonly root: Pino) {}

  setContext(context: string): void {
    this.context = context;
  }

  debug(fieldsOrMessage: object | string, message?: string): void {
    this.write('debug', fieldsOrMessage, message);
  }
  info(fieldsOrMessage: object | string, message?: string): void {
    this.write('info', fieldsOrMessage, message);
  }
  warn(fieldsOrMessage: object | string, message?: string): void {
    this.write('warn', fieldsOrMessage, message);
  }
  error(fieldsOrMessage: object | string, message?: string): void {
    this.write('error', fieldsOrMessage, message);
  }

  private write(level: Level, fieldsOrMessage: object | string, message?: string): void {
    const logger = currentLogger(this.root);
    if (!logger.isLevelEnabled(level)) return;
    if (typeof fieldsOrMessage === 'string') {
      logger[level](this.context ? { context: this.context } : {}, fieldsOrMessage);
      return;
    }
    const fields = fieldsOrMessage instanceof Error ? { err: fieldsOrMessage } : fieldsOrMessage;
    logger[level](this.context ? { context: this.context, ...fields } : fields, message);
  }
}

/**
 * Nest's start-up bookkeeping: a line per module loaded and per route mapped, 50 lines at every
 * start that bury the one a person wants (issue 33 item 4). They are debug lines (LOG_LEVEL=debug
 * shows them); the routes are in src/shared/routes.ts.
 */
export const NEST_BOOKKEEPING: ReadonlySet<string> = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * Nest's own logger interface (start-up, `new Logger(Name)` in stores, shutdown) on the same lines:
 * the last extra argument is the context, an Error becomes `err`, and the stack Nest's exception
 * handlers pass as a separate string is kept as the error's stack.
 */
@Injectable()
export class NestLogger implements LoggerService {
  constructor(@Inject(ROOT_LOGGER) private readonly root: Pino) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    const bookkeeping = typeof context === 'string' && NEST_BOOKKEEPING.has(context);
    this.write(bookkeeping ? 'debug' : 'info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    const logger = currentLogger(this.root);
    const fields: Record<string, unknown> = {};
    const context = params.length > 0 ? params[params.length - 1] : undefined;
    if (context !== undefined) fields.context = context;
    const extra = params.slice(0, -1);
    if (message instanceof Error) {
      logger[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      logger[level]({ ...fields, ...message });
    } else if (
      level === 'error' &&
      typeof extra[0] === 'string' &&
      extra.length === 1 &&
      /\n\s*at /.test(extra[0])
    ) {
      const err = new Error(String(message));
      err.stack = extra[0];
      logger[level]({ ...fields, err }, String(message));
    } else {
      logger[level](fields, String(message));
    }
  }
}
