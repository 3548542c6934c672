import helmet, { type HelmetOptions } from 'helmet';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { securityHeaders } from './security-headers';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;

/** The headers a bare node:http server answers with when `middleware` ran before the answer. */
async function headersWith(middleware: Handler): Promise<Record<string, string>> {
  const server = http.createServer((req, res) => middleware(req, res, () => res.end('ok')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const headers: Record<string, string> = {};
    for (const [name, value] of res.headers) {
      if (!['date', 'connection', 'keep-alive', 'content-length'].includes(name))
        headers[name] = value;
    }
    return headers;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Helmet's headers computed once at start are exactly the ones helmet sets per request. */
describe(securityHeaders.name, () => {
  it.each<[string, HelmetOptions]>([
    [
      'production (HSTS, no-referrer)',
      {
        hsts: { maxAge: 31_536_000, includeSubDomains: true },
        referrerPolicy: { policy: 'no-referrer' },
      },
    ],
    ['local and dev (no HSTS)', { hsts: false, referrerPolicy: { policy: 'no-referrer' } }],
    ['helmet defaults', {}],
  ])('%s: the same names and values as helmet itself', async (_name, options) => {
    const expected = await headersWith(helmet(options));
    const actual = await headersWith(securityHeaders(options));
    expect(Object.keys(expected).length).toBeGreaterThan(8);
    expect(actual).toEqual(expected);
  });

  it('the production headers include the ones docs/design.md relies on', async () => {
    const headers = await headersWith(
      securityHeaders({ hsts: { maxAge: 31_536_000 }, referrerPolicy: { policy: 'no-referrer' } }),
    );
    expect(headers).toMatchObject({
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
    });
    expect(headers['content-security-policy']).toContain("default-src 'self'");
  });
});
