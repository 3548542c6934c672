import { createServer } from 'node:http';
import { applyHttpTimeouts } from './http-timeouts';

describe(applyHttpTimeouts.name, () => {
  it.each([
    // keep-alive s, headers s, then the server's keepAliveTimeout, headersTimeout, requestTimeout
    [65, 66, 65_000, 66_000, 300_000],
    // A balancer with a 600 s idle timeout (GCP's external HTTP(S) load balancer): requestTimeout
    // grows with the header timeout, which Node wants no larger than it.
    [620, 621, 620_000, 621_000, 621_000],
  ])('keep-alive %i s, headers %i s', (keepAlive, headers, ...expected) => {
    const server = createServer();
    applyHttpTimeouts(server, {
      keepAliveTimeoutSeconds: keepAlive,
      headersTimeoutSeconds: headers,
    });
    expect([server.keepAliveTimeout, server.headersTimeout, server.requestTimeout]).toEqual(
      expected,
    );
  });
});
