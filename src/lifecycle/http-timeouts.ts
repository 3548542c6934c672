import type { Server } from 'node:http';
import type { AppConfig } from '../config/app-config';

export type HttpTimeouts = Pick<
  AppConfig['http'],
  'keepAliveTimeoutSeconds' | 'headersTimeoutSeconds'
>;

/**
 * The public server's keep-alive and header timeouts (docs/operating.md "Keep-alive and load
 * balancers"). Node's 5 s keep-alive default is shorter than every common load balancer's idle
 * timeout, so the service would close pooled connections the balancer still sends on: each such
 * request meets a reset and the balancer answers 502.
 */
export function applyHttpTimeouts(server: Server, timeouts: HttpTimeouts): void {
  server.keepAliveTimeout = timeouts.keepAliveTimeoutSeconds * 1000;
  server.headersTimeout = timeouts.headersTimeoutSeconds * 1000;
  // Node refuses a headersTimeout above requestTimeout (300 s by default) when both are given to
  // createServer, and checks nothing when they are set later: keep the two in that order.
  if (server.requestTimeout > 0 && server.requestTimeout < server.headersTimeout)
    server.requestTimeout = server.headersTimeout;
}
