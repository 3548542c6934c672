import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Empties the HTTP server's keep-alive connections during shutdown. `server.close()` only stops
 * accepting connections and closes those idle at that moment: a keep-alive connection whose request
 * is still running would be reused afterwards and hold the close open until its keep-alive timeout.
 * Once draining, every response (in flight or new) carries `Connection: close` (RFC 9112 §9.6), and a
 * connection that turns idle is closed at once.
 */
export class HttpDrain {
  private draining = false;
  private readonly inFlight = new Set<ServerResponse>();

  constructor(private readonly server: Server) {
    // Before Express's own listener, so that it sees every request first.
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) =>
      this.track(res),
    );
  }

  /** Requests whose responses have not finished (or been aborted) yet. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  begin(): void {
    if (this.draining) return;
    this.draining = true;
    for (const res of this.inFlight) this.closeAfter(res);
    this.server.closeIdleConnections();
  }

  private track(res: ServerResponse): void {
    this.inFlight.add(res);
    res.once('close', () => this.inFlight.delete(res));
    if (this.draining) this.closeAfter(res);
  }

  private closeAfter(res: ServerResponse): void {
    if (!res.headersSent) res.setHeader('Connection', 'close');
    // Headers already sent with keep-alive: close the connection as soon as it is idle.
    res.once('finish', () => setImmediate(() => this.server.closeIdleConnections()));
  }
}
