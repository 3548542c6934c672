import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A load balancer for tests: sends each request to the next backend in turn (no stickiness), so a
 * journey's requests land on different instances. Counts requests by path for assertions.
 */
export class RoundRobinProxy {
  private next = 0;
  private readonly server: http.Server;
  readonly hits = new Map<string, number>();
  /** Every forwarded request's path and the backend that answered it, in order. */
  readonly forwarded: { path: string; backend: string }[] = [];
  backends: string[] = [];
  /**
   * Paths the balancer answers itself with a 503 gateway page, as a load balancer in front of a
   * failing upstream would (for IdP outages).
   */
  failing: (path: string) => boolean = () => false;
  /**
   * Rewrites a request's path and query on its way to the backend, as a gateway in front of an
   * upstream might (e.g. an IdP that drops authorization parameters it does not know).
   */
  rewrite: (url: string) => string = (url) => url;
  /** Milliseconds to hold a request of this path before forwarding it, as a slow upstream would. */
  delay: (path: string) => number = () => 0;

  constructor() {
    this.server = http.createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      if (this.failing(path)) {
        req.resume();
        res.writeHead(503, { 'content-type': 'text/html' });
        res.end('<h1>503 Service Unavailable</h1>');
        return;
      }
      const chosen = this.backends[this.next++ % this.backends.length] ?? '';
      this.forwarded.push({ path, backend: chosen });
      const held = this.delay(path);
      if (held > 0) setTimeout(() => this.forward(req, res, chosen), held);
      else this.forward(req, res, chosen);
    });
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse, chosen: string): void {
    const backend = new URL(chosen);
    const upstream = http.request(
      {
        host: backend.hostname,
        port: backend.port,
        method: req.method,
        path: this.rewrite(req.url ?? '/'),
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.statusCode = 502;
      res.end();
    });
    req.pipe(upstream);
  }

  /** Listens on `port` (any free one by default); a port in use fails at once, it does not hang. */
  async listen(port = 0): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    return (this.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
