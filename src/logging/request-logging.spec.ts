import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { AppLogger } from './app-logger';
import { serializeRequest, serializeResponse } from './log-format';
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

  it('writes no line for health, readiness and metrics polls', async () => {
    const before = lines.length;
    for (const path of ['/healthz', '/readyz', '/metrics']) await fetch(`${base}${path}`);
    await settle();
    expect(lines.length).toBe(before);
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
