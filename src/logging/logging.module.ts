import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { pinoHttpOptions } from './pino-options';

export interface LoggingOptions {
  /** Where log lines go; stdout when absent. Tests pass an in-memory stream. */
  readonly logDestination?: NodeJS.WritableStream;
}

/** JSON log lines through nestjs-pino, with the request id in every line of a request. */
@Module({})
export class LoggingModule {
  static forRoot(options: LoggingOptions = {}): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => {
            const pinoHttp = pinoHttpOptions(config);
            return {
              pinoHttp: options.logDestination ? [pinoHttp, options.logDestination] : pinoHttp,
            };
          },
        }),
      ],
    };
  }
}
