import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A brand's back-channel logout endpoint, played by a small local server (OIDC Back-Channel Logout
 * 1.0 §2.5): it keeps each `logout_token` POSTed as a form and answers with `statuses` in turn (the
 * last one from then on), so a test can make a brand fail and see it retried.
 */
export class LogoutEndpoint {
  readonly tokens: string[] = [];
  private readonly server: http.Server;

  constructor(private readonly statuses: number[] = [200]) {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const token = new URLSearchParams(body).get('logout_token');
        if (token && req.headers['content-type'] === 'application/x-www-form-urlencoded')
          this.tokens.push(token);
        res.statusCode =
          this.statuses.length > 1 ? (this.statuses.shift() ?? 200) : (this.statuses[0] ?? 200);
        res.end();
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/backchannel-logout`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
