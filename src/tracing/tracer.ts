import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The tracing port (issue 17 item 2). The seams that make spans (the request middleware, the IdP
 * adapter, the session store, back-channel deliveries) speak to this interface only; the one
 * implementation backed by OpenTelemetry lives in otel-tracer.ts and is loaded only when an OTLP
 * endpoint is configured. When tracing is off, NO_TRACER answers and no OpenTelemetry module is ever
 * required: nothing here imports one, not even as a type.
 */

/** Attribute values as OpenTelemetry takes them; undefined ones are left out. */
export type SpanAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** OpenTelemetry's span kinds used here, by name (the API's enum would load the API). */
export type SpanKindName = 'internal' | 'client' | 'server';

export interface SpanOptions {
  /** `internal` when absent. */
  readonly kind?: SpanKindName;
  readonly attributes?: SpanAttributes;
}

/** A span being recorded, as the seams see it. */
export interface ActiveSpan {
  setAttributes(attributes: SpanAttributes): void;
  /**
   * The work failed: the span's status becomes ERROR, with the error recorded as an exception event
   * (an Error) or the reason as the status message (a string).
   */
  fail(reason: unknown): void;
  end(): void;
}

/** A request's span as its log lines and its response's traceparent name it. */
export interface RequestSpanIds {
  readonly traceId: string;
  readonly spanId: string;
  /** The caller's span, when a valid trace context came in. */
  readonly parentId?: string;
  /** The sampler's decision (the sampled trace flag, W3C Trace Context §3.2.2.5). */
  readonly sampled: boolean;
}

export interface RequestTrace {
  /** Absent for a quiet path (health, readiness, metrics polls), which gets no span. */
  readonly ids?: RequestSpanIds;
  /** Runs the rest of the request with its span as the current one (children attach to it). */
  run(next: () => void): void;
}

/** Where the tracer reports its own problems (an unreachable collector, a rejected export). */
export interface TracerDiagnostics {
  warn(message: string): void;
  error(message: string): void;
}

export interface Tracer {
  /** False for NO_TRACER: seams on hot paths decide once, when they are built, to skip tracing. */
  readonly enabled: boolean;
  /**
   * The server span of one request: continues the incoming trace context, ends when the response
   * finishes or its connection closes. A quiet request gets no span, and nothing it does is traced.
   */
  beginRequest(
    req: IncomingMessage,
    res: ServerResponse,
    options: { readonly quiet: boolean; readonly requestId: string },
  ): RequestTrace;
  /**
   * Runs `work` in a new span, a child of the current one and current while it runs; ends it when
   * the work settles, and marks it failed when the work rejects.
   */
  inSpan<T>(name: string, options: SpanOptions, work: (span: ActiveSpan) => Promise<T>): Promise<T>;
  /**
   * A child of the current span for work already under way since `startTime` (performance.now());
   * the caller ends it. It does not become current.
   */
  startSpan(name: string, options: SpanOptions & { readonly startTime?: number }): ActiveSpan;
  /** Adds the current trace context (traceparent, tracestate) to an outgoing request's headers. */
  injectContext(headers: Record<string, string>): void;
  /**
   * The current span as a W3C traceparent, to keep with state that outlives the request (a pending
   * sign-in), so that a later request can continue the same trace with `resume`.
   */
  saveContext(): string | undefined;
  /**
   * Runs `work` in a span that continues a saved context (a child of the span that saved it) and
   * links it with the current request's span both ways; without a valid saved context, a plain
   * child span.
   */
  resume<T>(
    saved: string | undefined,
    name: string,
    work: (span: ActiveSpan) => Promise<T>,
  ): Promise<T>;
  /** Sends the tracer's own warnings and errors there from now on. */
  reportTo(diagnostics: TracerDiagnostics): void;
  /** Exports what is still buffered and stops. */
  shutdown(): Promise<void>;
}

const NO_SPAN: ActiveSpan = {
  setAttributes: () => undefined,
  fail: () => undefined,
  end: () => undefined,
};

/** Tracing off: every call runs the work as it is, and nothing is recorded. */
export const NO_TRACER: Tracer = {
  enabled: false,
  beginRequest: () => ({ run: (next) => next() }),
  inSpan: (_name, _options, work) => work(NO_SPAN),
  startSpan: () => NO_SPAN,
  injectContext: () => undefined,
  saveContext: () => undefined,
  resume: (_saved, _name, work) => work(NO_SPAN),
  reportTo: () => undefined,
  shutdown: () => Promise.resolve(),
};

/**
 * The process's tracer. One per process, like OpenTelemetry's own global tracer provider, whose
 * context manager and propagator are process-wide anyway; main.ts installs it before the app is
 * built, so every seam finds it when it is constructed.
 */
let current: Tracer = NO_TRACER;

export function activeTracer(): Tracer {
  return current;
}

export function installTracer(tracer: Tracer): void {
  current = tracer;
}
