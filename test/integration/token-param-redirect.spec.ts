import * as http from 'node:http';
import { useTestApp } from '../support/test-app';

/**
 * §4 App start step 3 on the server: a page URL with `t` is answered with a redirect to the same page
 * without it. The attack: a path that starts with `//` (or a backslash) made that redirect the
 * protocol-relative `//attacker.example`, which a browser follows to another host (an open redirect
 * through the token parameter). The Location must always stay on this service.
 */
const t = useTestApp();

/** A raw request: supertest and fetch would normalise the path before sending it. */
function rawGet(path: string): Promise<http.IncomingMessage> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path, method: 'GET' }, (res) => {
      res.resume();
      resolve(res);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a page URL with t cannot redirect off-site (open redirect through t)', () => {
  it.each([
    ['//attacker.example/x?t=abc', '/attacker.example/x'],
    ['//evil.example//attacker.example?t=abc', '/evil.example//attacker.example'],
    ['///attacker.example?t=abc', '/attacker.example'],
    ['/\\attacker.example?t=abc', '/attacker.example'],
    ['/collection?t=abc&x=1', '/collection?x=1'],
  ])('%s stays on this service as %s', async (path, expected) => {
    const res = await rawGet(path);
    expect(res.statusCode).toBe(302);
    const location = String(res.headers.location);
    expect(location).toBe(expected);
    expect(location).not.toMatch(/^[/\\]{2}/);
    expect(new URL(location, t.url).origin).toBe(new URL(t.url).origin);
    // An invalid t is dropped: no accessToken cookie is written, and nobody is signed in.
    expect(String(res.headers['set-cookie'] ?? '')).not.toMatch(/accessToken=abc/);
    expect(String(res.headers['set-cookie'] ?? '')).not.toMatch(/sessionId=/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });
});
