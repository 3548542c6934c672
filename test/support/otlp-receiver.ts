import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/**
 * A local OTLP/HTTP trace receiver (OpenTelemetry Protocol 1.x, "OTLP/HTTP"): a node:http server that
 * accepts POST /v1/traces in the binary protobuf encoding (the exporter's default) or the JSON one,
 * answers 200 with an empty ExportTraceServiceResponse, and keeps every span it received.
 */

export type AttributeValue = string | number | boolean;

export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: 'unspecified' | 'internal' | 'server' | 'client' | 'producer' | 'consumer';
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  readonly links: readonly { readonly traceId: string; readonly spanId: string }[];
  /** 0 unset, 1 ok, 2 error (opentelemetry.proto.trace.v1.Status.StatusCode). */
  readonly statusCode: number;
  /** The resource's attributes (service.name, deployment.environment.name, ...). */
  readonly resource: Readonly<Record<string, AttributeValue>>;
}

export interface OtlpReceiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT (the exporter appends /v1/traces). */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  /** Content types of the requests received, e.g. application/x-protobuf. */
  readonly contentTypes: string[];
  close(): Promise<void>;
}

const KINDS: readonly ReceivedSpan['kind'][] = [
  'unspecified',
  'internal',
  'server',
  'client',
  'producer',
  'consumer',
];

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.statusCode = 404;
        return res.end();
      }
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const type = String(req.headers['content-type'] ?? '');
      contentTypes.push(type);
      try {
        spans.push(...(type.startsWith('application/json') ? fromJson(body) : fromProtobuf(body)));
      } catch (error) {
        res.statusCode = 400;
        return res.end(String(error));
      }
      res.statusCode = 200;
      res.setHeader(
        'content-type',
        type.startsWith('application/json') ? type : 'application/x-protobuf',
      );
      res.end(type.startsWith('application/json') ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    contentTypes,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// --- the protobuf wire format (protobuf.dev "Encoding"), just what trace requests use -----------

interface Field {
  readonly number: number;
  /** Varints as bigint; length-delimited and fixed-width fields as their bytes. */
  readonly value: bigint | Buffer;
}

function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buf[at++];
      if (byte === undefined) throw new Error('truncated varint');
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (at < buf.length) {
    const key = Number(varint());
    const number = key >>> 3;
    switch (key & 7) {
      case 0:
        out.push({ number, value: varint() });
        break;
      case 1:
        out.push({ number, value: buf.subarray(at, (at += 8)) });
        break;
      case 2: {
        const length = Number(varint());
        out.push({ number, value: buf.subarray(at, (at += length)) });
        break;
      }
      case 5:
        out.push({ number, value: buf.subarray(at, (at += 4)) });
        break;
      default:
        throw new Error(`unsupported wire type ${key & 7}`);
    }
  }
  return out;
}

const bytesOf = (f: Field | undefined): Buffer =>
  f && Buffer.isBuffer(f.value) ? f.value : Buffer.alloc(0);
const all = (list: Field[], number: number): Buffer[] =>
  list.filter((f) => f.number === number).map(bytesOf);
const one = (list: Field[], number: number): Field | undefined =>
  list.find((f) => f.number === number);

/** common.v1.AnyValue: string 1, bool 2, int 3, double 4 (arrays and maps are not used here). */
function anyValue(buf: Buffer): AttributeValue {
  const [f] = fields(buf);
  if (!f) return '';
  switch (f.number) {
    case 1:
      return bytesOf(f).toString('utf8');
    case 2:
      return f.value === 1n;
    case 3:
      return Number(BigInt.asIntN(64, f.value as bigint));
    case 4:
      return bytesOf(f).readDoubleLE(0);
    default:
      return `<field ${f.number}>`;
  }
}

/** repeated common.v1.KeyValue: key 1, value 2. */
function keyValues(list: Buffer[]): Record<string, AttributeValue> {
  return Object.fromEntries(
    list.map((kv) => {
      const f = fields(kv);
      return [bytesOf(one(f, 1)).toString('utf8'), anyValue(bytesOf(one(f, 2)))];
    }),
  );
}

/**
 * collector.trace.v1.ExportTraceServiceRequest: resource_spans 1 → (resource 1 → attributes 1;
 * scope_spans 2 → spans 2). Span: trace_id 1, span_id 2, parent_span_id 4, name 5, kind 6,
 * attributes 9, links 13 (trace_id 1, span_id 2), status 15 (code 3).
 */
function fromProtobuf(body: Buffer): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const resourceSpans of all(fields(body), 1)) {
    const rs = fields(resourceSpans);
    const resource = keyValues(all(fields(bytesOf(one(rs, 1))), 1));
    for (const scopeSpans of all(rs, 2)) {
      for (const spanBytes of all(fields(scopeSpans), 2)) {
        const s = fields(spanBytes);
        const parent = bytesOf(one(s, 4)).toString('hex');
        const kind = one(s, 6)?.value;
        out.push({
          traceId: bytesOf(one(s, 1)).toString('hex'),
          spanId: bytesOf(one(s, 2)).toString('hex'),
          ...(parent ? { parentSpanId: parent } : {}),
          name: bytesOf(one(s, 5)).toString('utf8'),
          kind: KINDS[Number(kind ?? 0n)] ?? 'unspecified',
          attributes: keyValues(all(s, 9)),
          links: all(s, 13).map((link) => {
            const l = fields(link);
            return {
              traceId: bytesOf(one(l, 1)).toString('hex'),
              spanId: bytesOf(one(l, 2)).toString('hex'),
            };
          }),
          statusCode: Number(one(fields(bytesOf(one(s, 15))), 3)?.value ?? 0n),
          resource,
        });
      }
    }
  }
  return out;
}

interface JsonKeyValue {
  key: string;
  value: {
    stringValue?: string;
    boolValue?: boolean;
    intValue?: string | number;
    doubleValue?: number;
  };
}

/** The OTLP/JSON encoding of the same request (ids as hex strings, enums as numbers). */
function fromJson(body: Buffer): ReceivedSpan[] {
  const request = JSON.parse(body.toString('utf8')) as {
    resourceSpans?: {
      resource?: { attributes?: JsonKeyValue[] };
      scopeSpans?: {
        spans?: {
          traceId: string;
          spanId: string;
          parentSpanId?: string;
          name: string;
          kind?: number;
          attributes?: JsonKeyValue[];
          links?: { traceId: string; spanId: string }[];
          status?: { code?: number };
        }[];
      }[];
    }[];
  };
  const values = (list: JsonKeyValue[] = []): Record<string, AttributeValue> =>
    Object.fromEntries(
      list.map(({ key, value }) => [
        key,
        value.stringValue ??
          value.boolValue ??
          (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? '')),
      ]),
    );
  return (request.resourceSpans ?? []).flatMap((rs) =>
    (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        traceId: s.traceId,
        spanId: s.spanId,
        ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
        name: s.name,
        kind: KINDS[s.kind ?? 0] ?? 'unspecified',
        attributes: values(s.attributes),
        links: (s.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
        statusCode: s.status?.code ?? 0,
        resource: values(rs.resource?.attributes),
      })),
    ),
  );
}
