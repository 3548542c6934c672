import { Agent, IncomingMessage, Server, ServerResponse, createServer, request } from 'node:http';
import { AddressInfo, Socket, connect } from 'node:net';
import { HttpDrain, LAST_REQUEST_GRACE_MS } from './http-drain';

/** A server whose /slow answers only when release() is called; /fast at once. */
async function server(): Promise<{
  server: Server;
  drain: HttpDrain;
  port: number;
  release: () => void;
}> {
  let release = (): void => undefined;
  const srv = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/slow') release = () => res.end('slow');
    else res.end('fast');
  });
  const drain = new HttpDrain(srv);
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return {
    server: srv,
    drain,
    port: (srv.address() as AddressInfo).port,
    release: () => release(),
  };
}

function get(
  port: number,
  path: string,
  agent: Agent,
): Promise<{ body: string; connection: string | undefined; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () =>
        resolve({ body, connection: res.headers.connection, socket: req.socket as Socket }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const closed = (socket: Socket) =>
  new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', resolve)));

describe(HttpDrain.name, () => {
  it('lets an in-flight request finish, then closes its keep-alive connection', async () => {
    const s = await server();
    const agent = new Agent({ keepAlive: true });
    try {
      const pending = get(s.port, '/slow', agent);
      while (s.drain.inFlightCount === 0) await new Promise((r) => setTimeout(r, 5));
      s.drain.begin();
      s.release();
      const res = await pending;
      expect(res.body).toBe('slow');
      expect(res.connection).toBe('close');
      await closed(res.socket);
      expect(s.drain.inFlightCount).toBe(0);
    } finally {
      agent.destroy();
      s.server.close();
    }
  });

  it('keeps an idle keep-alive connection open, then closes it after its next answer', async () => {
    const s = await server();
    const agent = new Agent({ keepAlive: true });
    try {
      const first = await get(s.port, '/fast', agent);
      expect(first.connection).toBe('keep-alive');
      s.drain.begin();
      await new Promise((r) => setTimeout(r, 50));
      expect(first.socket.destroyed).toBe(false);
      // The same connection, reused: answered, with Connection: close, then closed by the server.
      const next = await get(s.port, '/fast', agent);
      expect(next.socket).toBe(first.socket);
      expect(next.connection).toBe('close');
      await closed(next.socket);
    } finally {
      agent.destroy();
      s.server.close();
    }
  });

  it('at the close: closes a connection idle since before the drain', async () => {
    const s = await server();
    const agent = new Agent({ keepAlive: true });
    try {
      const first = await get(s.port, '/fast', agent);
      s.drain.begin();
      const stopped = new Promise((resolve) => s.server.close(resolve));
      await closed(first.socket);
      await stopped;
      expect(s.drain.connectionCount).toBe(0);
    } finally {
      agent.destroy();
    }
  });

  it('at the close: answers a connection accepted just before it, then closes it', async () => {
    const s = await server();
    const accepted = new Promise<void>((resolve) => s.server.once('connection', () => resolve()));
    const socket = connect(s.port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    await accepted;
    s.drain.begin();
    const stopped = new Promise((resolve) => s.server.close(resolve));
    // The request arrives after the listener closed, on the connection it had accepted.
    socket.write('GET /fast HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await closed(socket);
    await stopped;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(answer.endsWith('fast')).toBe(true);
  });

  it(`at the close: closes one that sends nothing for ${LAST_REQUEST_GRACE_MS} ms`, async () => {
    const s = await server();
    const accepted = new Promise<void>((resolve) => s.server.once('connection', () => resolve()));
    const socket = connect(s.port, '127.0.0.1');
    socket.on('data', () => undefined);
    await accepted;
    s.drain.begin();
    const stopped = new Promise((resolve) => s.server.close(resolve));
    await new Promise((r) => setTimeout(r, LAST_REQUEST_GRACE_MS / 2));
    expect(socket.destroyed).toBe(false);
    await closed(socket);
    await stopped;
  });
});
