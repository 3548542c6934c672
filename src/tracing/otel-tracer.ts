import {
  DiagLogLevel,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  diag,
  isSpanContextValid,
  propagation,
  trace,
} from '@opentelemetry/api';
import type {
  Context,
  DiagLogger,
  Span,
  SpanOptions as ApiSpanOptions,
  Tracer as ApiTracer,
} from '@opentelemetry/api';
import { NodeSDK, core, resources } from '@opentelemetry/sdk-node';
import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { SERVICE_NAME, SERVICE_VERSION } from '../config/service-identity';
import { UNMATCHED_ROUTE, routeLabel } from '../metrics/route-label';
import { ATTRIBUTES } from './span-names';
import type {
  ActiveSpan,
  RequestTrace,
  SpanAttributes,
  SpanKindName,
  SpanOptions,
  Tracer,
  TracerDiagnostics,
} from './tracer';

/**
 * The only module that imports OpenTelemetry. start-tracing.ts loads it with a dynamic import when an
 * OTLP endpoint is configured, so a service without one never requires any of it (issue 17 item 2).
 */

/** The resource's service.name unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES names another. */
export const DEFAULT_SERVICE_NAME = SERVICE_NAME;
const INSTRUMENTATION_SCOPE = SERVICE_NAME;
/**
 * How long shutdown waits for the last export: an unreachable collector (the exporter's own timeout
 * is 10 s) must not hold the exit past SHUTDOWN_TIMEOUT_MS, which would end it with status 1.
 */
const SHUTDOWN_EXPORT_LIMIT_MS = 3000;

export interface OtelTracerOptions {
  /** APP_ENV, the default deployment.environment.name. */
  readonly environment: string;
  /**
   * Replaces the span processors the SDK builds from the OTEL_* variables (an in-memory one in
   * unit tests). Absent in the service: the SDK reads the exporter, protocol, endpoint, headers and
   * batching settings from the environment itself, as the specification names them.
   */
  readonly spanProcessors?: NodeSDKConfiguration['spanProcessors'];
}

const KINDS: Readonly<Record<SpanKindName, SpanKind>> = {
  internal: SpanKind.INTERNAL,
  client: SpanKind.CLIENT,
  server: SpanKind.SERVER,
};

/**
 * A saved context is always a W3C traceparent, whatever OTEL_PROPAGATORS says about the headers on
 * the wire: it is our own storage format, read back only by `resume`.
 */
const W3C = new core.W3CTraceContextPropagator();

/**
 * The SDK's own warnings and errors (an export the collector refused, an unreachable endpoint): to
 * stderr until the service's logger exists, then as its log lines (`reportTo`). Installed before
 * the SDK starts, so OTEL_LOG_LEVEL, which makes the SDK install its console logger, still wins.
 */
class DiagnosticsBridge implements DiagLogger {
  target: TracerDiagnostics = {
    warn: (message) => process.stderr.write(`opentelemetry warning: ${message}\n`),
    error: (message) => process.stderr.write(`opentelemetry error: ${message}\n`),
  };
  error = (message: string, ...args: unknown[]): void => this.target.error(describe(message, args));
  warn = (message: string, ...args: unknown[]): void => this.target.warn(describe(message, args));
  info = (): void => undefined;
  debug = (): void => undefined;
  verbose = (): void => undefined;
}

function describe(message: string, args: readonly unknown[]): string {
  return [
    message,
    ...args.map((a) =>
      typeof a === 'string' ? a : inspect(a, { depth: 3, breakLength: Infinity }),
    ),
  ].join(' ');
}

/** The path of a request URL: the query may carry tokens, codes or state (log-format.ts redacts them). */
function pathOf(url: string | undefined): string {
  const raw = url ?? '';
  const q = raw.indexOf('?');
  return q === -1 ? raw : raw.slice(0, q);
}

class OtelSpan implements ActiveSpan {
  constructor(readonly span: Span) {}

  setAttributes(attributes: SpanAttributes): void {
    // The SDK drops undefined values itself.
    this.span.setAttributes(attributes);
  }

  fail(reason: unknown): void {
    if (reason instanceof Error) {
      this.span.recordException(reason);
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: reason.message });
    } else {
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: String(reason) });
    }
  }

  end(): void {
    this.span.end();
  }
}

/**
 * The Tracer port on the OpenTelemetry SDK for Node (@opentelemetry/sdk-node). Spans are made at the
 * seams explicitly (no auto-instrumentation patches modules at require time): the request middleware,
 * the IdP adapter, the session store and back-channel deliveries.
 */
export class OtelTracer implements Tracer {
  readonly enabled = true;
  private readonly api: ApiTracer;

  private constructor(
    private readonly sdk: NodeSDK,
    private readonly diagnostics: DiagnosticsBridge,
  ) {
    this.api = trace.getTracer(INSTRUMENTATION_SCOPE);
  }

  /**
   * Starts the SDK: traces only (metrics are Prometheus on /metrics and logs are pino lines on
   * stdout, so no OTLP metric reader or log exporter is set up); the sampler (OTEL_TRACES_SAMPLER,
   * default parentbased_always_on), propagators (OTEL_PROPAGATORS, default tracecontext,baggage),
   * resource (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) and exporter (OTEL_EXPORTER_OTLP_*,
   * http/protobuf by default) come from the environment, read by the SDK.
   */
  static start(options: OtelTracerOptions): OtelTracer {
    const diagnostics = new DiagnosticsBridge();
    diag.setLogger(diagnostics, DiagLogLevel.WARN);
    const sdk = new NodeSDK({
      // Defaults that the environment's detectors (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) override.
      resource: resources.defaultResource().merge(
        resources.resourceFromAttributes({
          'service.name': DEFAULT_SERVICE_NAME,
          // OpenTelemetry resource semantic conventions: the build that made the span, so a trace
          // names its release as build_info and every log line do (docs/operating.md "OpenTelemetry
          // traces").
          'service.version': SERVICE_VERSION,
          'deployment.environment.name': options.environment,
        }),
      ),
      metricReaders: [],
      logRecordProcessors: [],
      instrumentations: [],
      ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
    });
    sdk.start();
    return new OtelTracer(sdk, diagnostics);
  }

  beginRequest(
    req: IncomingMessage,
    res: ServerResponse,
    options: { readonly quiet: boolean; readonly requestId: string },
  ): RequestTrace {
    if (options.quiet) {
      // Probes and scrapes every few seconds would bury the traces that matter; what they do (a
      // store ping) is not traced either, rather than showing up as root spans of its own.
      const suppressed = core.suppressTracing(context.active());
      return { run: (next) => context.with(suppressed, next) };
    }
    const parent = propagation.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
    const method = req.method ?? 'GET';
    const span = this.api.startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': method,
          'url.path': pathOf(req.url),
          'network.protocol.version': req.httpVersion,
          [ATTRIBUTES.requestId]: options.requestId,
        },
      },
      parent,
    );
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      res.off('finish', end);
      res.off('close', end);
      // Read at the end, after routing: the matched route pattern, never the raw path (semconv).
      const route = routeLabel(req);
      if (route !== UNMATCHED_ROUTE) {
        span.setAttribute('http.route', route);
        span.updateName(`${method} ${route}`);
      }
      span.setAttribute('http.response.status_code', res.statusCode);
      // HTTP semantic conventions: a server span is an error for 5xx only (4xx is the client's).
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    res.on('finish', end);
    res.on('close', end);
    const ids = span.spanContext();
    const incoming = trace.getSpanContext(parent);
    const active = trace.setSpan(parent, span);
    return {
      ids: {
        traceId: ids.traceId,
        spanId: ids.spanId,
        ...(incoming && isSpanContextValid(incoming) ? { parentId: incoming.spanId } : {}),
        sampled: (ids.traceFlags & TraceFlags.SAMPLED) !== 0,
      },
      run: (next) => context.with(active, next),
    };
  }

  inSpan<T>(
    name: string,
    options: SpanOptions,
    work: (span: ActiveSpan) => Promise<T>,
  ): Promise<T> {
    const span = this.api.startSpan(name, this.spanOptions(options));
    return this.within(trace.setSpan(context.active(), span), span, work);
  }

  startSpan(name: string, options: SpanOptions & { readonly startTime?: number }): ActiveSpan {
    // A number below the time origin is read by the SDK as a performance.now() value.
    return new OtelSpan(
      this.api.startSpan(name, {
        ...this.spanOptions(options),
        ...(options.startTime !== undefined ? { startTime: options.startTime } : {}),
      }),
    );
  }

  injectContext(headers: Record<string, string>): void {
    propagation.inject(context.active(), headers, defaultTextMapSetter);
  }

  saveContext(): string | undefined {
    const carrier: Record<string, string> = {};
    W3C.inject(context.active(), carrier, defaultTextMapSetter);
    return carrier[core.TRACE_PARENT_HEADER];
  }

  resume<T>(
    saved: string | undefined,
    name: string,
    work: (span: ActiveSpan) => Promise<T>,
  ): Promise<T> {
    const savedContext =
      saved === undefined
        ? undefined
        : W3C.extract(ROOT_CONTEXT, { [core.TRACE_PARENT_HEADER]: saved }, defaultTextMapGetter);
    const savedSpan = savedContext && trace.getSpanContext(savedContext);
    if (!savedContext || !savedSpan || !isSpanContextValid(savedSpan))
      return this.inSpan(name, {}, work);
    const current = trace.getActiveSpan();
    // Both ways: the request's own span (its log lines' trace) points to the journey it continues,
    // and the journey's span back to the request that carried it.
    current?.addLink({ context: savedSpan });
    const span = this.api.startSpan(
      name,
      { kind: SpanKind.INTERNAL, links: current ? [{ context: current.spanContext() }] : [] },
      savedContext,
    );
    return this.within(trace.setSpan(context.active(), span), span, work);
  }

  reportTo(diagnostics: TracerDiagnostics): void {
    this.diagnostics.target = diagnostics;
  }

  shutdown(): Promise<void> {
    const exported = this.sdk
      .shutdown()
      .catch((error: unknown) => this.diagnostics.error(describe('shutdown failed', [error])));
    const limit = new Promise<void>((resolve) =>
      setTimeout(resolve, SHUTDOWN_EXPORT_LIMIT_MS).unref(),
    );
    return Promise.race([exported, limit]);
  }

  private spanOptions(options: SpanOptions): ApiSpanOptions {
    return {
      kind: KINDS[options.kind ?? 'internal'],
      ...(options.attributes ? { attributes: options.attributes } : {}),
    };
  }

  /** Runs work with `active` as the current context; ends the span when it settles. */
  private within<T>(
    active: Context,
    span: Span,
    work: (span: ActiveSpan) => Promise<T>,
  ): Promise<T> {
    const handle = new OtelSpan(span);
    return context
      .with(active, async () => work(handle))
      .then(
        (value) => {
          span.end();
          return value;
        },
        (error: unknown) => {
          handle.fail(error);
          span.end();
          throw error;
        },
      );
  }
}
