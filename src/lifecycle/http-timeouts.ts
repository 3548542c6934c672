import type { Server } from 'node:http';

/** AppConfig.http's two timeouts (HTTP_KEEP_ALIVE_TIMEOUT_SECONDS, HTTP_HEADERS_TIMEOUT_SECONDS). */
export interface HttpTimeouts {
  readonly keepAliveTimeoutSeconds: number;
  readonly headersTimeoutSeconds: number;
}

/**
 * The public server's keep-alive and header timeouts (docs/operating.md "Keep-alive and load
 * balancers"). Node's 5 s keep-alive default is shorter than common load balancers' idle timeouts
 * (AWS ALB 60 s, GCP 600 s), so the service would close pooled connections the balancer still
 * sends on: a request sent on one just as it closes meets a reset, and the balancer answers 502.
 */
export function applyHttpTimeouts(server: Server, timeouts: HttpTimeouts): void {
  server.keepAliveTimeout = timeouts.keepAliveTimeoutSeconds * 1000;
  server.headersTimeout = timeouts.headersTimeoutSeconds * 1000;
  // Node refuses a headersTimeout above requestTimeout (300 s by default) when both are given to
  // createServer, and checks nothing when they are set later: keep the two in that order.
  if (server.requestTimeout > 0 && server.requestTimeout < server.headersTimeout)
    server.requestTimeout = server.headersTimeout;
}
