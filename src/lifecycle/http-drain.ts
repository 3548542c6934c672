import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long a connection accepted but still without a request when the listener closes may take to
 * send it: a client opens a connection to send a request, which then gets its answer (with
 * `Connection: close`) instead of a reset.
 */
export const LAST_REQUEST_GRACE_MS = 1_000;

interface Connection {
  /** Requests received on it so far. */
  requests: number;
  /** Of those, the ones whose response has not finished (or been aborted) yet. */
  active: number;
}

/**
 * Empties the HTTP server's keep-alive connections during shutdown without resetting any of them
 * (docs/operating.md "Keep-alive and load balancers"). A keep-alive connection closed by the server
 * while idle races the client's next request on it: the request meets a closed socket and the
 * client sees a reset. RFC 9112 §9.3.1 lets a client retry an idempotent request on a new
 * connection then, but Node's agent does not, and a load balancer may answer 502 instead. So, once
 * draining:
 * - every response, in flight or new, carries `Connection: close` (RFC 9112 §9.6), and the server
 *   ends its connection right after it, when the client expects that and sends nothing more;
 * - an idle keep-alive connection is left open while the listener is (the load balancer may still
 *   send on it during the drain): its next request gets that answer;
 * - when the listener closes (Nest's close calls `server.close()`, which closes idle connections
 *   through `closeIdleConnections`), a connection still idle that served requests before the signal
 *   is closed (it was not used for the whole drain), and one accepted without a request yet gets
 *   LAST_REQUEST_GRACE_MS to send it.
 */
export class HttpDrain {
  private draining = false;
  private listenerClosed = false;
  private readonly inFlight = new Set<ServerResponse>();
  private readonly connections = new Map<Socket, Connection>();

  constructor(server: Server) {
    server.prependListener('connection', (socket: Socket) => this.opened(socket));
    // Before Express's own listener, so that it sees every request first.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) =>
      this.track(req, res),
    );
    // Node's server.close() (Node 19 and later) destroys every idle connection at once through this
    // method, a freshly accepted one included; while draining, ours decides instead.
    const closeIdle = server.closeIdleConnections.bind(server);
    server.closeIdleConnections = () => (this.draining ? this.listenerClosing() : closeIdle());
  }

  /** Requests whose responses have not finished (or been aborted) yet. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** Open connections (for tests). */
  get connectionCount(): number {
    return this.connections.size;
  }

  begin(): void {
    if (this.draining) return;
    this.draining = true;
    for (const res of this.inFlight) this.closeAfter(res);
  }

  private opened(socket: Socket): void {
    this.connections.set(socket, { requests: 0, active: 0 });
    socket.once('close', () => this.connections.delete(socket));
  }

  private track(req: IncomingMessage, res: ServerResponse): void {
    const connection = this.connections.get(req.socket);
    if (connection) {
      connection.requests += 1;
      connection.active += 1;
    }
    this.inFlight.add(res);
    res.once('close', () => {
      this.inFlight.delete(res);
      if (connection) connection.active -= 1;
      // Its headers went out with keep-alive before the drain began, and the listener is closed by
      // now: nothing more may come on it, so it closes once idle rather than at its keep-alive
      // timeout, which may be longer than the shutdown's limit.
      if (this.listenerClosed) setImmediate(() => this.closeIfIdle(req.socket));
    });
    if (this.draining) this.closeAfter(res);
  }

  private closeAfter(res: ServerResponse): void {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  }

  /** Node's server.close() while draining: see the class comment. */
  private listenerClosing(): void {
    this.listenerClosed = true;
    for (const [socket, connection] of this.connections) {
      if (connection.requests === 0) {
        setTimeout(() => this.closeIfIdle(socket), LAST_REQUEST_GRACE_MS).unref();
      } else {
        this.closeIfIdle(socket);
      }
    }
  }

  /**
   * Closes a connection with no request under way whose end the server has not begun. One whose
   * last response said `Connection: close` is already being ended by Node, and one with a request
   * under way is closed after its response.
   */
  private closeIfIdle(socket: Socket): void {
    const connection = this.connections.get(socket);
    if (!connection || connection.active > 0 || socket.writableEnded) return;
    socket.destroy();
  }
}
