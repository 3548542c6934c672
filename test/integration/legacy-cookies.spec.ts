import request from 'supertest';
import { TestApp, startTestApp } from '../support/test-app';

/** §4 Token handling: legacy JSON-wrapped token cookies are unwrapped and rewritten. */
describe('legacy token cookies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';
  const table: [string, string, RegExp][] = [
    [
      'JSON object',
      encodeURIComponent(JSON.stringify({ accessToken: jwt })),
      new RegExp(
        `^accessToken=${jwt.replace(/\./g, '\\.')}; Max-Age=8640000; Path=/; HttpOnly; SameSite=Lax$`,
      ),
    ],
    [
      'JSON string',
      encodeURIComponent(JSON.stringify(jwt)),
      new RegExp(`^accessToken=${jwt.replace(/\./g, '\\.')};`),
    ],
    ['unreadable JSON', encodeURIComponent('{"accessToken":'), /^accessToken=; Max-Age=0;/],
  ];
  it.each(table)('%s is rewritten (or cleared when unreadable)', async (_name, value, expected) => {
    const res = await request(t.url)
      .get('/healthz')
      .set('cookie', `accessToken=${value}`)
      .expect(200);
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(expected);
  });

  it('leaves plain cookies alone', async () => {
    const res = await request(t.url)
      .get('/healthz')
      .set('cookie', `accessToken=${jwt}; refreshToken=abc`)
      .expect(200);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});
