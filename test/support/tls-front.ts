import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { TEST_CA, TEST_TLS } from './okta-idp';

export interface TlsFront {
  /** https://localhost:PORT: the service's public URL. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * What sits in front of the service in qa and prod (issue 31 item 2): TLS is terminated here and the
 * request goes on over plain HTTP to the service, with X-Forwarded-For and X-Forwarded-Proto as an
 * ingress sets them (the service runs with TRUST_PROXY=1). `port` may be chosen beforehand so that
 * the service's PUBLIC_URL can name it.
 */
export async function startTlsFront(upstreamPort: number, port = 0): Promise<TlsFront> {
  const server = https.createServer(
    { key: fs.readFileSync(TEST_TLS.key), cert: fs.readFileSync(TEST_TLS.cert) },
    (req, res) => {
      const forwarded = http.request(
        {
          host: '127.0.0.1',
          port: upstreamPort,
          method: req.method,
          path: req.url,
          headers: {
            ...req.headers,
            'x-forwarded-for': req.socket.remoteAddress ?? '127.0.0.1',
            'x-forwarded-proto': 'https',
          },
        },
        (upstream) => {
          res.writeHead(upstream.statusCode ?? 502, upstream.rawHeaders);
          upstream.pipe(res);
        },
      );
      forwarded.on('error', () => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end('bad gateway');
      });
      req.pipe(forwarded);
    },
  );
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `https://localhost:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const testCa = fs.readFileSync(TEST_CA);

/**
 * fetch over TLS that trusts the test certificate authority, as a collector's browser or a brand's
 * server trusts a real one (Node's fetch reads its trusted authorities once, at start). Enough of
 * fetch for test/support/browser.ts and the brand calls: method, headers, a string body, manual
 * redirects.
 */
export const trustingFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : input.toString());
  if (url.protocol !== 'https:') return fetch(input, init);
  const headers = new Headers(init?.headers);
  const body = typeof init?.body === 'string' ? init.body : undefined;
  return new Promise<Response>((resolve, reject) => {
    const req = https.request(
      url,
      {
        method: init?.method ?? 'GET',
        headers: Object.fromEntries(headers.entries()),
        ca: testCa,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const answer = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            answer.append(res.rawHeaders[i] ?? '', res.rawHeaders[i + 1] ?? '');
          const status = res.statusCode ?? 500;
          const payload = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(payload, { status, headers: answer }));
        });
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
};
