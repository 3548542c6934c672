import * as http from 'node:http';
import { useTestApp } from '../support/test-app';

/**
 * Issue 32 item 6, the attacker's view: a request to the embedded IdP with a Host header (or, behind
 * a proxy, X-Forwarded-Host) of their own. Before, the discovery document then named
 * `http://evil.com/…` for every endpoint, and a shared cache could hand that to everyone.
 */
function get(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each([
  ['directly', {}],
  ['behind a proxy (TRUST_PROXY=1)', { TRUST_PROXY: '1' }],
])('the embedded IdP %s', (_where, env) => {
  const t = useTestApp(env);

  it.each([
    ['Host: evil.com', { host: 'evil.com' }],
    [
      'X-Forwarded-Host: evil.com',
      { 'x-forwarded-host': 'evil.com', 'x-forwarded-proto': 'https' },
    ],
    ['both', { host: 'evil.com:8443', 'x-forwarded-host': 'evil.com' }],
  ])(
    'publishes only its configured issuer’s endpoints, whatever %s says',
    async (_name, headers) => {
      const url = `http://127.0.0.1:${new URL(t.url).port}/oauth2/default/.well-known/openid-configuration`;
      const res = await get(url, headers);
      expect(res.status).toBe(200);
      const doc = JSON.parse(res.body) as Record<string, unknown>;
      expect(doc.issuer).toBe(t.config.idp.issuer);
      const endpoints = Object.entries(doc).filter(
        ([key, value]) => typeof value === 'string' && /(_endpoint|_uri)$/.test(key),
      );
      expect(endpoints.length).toBeGreaterThan(4);
      for (const [key, value] of endpoints)
        expect([key, String(value).startsWith(`${t.config.idp.issuer}/`)]).toEqual([key, true]);
      expect(res.body).not.toContain('evil.com');
    },
  );
});
