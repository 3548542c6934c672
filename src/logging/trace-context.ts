import { pooledRandomBytes } from '../common/random-bytes';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** W3C Trace Context §3.2: the header that carries a trace into and out of a request. */
export const TRACEPARENT_HEADER = 'traceparent';

/** The fields of a traceparent header (W3C Trace Context §3.2.2), lower-case hex strings. */
export interface TraceParent {
  readonly version: string;
  readonly traceId: string;
  readonly parentId: string;
  readonly flags: string;
}

/** This request's place in a trace: the trace it belongs to and the span it is. */
export interface TraceContext {
  readonly traceId: string;
  /** Our span: a fresh id for every request, which the response's traceparent names. */
  readonly spanId: string;
  /** The caller's span, when a valid traceparent came in. */
  readonly parentId?: string;
  /** Trace flags we pass on: only the sampled bit (§3.2.2.5), so '00' or '01'. */
  readonly flags: '00' | '01';
}

/** version-traceid-parentid-flags, 2+1+32+1+16+1+2 characters (§3.2.2). */
const TRACEPARENT_LENGTH = 55;
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})/;
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);

/**
 * Parses a traceparent header by W3C Trace Context §3.2 and §4.3; undefined when it is invalid, in
 * which case the caller starts a new trace (§4.3 "If the vendor failed to parse traceparent, it MUST
 * NOT attempt to parse tracestate"). Only lower-case hex is valid; the version ff, an all-zero trace
 * id and an all-zero parent id are invalid. Version 00 is exactly 55 characters; a higher version is
 * read by its first four fields when what follows them starts with '-' (§4.3, forward compatibility).
 */
export function parseTraceparent(header: unknown): TraceParent | undefined {
  if (typeof header !== 'string' || header.length < TRACEPARENT_LENGTH) return undefined;
  const m = TRACEPARENT.exec(header);
  if (!m) return undefined;
  const [, version = '', traceId = '', parentId = '', flags = ''] = m;
  if (version === 'ff') return undefined;
  if (version === '00' && header.length !== TRACEPARENT_LENGTH) return undefined;
  if (header.length > TRACEPARENT_LENGTH && header[TRACEPARENT_LENGTH] !== '-') return undefined;
  if (traceId === ZERO_TRACE_ID || parentId === ZERO_SPAN_ID) return undefined;
  return { version, traceId, parentId, flags };
}

/** The traceparent we send (always version 00, the version this code implements). */
export function formatTraceparent(trace: TraceContext): string {
  return `00-${trace.traceId}-${trace.spanId}-${trace.flags}`;
}

/** Continues the caller's trace with a new span, or starts a trace when there is none. */
export function traceContextFor(incoming: TraceParent | undefined): TraceContext {
  if (!incoming) return { traceId: randomId(16, ZERO_TRACE_ID), spanId: newSpanId(), flags: '00' };
  return {
    traceId: incoming.traceId,
    spanId: newSpanId(),
    parentId: incoming.parentId,
    // A version-00 implementation knows only the sampled bit; it keeps the caller's decision.
    flags: (parseInt(incoming.flags, 16) & 1) === 1 ? '01' : '00',
  };
}

const TRACE = Symbol('traceContext');
type Traced = IncomingMessage & { [TRACE]?: TraceContext };

/**
 * Called once per request (with the request id): reads the incoming traceparent, keeps the request's
 * trace context for its log lines, and answers with a traceparent naming our span.
 */
export function beginTrace(req: IncomingMessage, res: ServerResponse): TraceContext {
  return attachTrace(req, res, traceContextFor(parseTraceparent(req.headers[TRACEPARENT_HEADER])));
}

/**
 * Keeps a request's trace context for its log lines and answers with a traceparent naming its span:
 * beginTrace's own, or the span OpenTelemetry made for the request when tracing is on, so that log
 * lines and exported spans carry the same ids (issue 17 item 2).
 */
export function attachTrace(
  req: IncomingMessage,
  res: ServerResponse,
  trace: TraceContext,
): TraceContext {
  (req as Traced)[TRACE] = trace;
  res.setHeader(TRACEPARENT_HEADER, formatTraceparent(trace));
  return trace;
}

/** The trace context beginTrace gave this request, if any. */
export function traceOf(req: IncomingMessage | undefined): TraceContext | undefined {
  return req ? (req as Traced)[TRACE] : undefined;
}

function newSpanId(): string {
  return randomId(8, ZERO_SPAN_ID);
}

/** A random id (§3.2.2.3, §3.2.2.4: never all zero), from the process's pool of CSPRNG bytes. */
function randomId(bytes: number, zero: string): string {
  for (;;) {
    const id = pooledRandomBytes(bytes).toString('hex');
    if (id !== zero) return id;
  }
}
