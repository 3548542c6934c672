import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OtelTracer } from './otel-tracer';
import { tracedFetch } from './traced-fetch';

type SpanProcessor = NonNullable<NodeSDKConfiguration['spanProcessors']>[number];
type FinishedSpan = Parameters<SpanProcessor['onEnd']>[0];

/** Every span the SDK ends, kept in memory (the service's exporter is replaced, not mocked). */
class Finished implements SpanProcessor {
  readonly spans: FinishedSpan[] = [];
  onStart(): void {}
  onEnd(span: FinishedSpan): void {
    this.spans.push(span);
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
  named(name: string): FinishedSpan {
    const span = this.spans.find((s) => s.name === name);
    if (!span) throw new Error(`no span ${name} in ${this.spans.map((s) => s.name).join(', ')}`);
    return span;
  }
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

/**
 * The OpenTelemetry side of the tracing port, on the real SDK (one per process, like the service's)
 * with an in-memory span processor, driven through real HTTP where the port takes requests.
 */
describe(OtelTracer.name, () => {
  const finished = new Finished();
  let tracer: OtelTracer;
  let server: http.Server;
  let base: string;
  /** What the server's handler does inside the request's span. */
  let handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;
  /** Headers the last request to /echo carried. */
  let echoed: http.IncomingHttpHeaders = {};

  beforeAll(async () => {
    tracer = OtelTracer.start({ environment: 'local', spanProcessors: [finished] });
    server = http.createServer((req, res) => {
      if (req.url?.startsWith('/echo')) {
        echoed = req.headers;
        res.statusCode = 503;
        return res.end();
      }
      const quiet = req.url === '/healthz';
      const request = tracer.beginRequest(req, res, { quiet, requestId: 'req-1' });
      if (request.ids) res.setHeader('x-ids', JSON.stringify(request.ids));
      request.run(() => void handle(req, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await tracer.shutdown();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    finished.spans.length = 0;
    handle = (_req, res) => Promise.resolve(void res.end());
  });

  /** Spans end on the response's finish event, just after the client has its answer. */
  const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

  it('continues an incoming traceparent with a server span, ended with the status', async () => {
    handle = async (_req, res) => {
      await tracer.inSpan('work', { attributes: { step: 1 } }, () => Promise.resolve());
      res.statusCode = 502;
      res.end();
    };
    const res = await fetch(`${base}/signin?t=secret`, {
      headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
    });
    await settled();
    const ids = JSON.parse(res.headers.get('x-ids') ?? '{}') as Record<string, unknown>;
    expect(ids).toEqual({
      traceId: TRACE_ID,
      spanId: expect.stringMatching(/^[0-9a-f]{16}$/),
      parentId: PARENT_ID,
      sampled: true,
    });
    const server = finished.named('GET');
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.spanContext()).toMatchObject({ traceId: TRACE_ID, spanId: ids.spanId });
    expect(server.parentSpanContext?.spanId).toBe(PARENT_ID);
    // The query (a token here) is never recorded.
    expect(server.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.path': '/signin',
      'http.response.status_code': 502,
      'signon.request_id': 'req-1',
    });
    expect(JSON.stringify(server.attributes)).not.toContain('secret');
    expect(server.status.code).toBe(SpanStatusCode.ERROR);
    const work = finished.named('work');
    expect(work.parentSpanContext?.spanId).toBe(ids.spanId);
    expect(work.attributes).toEqual({ step: 1 });
  });

  it('starts a trace when none (or an invalid one) comes in', async () => {
    const res = await fetch(`${base}/x`, { headers: { traceparent: `00-${'0'.repeat(32)}-x-01` } });
    await settled();
    const ids = JSON.parse(res.headers.get('x-ids') ?? '{}') as Record<string, unknown>;
    expect(ids.traceId).not.toBe('0'.repeat(32));
    expect(ids).not.toHaveProperty('parentId');
    expect(finished.named('GET').parentSpanContext).toBeUndefined();
  });

  it('gives a quiet path no span, and traces nothing it does', async () => {
    handle = async (_req, res) => {
      await tracer.inSpan('ping', {}, () => Promise.resolve());
      tracer.startSpan('store', {}).end();
      res.end();
    };
    const res = await fetch(`${base}/healthz`);
    await settled();
    expect(res.headers.get('x-ids')).toBeNull();
    expect(finished.spans).toEqual([]);
  });

  it('marks a span failed when its work rejects, and passes the error on', async () => {
    const error = new Error('IdP down');
    await expect(tracer.inSpan('idp', {}, () => Promise.reject(error))).rejects.toBe(error);
    const span = finished.named('idp');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'IdP down' });
    expect(span.events.map((e) => e.name)).toEqual(['exception']);
  });

  it('starts a span at the time its work began', async () => {
    const start = performance.now() - 50;
    await tracer.inSpan('parent', {}, () => {
      tracer.startSpan('get session', { kind: 'client', startTime: start }).end();
      return Promise.resolve();
    });
    const [seconds, nanos] = finished.named('get session').duration;
    expect(seconds * 1000 + nanos / 1e6).toBeGreaterThanOrEqual(50);
    expect(finished.named('get session').parentSpanContext?.spanId).toBe(
      finished.named('parent').spanContext().spanId,
    );
  });

  it('calls out with a client span whose trace context the receiver gets', async () => {
    const fetch = tracedFetch(tracer);
    const answer = await tracer.inSpan('idp.exchange_code', {}, () =>
      fetch(`${base}/echo?code=secret`, { method: 'post', headers: { accept: 'x/y' } }),
    );
    expect(answer.status).toBe(503);
    const client = finished.named('POST');
    expect(client.kind).toBe(SpanKind.CLIENT);
    expect(echoed.traceparent).toBe(
      `00-${client.spanContext().traceId}-${client.spanContext().spanId}-01`,
    );
    expect(echoed.accept).toBe('x/y');
    expect(client.attributes).toMatchObject({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'url.full': `${base}/echo`,
      'http.response.status_code': 503,
      'error.type': '503',
    });
    expect(client.status.code).toBe(SpanStatusCode.ERROR);
    expect(client.parentSpanContext?.spanId).toBe(
      finished.named('idp.exchange_code').spanContext().spanId,
    );
  });

  it('resumes a saved trace in a later request: a child of the saver, linked both ways', async () => {
    let saved: string | undefined;
    handle = (_req, res) => {
      saved = tracer.saveContext();
      res.end();
      return Promise.resolve();
    };
    const first = JSON.parse(
      (await fetch(`${base}/signin`)).headers.get('x-ids') ?? '{}',
    ) as Record<string, string>;
    expect(saved).toBe(`00-${first.traceId}-${first.spanId}-01`);

    handle = async (_req, res) => {
      await tracer.resume(saved, 'signin.landing', () =>
        tracer.inSpan('idp.exchange_code', {}, () => Promise.resolve()),
      );
      res.end();
    };
    const second = JSON.parse(
      (await fetch(`${base}/handleloginredirect`)).headers.get('x-ids') ?? '{}',
    ) as Record<string, string>;
    await settled();
    const landing = finished.named('signin.landing');
    expect(landing.spanContext().traceId).toBe(first.traceId);
    expect(landing.parentSpanContext?.spanId).toBe(first.spanId);
    expect(landing.links.map((l) => l.context.spanId)).toEqual([second.spanId]);
    expect(finished.named('idp.exchange_code').parentSpanContext?.spanId).toBe(
      landing.spanContext().spanId,
    );
    const request = finished.spans.find((s) => s.spanContext().spanId === second.spanId);
    expect(request?.links.map((l) => l.context.spanId)).toEqual([first.spanId]);
  });

  it.each([
    ['nothing saved', undefined],
    ['a malformed value', 'not-a-traceparent'],
  ])('resumes %s as a plain child span', async (_name, saved) => {
    await tracer.inSpan('request', {}, () =>
      tracer.resume(saved, 'signin.landing', () => Promise.resolve()),
    );
    expect(finished.named('signin.landing').parentSpanContext?.spanId).toBe(
      finished.named('request').spanContext().spanId,
    );
  });
});
