import { Agent, IncomingMessage, Server, ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HttpDrain } from './http-drain';

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

  it('closes idle keep-alive connections at once and answers new requests with Connection: close', async () => {
    const s = await server();
    const agent = new Agent({ keepAlive: true });
    try {
      const first = await get(s.port, '/fast', agent);
      expect(first.connection).toBe('keep-alive');
      s.drain.begin();
      await closed(first.socket);
      const next = await get(s.port, '/fast', agent);
      expect(next.connection).toBe('close');
    } finally {
      agent.destroy();
      s.server.close();
    }
  });
});
