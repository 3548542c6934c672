import * as http from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import { useChromium } from '../support/chromium';
import { freePort } from '../support/free-port';
import { EMAIL } from '../support/signin-journey';
import { TEST_TIMEOUT_MS, seriousViolations, until } from '../support/shell-browser';
import { useTestApp } from '../support/test-app';

/**
 * A site of its own on 127.0.0.1 (another site than the app's `localhost`): it answers each path
 * with the page `pages` gives for it, and records every request it receives.
 */
interface Site {
  readonly origin: string;
  readonly visits: URL[];
  pages: Record<string, string>;
  close(): Promise<void>;
}

async function startSite(): Promise<Site> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const site: Site = {
    origin,
    visits: [],
    pages: {},
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname !== '/favicon.ico') site.visits.push(url);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(
      `<!doctype html><html lang="en"><title>${url.pathname}</title><main>${site.pages[url.pathname] ?? '<h1>A page</h1>'}</main></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return site;
}

/**
 * Issue 50 item 4 in Debian's Chromium, as a collector meets it. Another site links to (and shows an
 * image of) /logout/collectorsid: the collector sees this service's page that asks, stays signed in
 * if they choose to or do nothing, and is signed out when they press the button. The brand's own
 * sign-out link, a click on the brand's site, signs out with no extra click and lands where the
 * brand said. Fetch Metadata and the Referer are Chromium's own here: nothing is injected.
 */
describe('a sign-out from another site asks first, in Chromium (issue 50 item 4)', () => {
  let brand: Site | undefined;
  let attacker: Site | undefined;
  const sites = () => {
    if (!brand || !attacker) throw new Error('the sites have not started');
    return { brand, attacker };
  };
  const t = useTestApp(async () => {
    brand = await startSite();
    attacker = await startSite();
    return {
      // psa's site is the brand site here: its origin is one of the redirect policy's.
      BRAND_URLS: JSON.stringify({ psa: { tokenURL: `${brand.origin}/auth/signin-callback` } }),
      RATE_LIMIT_SIGNIN: '100000/60',
      RATE_LIMIT_SIGNIN_SESSION: '100000/60',
    };
  });
  afterAll(async () => {
    await brand?.close();
    await attacker?.close();
  });
  const chromium = useChromium();

  let context: BrowserContext | undefined;
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  /** A fresh browser, signed in as the demo collector through the IdP's steps, on /collection. */
  async function signedIn(): Promise<Page> {
    context = await chromium.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.url}/signin?b=collectors`);
    await page.waitForURL(/\/idp\/signin\//);
    await page.fill('#field-email', EMAIL);
    await page.click('button[value="submit"]');
    await page.waitForSelector('#field-password');
    await page.fill('#field-password', DEMO_PASSWORD);
    await page.click('button[value="submit"]');
    await page.waitForURL(`${t.url}/collection`);
    return page;
  }

  /** Whether the browser is still signed in: /collection shows, rather than going to sign in. */
  async function stillSignedIn(): Promise<boolean> {
    const check = await (context as BrowserContext).newPage();
    await check.goto(`${t.url}/collection`);
    const shown = new URL(check.url()).pathname === '/collection';
    await check.close();
    return shown;
  }

  /** The other site's page: an image of the sign-out, and a link to it. */
  function attackersPage(query: string): string {
    const signOut = `${t.url}/logout/collectorsid?${query}`;
    return `<h1>You won!</h1><img alt="" src="${signOut}&via=image"><a id="prize" href="${signOut}">Claim your prize</a>`;
  }

  it(
    'a link on another site shows this service’s page, and ends nothing until the collector presses Sign out',
    async () => {
      const page = await signedIn();
      const { attacker } = sites();
      attacker.pages['/prize'] = attackersPage('b=psa&lang=fr-CA&foo=bar');
      await page.goto(`${attacker.origin}/prize`);
      // The image (a cross-site sub-resource) signed nobody out.
      expect(await stillSignedIn()).toBe(true);

      await page.click('#prize');
      await page.waitForURL((url) => url.pathname === '/logout/collectorsid');
      expect(await page.getAttribute('html', 'lang')).toBe('fr-CA');
      expect((await page.locator('h1').innerText()).trim()).toBe('Se déconnecter de Collectors?');
      expect(await seriousViolations(page)).toEqual([]);
      expect(await stillSignedIn()).toBe(true);

      // 'Stay signed in' goes to the account page, signed in.
      await page.click('text=Rester connecté');
      await page.waitForURL(`${t.url}/fr-CA/collection`);
      expect(await stillSignedIn()).toBe(true);

      // Back to the other site's link; this time the collector presses the button.
      await page.goto(`${attacker.origin}/prize`);
      await page.click('#prize');
      await page.waitForURL((url) => url.pathname === '/logout/collectorsid');
      const onward = page.waitForRequest((r) => new URL(r.url()).pathname === '/signin');
      await page.click('button[type="submit"]');
      // Past the IdP's logout and the landing, on to sign in again with the query it was asked with.
      const signin = new URL((await onward).url());
      expect(Object.fromEntries(signin.searchParams)).toEqual({
        b: 'psa',
        lang: 'fr-CA',
        foo: 'bar',
        signedOut: 'true',
      });
      await page.waitForURL(/\/idp\/signin\//);
      expect(await stillSignedIn()).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the brand’s sign-out link, a click on its site, signs out at once and lands on its r',
    async () => {
      const page = await signedIn();
      const { brand } = sites();
      const back = `${brand.origin}/signed-out`;
      const signOut = `${t.url}/logout/collectorsid?b=psa&r=${encodeURIComponent(back)}`;
      brand.pages['/account'] =
        `<h1>Your PSA account</h1><a id="signout" href="${signOut}">Sign out</a>`;
      const asked: string[] = [];
      page.on('response', (res) => {
        if (new URL(res.url()).pathname === '/logout/collectorsid' && res.status() === 200)
          asked.push(res.url());
      });
      await page.goto(`${brand.origin}/account`);
      await page.click('#signout');
      await page.waitForURL(back);
      expect(asked).toEqual([]);
      await until(
        () => Promise.resolve(brand.visits.some((url) => url.pathname === '/signed-out')),
        (arrived) => arrived,
      );
      expect(await stillSignedIn()).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it.each(['en-US', 'en-CA', 'ja-JP'] as const)(
    'the page is in the sign-out’s language and clean for axe: %s',
    async (locale) => {
      const page = await signedIn();
      const { attacker } = sites();
      attacker.pages[`/${locale}`] = attackersPage(`b=collectors&lang=${locale}`);
      await page.goto(`${attacker.origin}/${locale}`);
      await page.click('#prize');
      await page.waitForURL((url) => url.pathname === '/logout/collectorsid');
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      expect(await page.locator('main form button[type="submit"]').count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await stillSignedIn()).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});
