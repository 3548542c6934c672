import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { AppLogger } from './app-logger';
import { serializeRequest, serializeResponse } from './log-format';
import { NO_TRACER, Tracer } from '../tracing';
import { requestLogging } from './request-logging';

/** requestLogging on a bare node:http server: what each kind of request leaves in the log. */
describe(requestLogging.name, () => {
  const lines: Record<string, unknown>[] = [];
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
    });
    const root = pino({ serializers: { req: serializeRequest, res: serializeResponse } }, stream);
    const logger = new AppLogger(root);
    logger.setContext('Spec');
    const middleware = requestLogging(root);
    server = http.createServer((req, res) => {
      middleware(req, res, () => {
        if (req.url?.startsWith('/hang')) return; // never answers
        if (req.url?.startsWith('/logs')) logger.info({ step: 1 }, 'inside the request');
        res.statusCode = req.url?.startsWith('/go') ? 302 : 200;
        if (res.statusCode === 302)
          res.setHeader('location', 'https://brand.example/?t=tok-SECRET');
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const settle = () => new Promise((r) => setTimeout(r, 50));
  const linesOf = (id: string | null) =>
    lines.filter((l) => (l.req as { id?: string } | undefined)?.id === id);

  it('answers with a request id and a traceparent, and writes one access line', async () => {
    const res = await fetch(`${base}/page?si=secret-session&b=psa`);
    await settle();
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('traceparent')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    const [line, ...more] = linesOf(id);
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/page?si=[Redacted]&b=psa' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
  });

  it('redacts the redirect target, and ties lines logged inside the request to it', async () => {
    await fetch(`${base}/go`, { redirect: 'manual' });
    const logged = await fetch(`${base}/logs`);
    await settle();
    expect(JSON.stringify(lines)).not.toContain('tok-SECRET');
    const inside = linesOf(logged.headers.get('x-request-id'));
    expect(inside.map((l) => l.msg)).toEqual(['inside the request', 'request completed']);
    expect(inside[0]).toMatchObject({ context: 'Spec', step: 1, level: 30 });
  });

  it('writes no line for health and readiness polls', async () => {
    const before = lines.length;
    for (const path of ['/healthz', '/readyz']) await fetch(`${base}${path}`);
    await settle();
    expect(lines.length).toBe(before);
  });

  // The public app serves no /metrics (docs/operating.md "The management port"): a request for it
  // is logged like any other.
  it('writes a line for /metrics, which is no poll of this app', async () => {
    const before = lines.length;
    await fetch(`${base}/metrics`);
    await settle();
    expect(lines.slice(before).map((l) => (l.req as { url?: string }).url)).toEqual(['/metrics']);
  });

  it('tells a request the client gave up on from a completed one', async () => {
    const controller = new AbortController();
    const gaveUp = fetch(`${base}/hang`, { signal: controller.signal }).catch(() => undefined);
    await settle();
    controller.abort();
    await gaveUp;
    await settle();
    expect(lines.filter((l) => (l.req as { url?: string }).url === '/hang')).toEqual([
      expect.objectContaining({ msg: 'request aborted' }),
    ]);
  });

  it('keeps an upstream request id only when it is a plain token', async () => {
    const kept = await fetch(`${base}/page`, { headers: { 'x-request-id': 'lb-1234abcd' } });
    const replaced = await fetch(`${base}/page`, {
      headers: { 'x-request-id': 'bad id {"level":60}' },
    });
    expect(kept.headers.get('x-request-id')).toBe('lb-1234abcd');
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

/**
 * Issue 17 item 2: with tracing on, the request's span comes from the tracer and its ids are the
 * ones every line and the answer's traceparent carry; with tracing off the tracer is never asked.
 */
describe(`${requestLogging.name} with a tracer`, () => {
  const IDS = {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '00f067aa0ba902b7',
    parentId: 'aaaaaaaaaaaaaaaa',
    sampled: true,
  };

  /** A tracer that records what the middleware asks of it and marks the work it runs. */
  function fakeTracer(enabled: boolean) {
    const begun: { url?: string; quiet: boolean; requestId: string }[] = [];
    let inSpan = false;
    const tracer: Tracer = {
      ...NO_TRACER,
      enabled,
      beginRequest: (req, _res, options) => {
        begun.push({ url: req.url, ...options });
        return {
          ...(options.quiet ? {} : { ids: IDS }),
          run: (next) => {
            inSpan = true;
            try {
              next();
            } finally {
              inSpan = false;
            }
          },
        };
      },
    };
    return { tracer, begun, wasInSpan: () => inSpan };
  }

  async function serve(tracer: Tracer, onRequest: () => void) {
    const lines: Record<string, unknown>[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
    });
    const root = pino({ serializers: { req: serializeRequest, res: serializeResponse } }, stream);
    const middleware = requestLogging(root, tracer);
    const server = http.createServer((req, res) =>
      middleware(req, res, () => {
        onRequest();
        res.end('ok');
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      base,
      lines,
      close: async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it("logs the span's ids, answers with its traceparent, and runs the request inside it", async () => {
    const fake = fakeTracer(true);
    let ranInSpan = false;
    const app = await serve(fake.tracer, () => (ranInSpan = fake.wasInSpan()));
    try {
      const res = await fetch(`${app.base}/signin?t=x`);
      await new Promise((r) => setTimeout(r, 50));
      const id = res.headers.get('x-request-id');
      expect(fake.begun).toEqual([{ url: '/signin?t=x', quiet: false, requestId: id }]);
      expect(ranInSpan).toBe(true);
      expect(res.headers.get('traceparent')).toBe(`00-${IDS.traceId}-${IDS.spanId}-01`);
      expect(app.lines).toEqual([
        expect.objectContaining({
          msg: 'request completed',
          req: expect.objectContaining({
            id,
            trace_id: IDS.traceId,
            span_id: IDS.spanId,
            parent_id: IDS.parentId,
          }),
        }),
      ]);
    } finally {
      await app.close();
    }
  });

  it('keeps its own trace context for a quiet path, which the tracer leaves out', async () => {
    const fake = fakeTracer(true);
    const app = await serve(fake.tracer, () => undefined);
    try {
      const res = await fetch(`${app.base}/readyz`);
      expect(fake.begun).toEqual([expect.objectContaining({ quiet: true })]);
      expect(res.headers.get('traceparent')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
      expect(res.headers.get('traceparent')).not.toContain(IDS.traceId);
    } finally {
      await app.close();
    }
  });

  it('never asks a disabled tracer (tracing off: the path it always was)', async () => {
    const fake = fakeTracer(false);
    const app = await serve(fake.tracer, () => undefined);
    try {
      const res = await fetch(`${app.base}/signin`);
      expect(fake.begun).toEqual([]);
      expect(res.headers.get('traceparent')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    } finally {
      await app.close();
    }
  });
});
