import request from 'supertest';
import { useTestApp } from '../support/test-app';

/**
 * Token cookies that earlier versions left in browsers (§4 Token handling "Legacy JSON-wrapped
 * cookies", issue 14 item 7). This service no longer writes the accessToken and refreshToken cookies,
 * so one a browser sends is no current token of anything: every one, plain, JSON-wrapped or
 * unreadable, is cleared once, with the attributes it was written with (§9: Path=/, HttpOnly,
 * SameSite=Lax). Until issue 14 a wrapped one was rewritten plain with Max-Age=8640000 and a plain one
 * was left alone; those expectations became the clearings below, since a rewritten or kept copy would
 * be a stale bearer token that nothing reads.
 */
describe('token cookies left by earlier versions', () => {
  const t = useTestApp();

  const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';
  const clearing = (name: string) =>
    new RegExp(
      `^${name}=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$`,
    );
  const table: [string, string][] = [
    ['JSON object', encodeURIComponent(JSON.stringify({ accessToken: jwt }))],
    ['JSON string', encodeURIComponent(JSON.stringify(jwt))],
    ['unreadable JSON', encodeURIComponent('{"accessToken":')],
    ['plain', jwt],
  ];
  it.each(table)('%s is cleared', async (_name, value) => {
    const res = await request(t.url)
      .get('/.well-known/collectors-signon')
      .set('cookie', `accessToken=${value}`)
      .expect(200);
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(clearing('accessToken'));
  });

  it('clears both token cookies, and only them', async () => {
    const res = await request(t.url)
      .get('/.well-known/collectors-signon')
      .set('cookie', `theme=dark; accessToken=${jwt}; refreshToken=abc; QTM_UID=u1`)
      .expect(200);
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []).sort();
    expect(cookies).toHaveLength(2);
    expect(cookies[0]).toMatch(clearing('accessToken'));
    expect(cookies[1]).toMatch(clearing('refreshToken'));
  });

  it('leaves a request without token cookies alone', async () => {
    const res = await request(t.url)
      .get('/.well-known/collectors-signon')
      .set('cookie', 'theme=dark; myaccessToken=x; QTM_UID=u1')
      .expect(200);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});
