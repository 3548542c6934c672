import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { Logger as Pino } from 'pino';
import { activeTracer } from '../tracing';
import type { RequestSpanIds, Tracer } from '../tracing';
import { LoggedRequest, QUIET_PATHS } from './log-format';
import { requestIdFor } from './request-id';
import { TraceContext, attachTrace, beginTrace } from './trace-context';

/** The request a line is logged in, and the logger bound to it once one line needed it. */
interface RequestScope {
  readonly req: LoggedRequest;
  logger?: Pino;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/**
 * The logger for the current request: a child of `root` that carries the request (id, trace ids,
 * path) in every line, made the first time something logs in that request, so requests that log
 * nothing but their access line never pay for it. Outside a request: `root`.
 */
export function currentLogger(root: Pino): Pino {
  const scope = scopes.getStore();
  if (!scope) return root;
  scope.logger ??= root.child({ req: scope.req });
  return scope.logger;
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '';
  const q = raw.indexOf('?');
  return q === -1 ? raw : raw.slice(0, q);
}

/** The log lines' trace context of a request whose span OpenTelemetry made. */
function traceContextOf(ids: RequestSpanIds): TraceContext {
  return {
    traceId: ids.traceId,
    spanId: ids.spanId,
    ...(ids.parentId !== undefined ? { parentId: ids.parentId } : {}),
    flags: ids.sampled ? '01' : '00',
  };
}

/**
 * The first middleware of the app (before the embedded IdP and the static files, so they are logged
 * and traced too): gives each request its id (the correlation id of error pages) and trace context,
 * answers with x-request-id and traceparent, and writes one access line when the response is done,
 * with its status, redirect target and duration. Health, readiness and metrics polls get no line.
 * (It replaces pino-http and nestjs-pino, which made a child logger for every request up front:
 * a third of the CPU time of a redirect, `npm run bench`.)
 *
 * With tracing on (issue 17 item 2) the request's span comes from the tracer, continues the incoming
 * traceparent, and is current while the request runs; its ids are the ones the log lines carry.
 * Whether it is on is decided once, here: with tracing off the per-request work is what it always
 * was (beginTrace), with no tracer call at all.
 */
export function requestLogging(root: Pino, tracer: Tracer = activeTracer()) {
  const traced = tracer.enabled ? tracer : undefined;
  return (req: LoggedRequest, res: ServerResponse, next: () => void): void => {
    const startedAt = performance.now();
    const quiet = QUIET_PATHS.has(pathOf(req.url));
    req.id = requestIdFor(req, res);
    const span = traced?.beginRequest(req, res, { quiet, requestId: req.id });
    if (span?.ids) attachTrace(req, res, traceContextOf(span.ids));
    else beginTrace(req, res);
    const scope: RequestScope = { req };
    if (!quiet) {
      const done = (): void => {
        res.off('finish', done);
        res.off('close', done);
        const responseTime = Math.round(performance.now() - startedAt);
        const logger = scope.logger ?? root;
        const fields = scope.logger ? { res, responseTime } : { req, res, responseTime };
        // A client that went away before the answer was complete is worth telling apart.
        if (res.writableFinished) logger.info(fields, 'request completed');
        else logger.info(fields, 'request aborted');
      };
      res.on('finish', done);
      res.on('close', done);
    }
    scopes.run(scope, span ? () => span.run(next) : next);
  };
}
