import { Browser } from '../support/browser';
import { jarCookie, locationOf, signInVia, throughBrandGrant } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 14 item 1: a bad return URL never blocks sign-in (§5 "r is used only when it passes a
 * safe-parse", §4 step 9 "the return URL if valid, else /collection"). Each journey starts at the
 * brand's link with a slightly-off r or fr, goes through the embedded IdP's steps with a cookie jar,
 * and ends where §4 says: the brand's target, or /collection. The dropped URL is logged as a warning
 * with the brand, without its query.
 */
const t = useTestApp({
  RATE_LIMIT_SIGNIN: '100000/60',
  RATE_LIMIT_SIGNIN_SESSION: '100000/60',
});
let demo: (brand: string) => string;

beforeAll(() => {
  demo = (brand) => `${t.config.http.publicUrl}/demo/brand/${brand}`;
}, 30_000);

const endpointOf = (url: URL) => `${url.origin}${url.pathname}`;
const dropLines = () => t.logs.records.filter((r) => r.event === 'return-url-dropped');

describe('a return URL that fails the policy is dropped, and the sign-in goes on', () => {
  const offLinks: [string, string, string][] = [
    ['an unlisted origin', 'r', 'https://evil.example/steal?token=secret#frag'],
    ['a relative path', 'r', '/orders'],
    ['a protocol-relative URL', 'r', '//evil.example/x'],
    ['a malformed URL', 'r', 'https://'],
    ['a javascript: forced return', 'fr', 'javascript:alert(1)'],
  ];

  it.each(offLinks)(
    '%s in %s: psa collector lands on the brand target without it',
    async (_name, param, value) => {
      const before = dropLines().length;
      const browser = new Browser();
      const { start, landing } = await signInVia(
        t,
        browser,
        `b=psa&${param}=${encodeURIComponent(value)}`,
      );
      // Not the error page: straight on to the IdP.
      expect(start.status).toBe(302);
      expect(locationOf(start).href.startsWith(t.config.idp.issuer)).toBe(true);
      const target = locationOf(landing);
      expect(endpointOf(target)).toBe(demo('psa'));
      expect(target.searchParams.get('si')).toEqual(expect.any(String));
      expect(target.searchParams.has('r')).toBe(false);
      expect(target.href).not.toContain('evil.example');
      const lines = dropLines().slice(before);
      expect(lines).toEqual([
        expect.objectContaining({ level: 40, brand: 'psa', param, reason: expect.any(String) }),
      ]);
      // The URL is logged without its query or fragment.
      expect(JSON.stringify(lines)).not.toMatch(/token=|secret|#frag/);
    },
    60_000,
  );

  it('collectors: an unusable r falls back to /collection (§4 step 9), signed in', async () => {
    const browser = new Browser();
    const { landing } = await signInVia(t, browser, `b=collectors&r=${encodeURIComponent('/x')}`);
    const target = locationOf(landing);
    expect(target.href).toBe(`${t.config.http.publicUrl}/collection`);
    const page = await browser.get(target.href);
    expect(page.status).toBe(200);
    expect(await jarCookie(browser, t.url, 'sessionId')).toEqual(expect.any(String));
  }, 60_000);

  it('a bad fr does not take away a good r', async () => {
    const good = 'https://dev.psacard.com/orders';
    const browser = new Browser();
    const { landing } = await signInVia(
      t,
      browser,
      `b=collectors&r=${encodeURIComponent(good)}&fr=${encodeURIComponent('https://evil.example/')}`,
    );
    expect(locationOf(landing).href).toBe(good);
  }, 60_000);

  it('already signed in: the brand redirect goes on without the bad r', async () => {
    const browser = new Browser();
    await signInVia(t, browser, 'b=psa');
    const again = await throughBrandGrant(
      browser,
      await browser.get(`${t.url}/signin?b=psa&r=${encodeURIComponent('https://evil.example/')}`),
    );
    const target = locationOf(again);
    expect(endpointOf(target)).toBe(demo('psa'));
    expect(target.searchParams.has('r')).toBe(false);
  }, 60_000);

  it('a bad brand or a malformed flag is still the error page', async () => {
    const badBrand = await new Browser().get(`${t.url}/signin?b=netflix&r=/x`);
    expect(badBrand.status).toBe(400);
    expect(badBrand.headers.get('location')).toBeNull();
    const badFlag = await new Browser().get(`${t.url}/signin?b=psa&isMigrated=maybe`);
    expect(badFlag.status).toBe(400);
    expect(badFlag.headers.get('location')).toBeNull();
  });
});
