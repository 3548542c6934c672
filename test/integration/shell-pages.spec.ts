import request from 'supertest';
import { SHELL_COMMON_SECTIONS } from '../../views/shell/shell-data';
import { Browser } from '../support/browser';
import { pageDataOf, signInVia } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

describe('shell pages: rendering, hydration data, CSP and assets (issue 6)', () => {
  const t = useTestApp();
  let browser: Browser;
  beforeAll(async () => {
    browser = new Browser();
    await signInVia(t, browser, '');
  }, 60_000);

  it('renders /collection with a nonce-based CSP that every script carries, and no caching', async () => {
    const res = await browser.get(`${t.url}/collection`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const scripts = [...res.body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThanOrEqual(2);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    // No inline style attribute anywhere: the CSP would block it.
    expect(res.body).not.toMatch(/\sstyle="/);
    // React's text separators would differ from the client's markup.
    expect(res.body).not.toContain('<!-- -->');
  });

  it('a new nonce for every response', async () => {
    const a = await browser.get(`${t.url}/collection`);
    const b = await browser.get(`${t.url}/collection`);
    expect(a.headers.get('content-security-policy')).not.toBe(
      b.headers.get('content-security-policy'),
    );
  });

  it('hydration data: the page, locale, account status and the shell messages; never a token or session id', async () => {
    const res = await browser.get(`${t.url}/collection?lang=fr-CA`);
    const data = pageDataOf(res.body);
    expect(data.page).toBe('collection');
    expect(data.locale).toBe('fr-CA');
    expect(data.account).toMatchObject({ isSignedIn: true, isMigrating: false });
    expect(data.year).toBe(new Date().getUTCFullYear());
    expect(Object.keys(data.messages).sort()).toEqual(['common', 'footer', 'header']);
    // The shell's shared sections and the page's own: not the sessions list's or the sign-out's.
    expect(Object.keys(data.messages.common ?? {}).sort()).toEqual(
      [...SHELL_COMMON_SECTIONS, 'collection', 'sessions'].sort(),
    );
    // Of the sessions list's texts, only the link to it.
    expect(Object.keys(data.messages.common?.sessions ?? {})).toEqual(['manage']);
    expect(data.messages.common).not.toHaveProperty('signedOut');
    const jar = await browser.jar.getCookies(t.url);
    for (const cookie of jar.filter((c) =>
      ['accessToken', 'refreshToken', 'sessionId'].includes(c.key),
    )) {
      expect(res.body).not.toContain(cookie.value);
    }
    expect(res.body).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\./);
  });

  it('takes the theme from the theme cookie', async () => {
    await browser.jar.setCookie('theme=dark', t.url);
    const dark = await browser.get(`${t.url}/collection`);
    expect(dark.body).toContain('class="theme-dark"');
    expect(pageDataOf(dark.body).theme).toBe('dark');
    await browser.jar.setCookie('theme=light', t.url);
  });

  it('serves the bundle content-hashed with a year of immutable caching, and its manifest entries exist', async () => {
    const res = await browser.get(`${t.url}/collection`);
    const script = /<script type="module" src="([^"]+)"/.exec(res.body)?.[1] ?? '';
    const styles = [...res.body.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(script).toMatch(/^\/static\/app\/app-[A-Z0-9]+\.js$/);
    for (const asset of [script, ...styles]) {
      const file = await request(t.url)
        .get(asset ?? '')
        .expect(200);
      expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    await request(t.url).get('/static/app/app-DOESNOTEXIST.js').expect(404);
  });

  it('serves translation namespaces for lazy loading (§9)', async () => {
    const res = await request(t.url).get('/static/locales/ja-JP/footer.json').expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    await request(t.url).get('/static/locales/ja-JP/../../package.json').expect(404);
  });

  it('shows errors on the hydrated error page, with the code and the correlation id, in the language asked for', async () => {
    const res = await request(t.url)
      .get('/signin?b=nosuchbrand&lang=ja-JP')
      .set('accept', 'text/html')
      .expect(400);
    const data = pageDataOf(res.text);
    expect(data.page).toBe('error');
    expect(data.locale).toBe('ja-JP');
    expect(data.props?.correlationId).toEqual(expect.any(String));
    expect(res.text).toContain(String(data.props?.correlationId));
    expect(res.headers['content-security-policy']).toContain("'nonce-");
    expect(res.text).toContain(`${t.config.services.grading}/support`);
  });

  it('still answers API callers with JSON errors', async () => {
    const res = await request(t.url)
      .get('/signin?b=nosuchbrand')
      .set('accept', 'application/json')
      .expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, correlationId: expect.any(String) });
  });
});
