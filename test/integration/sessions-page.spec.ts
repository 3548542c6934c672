import request from 'supertest';
import type { ShellData } from '../../views/shell/shell-data';
import type { SessionRow } from '../../views/pages/SessionsPage';
import { CSRF_HEADER } from '../../src/shared/api-wire';
import { encodeHexJson } from '../../src/shared/hex-json';
import { Sessions } from '../../src/session/sessions';
import { Browser } from '../support/browser';
import { jarCookie, signInVia } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

interface Device {
  readonly browser: Browser;
  readonly sessionId: string;
  readonly cookie: string;
}

function rowsOf(html: string): SessionRow[] {
  const json =
    /<script id="page-data" type="application\/json" nonce="[^"]+">([\s\S]*?)<\/script>/.exec(
      html,
    )?.[1];
  return ((JSON.parse(json ?? '{}') as ShellData).props?.sessions ?? []) as SessionRow[];
}

describe('session management (issue 7 item 3)', () => {
  const t = useTestApp();

  async function device(userAgent: string, email = 'collector@example.com'): Promise<Device> {
    const browser = new Browser({ 'user-agent': userAgent });
    await signInVia(t, browser, 'b=collectors', { email });
    const sessionId = (await jarCookie(browser, t.url, 'sessionId')) ?? '';
    return { browser, sessionId, cookie: await browser.jar.getCookieString(t.url) };
  }

  const mutate = (who: Device, path: string, input?: unknown) =>
    request(t.url)
      .post(`/api/collectors-web/trpc/${path}`)
      .set('cookie', who.cookie)
      .set(CSRF_HEADER, '1')
      .type('json')
      .send(input === undefined ? '' : JSON.stringify(encodeHexJson(input)));
  const live = async (who: Device) => (await who.browser.get(`${t.url}/collection`)).status === 200;

  it('lists the collector’s sessions with site, device and last use; this one first; no secrets', async () => {
    const mac = await device(CHROME_MAC);
    const phone = await device(SAFARI_IPHONE);
    const page = await phone.browser.get(`${t.url}/account/sessions`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const rows = rowsOf(page.body);
    expect(rows[0]).toMatchObject({ current: true, device: { browser: 'Safari', os: 'iOS' } });
    expect(rows.find((r) => !r.current && r.device.browser === 'Chrome')).toMatchObject({
      brand: 'collectors',
      brandName: 'Collectors',
      device: { browser: 'Chrome', os: 'macOS' },
    });
    expect(page.body).toContain('Safari on iOS');
    expect(page.body).toContain('This session');
    for (const secret of [mac.sessionId, phone.sessionId]) expect(page.body).not.toContain(secret);
    expect(page.body).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\./);
  }, 60_000);

  it('sign out this session: ends another session of the same collector, not the current one', async () => {
    const mac = await device(CHROME_MAC);
    const phone = await device(SAFARI_IPHONE);
    const handle = await t.app.get(Sessions).handleOf(mac.sessionId);
    const res = await mutate(phone, 'account.endSession', { handle });
    expect(res.status).toBe(200);
    expect(await live(mac)).toBe(false);
    expect(await live(phone)).toBe(true);
  }, 60_000);

  it('refuses to end another collector’s session (NOT_FOUND) and changes nothing', async () => {
    const mine = await device(CHROME_MAC);
    const theirs = await device(CHROME_MAC, 'japan@example.com');
    const res = await mutate(mine, 'account.endSession', {
      handle: await t.app.get(Sessions).handleOf(theirs.sessionId),
    });
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).toContain('handle');
    expect(await live(theirs)).toBe(true);
  }, 60_000);

  it('sign out everywhere: every other session ends, this one is left to the usual sign-out', async () => {
    const a = await device(CHROME_MAC);
    const b = await device(SAFARI_IPHONE);
    const c = await device(CHROME_MAC);
    const res = await mutate(c, 'account.endOtherSessions');
    expect(res.status).toBe(200);
    expect(
      (res.body as { result: { data: { ended: number } } }).result.data.ended,
    ).toBeGreaterThanOrEqual(2);
    expect(await live(a)).toBe(false);
    expect(await live(b)).toBe(false);
    expect(await live(c)).toBe(true);
    const rows = rowsOf((await c.browser.get(`${t.url}/account/sessions`)).body);
    expect(rows).toHaveLength(1);
  }, 60_000);

  it('needs a signed-in collector: the page goes to /signin, the procedures answer UNAUTHORIZED', async () => {
    const page = await request(t.url).get('/account/sessions').expect(302);
    expect(new URL(page.headers.location ?? '').pathname).toBe('/signin');
    await request(t.url).get('/api/collectors-web/trpc/account.sessions').expect(401);
  });
});
