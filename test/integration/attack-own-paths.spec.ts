import * as http from 'node:http';
import { OPEN_REDIRECT_BYPASSES } from '../fixtures/open-redirect-bypasses';
import { sameOriginPath } from '../../src/shared/routes';
import { inBatches, pageDataOf } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 15 item 6, as an attacker would send it: request paths written so that a Location or link the
 * service builds from its own path turns into another host (`GET /%2e//evil.com/x?t=a` used to answer
 * `Location: //evil.com/x`). The `t` redirect and the error page's 'try again' link both go through one
 * helper (sameOriginPath); every known bypass, as a raw request path, must stay on this origin.
 */
const t = useTestApp();

/** A raw request line: node:http sends the path exactly as written (fetch would normalise it). */
function raw(path: string): Promise<{ status: number; location?: string; body: string }> {
  const { port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: Number(port), path, headers: { accept: 'text/html' } },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ...(res.headers.location ? { location: res.headers.location } : {}),
            body,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const staysHere = (link: string) =>
  /^\/(?![/\\])/.test(link) && new URL(link, `${t.url}/x`).origin === new URL(t.url).origin;

/** A payload as the path of a request line: no spaces or controls (they would break the line). */
const asPath = (payload: string) =>
  `/%2e/${encodeURI(payload).replace(/%25/g, '%').replace(/#/g, '%23').replace(/\?/g, '%3F')}`;

it('the reported case: /%2e//evil.com/x?t=a stays here', async () => {
  const res = await raw('/%2e//evil.com/x?t=a');
  expect(res.status).toBe(302);
  expect(res.location).toBeDefined();
  expect(staysHere(res.location ?? '')).toBe(true);
});

it(`every bypass as a request path: the t redirect and the error page's retry link stay here (${OPEN_REDIRECT_BYPASSES.length} payloads)`, async () => {
  const escaped: string[] = [];
  await inBatches([...OPEN_REDIRECT_BYPASSES], 20, async ({ payload }) => {
    const path = asPath(payload);
    const withToken = await raw(`${path}?t=a`);
    if (withToken.location !== undefined && !staysHere(withToken.location))
      escaped.push(`t redirect ${path} -> ${withToken.location}`);
    const page = await raw(path);
    if (page.status === 404 && page.body.includes('id="page-data"')) {
      const href = pageDataOf(page.body).props?.retryHref;
      const retry = typeof href === 'string' ? href : '';
      if (!staysHere(retry)) escaped.push(`retry link ${path} -> ${retry}`);
    }
  });
  expect(escaped).toEqual([]);
}, 120_000);

describe('sameOriginPath, the one helper, against the table', () => {
  const ORIGIN = 'https://signin.collectors.com';
  const shapes = (payload: string) => [payload, `/${payload}`, `/%2e/${payload}`, `/.//${payload}`];
  it(`no bypass leaves the origin (${OPEN_REDIRECT_BYPASSES.length} payloads x 4 shapes)`, () => {
    const escaped: string[] = [];
    for (const { payload } of OPEN_REDIRECT_BYPASSES) {
      for (const target of shapes(payload)) {
        const location = sameOriginPath(target);
        const resolved = new URL(location, `${ORIGIN}/start`);
        if (resolved.origin !== ORIGIN || !/^\/(?![/\\])/.test(location))
          escaped.push(`${JSON.stringify(target)} -> ${location}`);
      }
    }
    expect(escaped).toEqual([]);
  });
});
