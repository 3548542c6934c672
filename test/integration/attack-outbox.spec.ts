import * as http from 'node:http';
import { useTestApp } from '../support/test-app';

/**
 * Issue 15 item 5, as an attacker would try it: the outbox holds every live sign-in code, and it is
 * reachable over loopback. A reverse proxy on the developer's machine (which connects from 127.0.0.1
 * for anyone) and a DNS-rebinding page in their browser (which reaches 127.0.0.1 under its own host
 * name) must both be refused; the developer's own request still works.
 */
const t = useTestApp();

/** A raw request to the app's loopback socket with exactly these headers (fetch cannot set Host). */
function get(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const { port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: Number(port), path, method: 'GET', headers, setHost: false },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the outbox is refused to everyone but the developer on this machine', () => {
  const local = () => `localhost:${new URL(t.url).port}`;

  it.each(['/idp/outbox', '/idp/outbox/messages.json'])(
    '%s answers the developer (Host localhost, no proxy)',
    async (path) => {
      expect((await get(path, { host: local() })).status).toBe(200);
      expect((await get(path, { host: `127.0.0.1:${new URL(t.url).port}` })).status).toBe(200);
    },
  );

  it.each([
    ['DNS rebinding (the attacker’s host name on loopback)', { host: 'rebind.attacker.example' }],
    ['a look-alike host name', { host: 'localhost.attacker.example' }],
    // Node refuses an HTTP/1.1 request without Host (400) before any route; either way, nothing.
    ['no Host header', {}],
  ])('%s: refused, no messages', async (_name, headers: Record<string, string>) => {
    const res = await get('/idp/outbox/messages.json', headers);
    expect([400, 403]).toContain(res.status);
    expect(res.body).not.toContain('"messages"');
  });

  it.each([
    ['X-Forwarded-For', 'x-forwarded-for', '203.0.113.9'],
    ['Forwarded', 'forwarded', 'for=203.0.113.9;proto=https'],
    ['X-Real-IP', 'x-real-ip', '203.0.113.9'],
  ])('a reverse proxy on this host (%s): 403, no messages', async (_name, header, value) => {
    const res = await get('/idp/outbox/messages.json', { host: local(), [header]: value });
    expect(res.status).toBe(403);
    expect(res.body).not.toContain('"messages"');
  });
});
