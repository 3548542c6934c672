import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestBodies } from './request-bodies';

/** requestBodies on a bare node:http server: what each request's handler sees as its body. */
describe(requestBodies.name, () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    const middleware = requestBodies({ limit: '1kb', rawPrefixes: ['/raw'] });
    server = http.createServer((req, res) => {
      middleware(req, res, (error) => {
        const parsed = req as http.IncomingMessage & { body?: unknown };
        res.setHeader('content-type', 'application/json');
        if (error) {
          res.statusCode = (error as { status?: number }).status ?? 500;
          res.end(JSON.stringify({ error: (error as Error).message }));
          return;
        }
        res.end(JSON.stringify({ hasBodyProperty: 'body' in parsed, body: parsed.body ?? null }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (path: string, contentType: string, body: string) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });

  it('leaves a request without a body untouched (no req.body at all)', async () => {
    const res = await fetch(`${base}/page?x=1`);
    expect(await res.json()).toEqual({ hasBodyProperty: false, body: null });
  });

  it.each([
    ['application/json', '{"a":1,"b":["c"]}', { a: 1, b: ['c'] }],
    ['application/json; charset=utf-8', '{"a":"é"}', { a: 'é' }],
    ['Application/JSON', '{"a":true}', { a: true }],
    ['application/x-www-form-urlencoded', 'a=1&b=two+words', { a: '1', b: 'two words' }],
  ])('parses a %s body', async (contentType, body, expected) => {
    const res = await post('/form', contentType, body);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { body: unknown }).body).toEqual(expected);
  });

  it('leaves bodies of other media types, and of raw paths, unread', async () => {
    for (const res of [
      await post('/form', 'text/plain', 'a=1'),
      await post('/raw/api', 'application/json', '{"a":1}'),
    ])
      expect(await res.json()).toEqual({ hasBodyProperty: false, body: null });
  });

  it('refuses malformed JSON and bodies over the limit with 400 and 413', async () => {
    const bad = await post('/form', 'application/json', '{"a":');
    expect(bad.status).toBe(400);
    const big = await post('/form', 'application/x-www-form-urlencoded', `a=${'x'.repeat(2048)}`);
    expect(big.status).toBe(413);
  });
});
