import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { REDACTED, REDACTED_LOG_PATHS, redactUrl } from './redaction';
import { requestIdFor } from './request-id';

/** Paths polled by orchestrators: logging each hit would drown the useful lines. */
const QUIET_PATHS = new Set(['/healthz', '/readyz']);

/**
 * JSON lines through pino, one per request with its id, status and duration. Secrets are removed by
 * path (headers) and by serializer (query values in the URL).
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        pinoHttp: {
          level: config.log.level,
          genReqId: (req: IncomingMessage, res: ServerResponse) => requestIdFor(req, res),
          redact: { paths: [...REDACTED_LOG_PATHS], censor: REDACTED },
          autoLogging: { ignore: (req: IncomingMessage) => QUIET_PATHS.has((req.url ?? '').split('?')[0] ?? '') },
          customProps: () => ({ env: config.env }),
          serializers: {
            req: (req: { id: unknown; method: string; url: string; headers: Record<string, unknown>; remoteAddress?: string }) => ({
              id: req.id,
              method: req.method,
              url: redactUrl(req.url),
              headers: {
                'user-agent': req.headers['user-agent'],
                ...(typeof req.headers.referer === 'string' ? { referer: redactUrl(req.headers.referer) } : {}),
                ...(req.headers.cookie !== undefined ? { cookie: REDACTED } : {}),
                ...(req.headers.authorization !== undefined ? { authorization: REDACTED } : {}),
              },
              remoteAddress: req.remoteAddress,
            }),
            res: (res: { statusCode: number; headers?: Record<string, unknown> }) => ({
              statusCode: res.statusCode,
              location:
                typeof res.headers?.location === 'string' ? redactUrl(res.headers.location) : undefined,
            }),
          },
        },
      }),
    }),
  ],
})
export class LoggingModule {}
