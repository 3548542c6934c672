import type { IncomingMessage, ServerResponse } from 'node:http';
import * as os from 'node:os';
import type { LoggerOptions } from 'pino';
import type { AppConfig } from '../config/app-config';
import { SERVICE_NAME, SERVICE_VERSION } from '../config/service-identity';
import { REDACTED, redactUrl } from './redaction';
import { traceOf } from './trace-context';
import { ROUTES } from '../shared/routes';

/**
 * Paths polled by orchestrators: logging each hit would drown the useful lines. /metrics is not
 * one: the public app does not serve it (the management listener does, with no request log at all:
 * docs/operating.md "The management port"), so a request for it here is a 404 worth its line.
 */
export const QUIET_PATHS: ReadonlySet<string> = new Set([ROUTES.healthz, ROUTES.readyz]);

declare module 'http' {
  interface IncomingMessage {
    /** The request id (and correlation id), set first thing by requestLogging. */
    id?: string;
  }
}

/** A request as the logger sees it; express keeps the path before any mount point in originalUrl. */
export type LoggedRequest = IncomingMessage & { originalUrl?: string };

/**
 * How a request appears in a line: its id, trace ids (W3C Trace Context, issue 7), method, path with
 * sensitive query values redacted, user agent and address. Cookies and authorization only say that
 * they were there. Undefined fields are left out of the line.
 */
/**
 * The longest URL a log line carries (issue 32 item 4: one 16 kB URL, logged once per call of a
 * batch, made one request write 15 MB). What is cut is said, with the full length.
 */
export const MAX_LOGGED_URL = 512;

export function truncated(url: string): string {
  return url.length <= MAX_LOGGED_URL
    ? url
    : `${url.slice(0, MAX_LOGGED_URL)}…[${url.length} characters]`;
}

export function serializeRequest(req: LoggedRequest): Record<string, unknown> {
  const trace = traceOf(req);
  const { headers } = req;
  return {
    id: req.id,
    trace_id: trace?.traceId,
    span_id: trace?.spanId,
    parent_id: trace?.parentId,
    method: req.method,
    url: truncated(redactUrl(req.originalUrl ?? req.url ?? '')),
    headers: {
      'user-agent': headers['user-agent'],
      ...(typeof headers.referer === 'string'
        ? { referer: truncated(redactUrl(headers.referer)) }
        : {}),
      ...(headers.cookie !== undefined ? { cookie: REDACTED } : {}),
      ...(headers.authorization !== undefined ? { authorization: REDACTED } : {}),
    },
    remoteAddress: req.socket?.remoteAddress,
  };
}

/** A response in a line: the status, and where a redirect went (its query values redacted). */
export function serializeResponse(res: ServerResponse): Record<string, unknown> {
  const location = res.getHeader('location');
  return {
    statusCode: res.statusCode,
    ...(typeof location === 'string' ? { location: truncated(redactUrl(location)) } : {}),
  };
}

/**
 * The root logger's settings: JSON lines, the process, environment, service name and version
 * bound once (every line says which release wrote it, docs/operating.md "Logs"), and the
 * serializers above for every line that logs a `req` or `res`, so secrets never reach a line
 * (docs/design.md "Tokens stay secret"). Serializers rather than pino's `redact` paths, which
 * would cost a compiled pass over every line for the same result.
 */
export function rootLoggerOptions(config: AppConfig): LoggerOptions {
  return {
    level: config.log.level,
    base: {
      pid: process.pid,
      hostname: os.hostname(),
      env: config.env,
      service: SERVICE_NAME,
      version: SERVICE_VERSION,
    },
    serializers: { req: serializeRequest, res: serializeResponse },
  };
}
