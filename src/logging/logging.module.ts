import { DynamicModule, Global, Module } from '@nestjs/common';
import pino from 'pino';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AppLogger, NestLogger, ROOT_LOGGER } from './app-logger';
import { AuthEvents } from './auth-events';
import { logDestination } from './log-destination';
import { rootLoggerOptions } from './log-format';

export interface LoggingOptions {
  /** Where log lines go; stdout when absent. Tests pass an in-memory stream. */
  readonly logDestination?: NodeJS.WritableStream;
}

/**
 * Log lines with pino (JSON, or pretty for a terminal with LOG_FORMAT=pretty): the root logger, the logger services inject (AppLogger) and Nest's own
 * (NestLogger). The access line and the request scope come from requestLogging, which
 * configureApp mounts first.
 */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(options: LoggingOptions = {}): DynamicModule {
    return {
      module: LoggingModule,
      providers: [
        {
          provide: ROOT_LOGGER,
          inject: [APP_CONFIG],
          useFactory: async (config: AppConfig) => {
            const destination = await logDestination(config.log.format, options.logDestination);
            return destination
              ? pino(rootLoggerOptions(config), destination)
              : pino(rootLoggerOptions(config));
          },
        },
        AppLogger,
        NestLogger,
        AuthEvents,
      ],
      exports: [ROOT_LOGGER, AppLogger, NestLogger, AuthEvents],
    };
  }
}
