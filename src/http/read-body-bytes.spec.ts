import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BodyBytes, readBodyBytes } from './read-body-bytes';

/** readBodyBytes on a bare node:http server: what each request's handler reads, as JSON. */
describe(readBodyBytes.name, () => {
  const LIMIT = 64;
  let server: http.Server;
  let port: number;
  const seen: BodyBytes[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      void readBodyBytes(req, LIMIT).then((body) => {
        seen.push(body);
        if (body.kind === 'too-large') res.setHeader('connection', 'close');
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify(
            body.kind === 'bytes' ? { kind: body.kind, text: body.bytes.toString() } : body,
          ),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = async (body: string | undefined, headers: Record<string, string> = {}) => {
    const res = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers,
      ...(body === undefined ? {} : { body }),
    });
    return res.json() as Promise<Record<string, unknown>>;
  };

  it('reads a body up to the limit, and an absent one as empty', async () => {
    expect(await post('code=abc')).toEqual({ kind: 'bytes', text: 'code=abc' });
    expect(await post('x'.repeat(LIMIT))).toEqual({ kind: 'bytes', text: 'x'.repeat(LIMIT) });
    expect(await post(undefined)).toEqual({ kind: 'bytes', text: '' });
  });

  it('refuses a body over the limit by its Content-Length, or as it arrives when chunked', async () => {
    expect(await post('x'.repeat(LIMIT + 1))).toEqual({ kind: 'too-large' });
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode('y'.repeat(20)));
        controller.close();
      },
    });
    const res = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      body: chunked,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    expect(await res.json()).toEqual({ kind: 'too-large' });
  });

  it('does not inflate: a Content-Encoding other than identity is refused', async () => {
    expect(await post('abc', { 'content-encoding': 'gzip' })).toEqual({ kind: 'encoded' });
    expect(await post('abc', { 'content-encoding': 'identity' })).toEqual({
      kind: 'bytes',
      text: 'abc',
    });
  });

  it('a client that goes away mid-body is unreadable, never a hang or a throw', async () => {
    const before = seen.length;
    await new Promise<void>((resolve) => {
      const req = http.request({ port, method: 'POST', headers: { 'content-length': '50' } });
      req.on('error', () => resolve());
      req.write('only part of it', () => setTimeout(() => req.destroy(), 50));
    });
    for (let i = 0; i < 50 && seen.length === before; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.at(-1)).toEqual({ kind: 'unreadable' });
  });
});
