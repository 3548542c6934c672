import type { IncomingMessage, ServerResponse } from 'node:http';
import * as os from 'node:os';
import type { Options } from 'pino-http';
import type { AppConfig } from '../config/app-config';
import { REDACTED, redactUrl } from './redaction';
import { requestIdFor } from './request-id';
import { beginTrace, traceOf } from './trace-context';

/** Paths polled by orchestrators and scrapers: logging each hit would drown the useful lines. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

interface SerializedRequest {
  id: unknown;
  method: string;
  url: string;
  headers: Record<string, unknown>;
  remoteAddress?: string;
  /** The request itself (pino-std-serializers keeps it here, not enumerable). */
  raw?: IncomingMessage;
}

/**
 * pino-http settings: one JSON line per request with its id, status and duration. Secrets are removed
 * by the serializers below, which pino applies to every line that logs a `req` or `res`: query values
 * in URLs, cookies, authorization and the handoff secret never reach a line. (They replace pino's
 * `redact` paths, which cost a compiled pass over each request's bindings for the same result.)
 *
 * Trace ids (W3C Trace Context, issue 7) ride in the same serialized `req` (`req.trace_id`,
 * `req.span_id`, and `req.parent_id` when the caller sent a valid traceparent): pino serializes it
 * once, when the request's logger is made, and every line of the request carries it, at no further
 * cost per line.
 */
export function pinoHttpOptions(config: AppConfig): Options {
  return {
    level: config.log.level,
    // Called once per request, before its logger exists: the trace context is ready for the serializer.
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      beginTrace(req, res);
      return requestIdFor(req, res);
    },
    // Bound once on the root logger: a per-request `customProps` would cost a child logger each time.
    base: { pid: process.pid, hostname: os.hostname(), env: config.env },
    autoLogging: { ignore: (req) => QUIET_PATHS.has((req.url ?? '').split('?')[0] ?? '') },
    serializers: {
      req: (req: SerializedRequest) => {
        const trace = traceOf(req.raw);
        return {
          id: req.id,
          // Undefined fields are left out of the line.
          trace_id: trace?.traceId,
          span_id: trace?.spanId,
          parent_id: trace?.parentId,
          method: req.method,
          url: redactUrl(req.url),
          headers: {
            'user-agent': req.headers['user-agent'],
            ...(typeof req.headers.referer === 'string'
              ? { referer: redactUrl(req.headers.referer) }
              : {}),
            ...(req.headers.cookie !== undefined ? { cookie: REDACTED } : {}),
            ...(req.headers.authorization !== undefined ? { authorization: REDACTED } : {}),
          },
          remoteAddress: req.remoteAddress,
        };
      },
      res: (res: { statusCode: number; headers?: Record<string, unknown> }) => ({
        statusCode: res.statusCode,
        ...(typeof res.headers?.location === 'string'
          ? { location: redactUrl(res.headers.location) }
          : {}),
      }),
    },
  };
}
