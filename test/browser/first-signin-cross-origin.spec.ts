import * as http from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';
import type { AppConfig } from '../../src/config/app-config';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import { useChromium } from '../support/chromium';
import { freePort } from '../support/free-port';
import { EMAIL } from '../support/signin-journey';
import { until } from '../support/shell-browser';
import { useTestApp } from '../support/test-app';

/** A brand's web site on another origin than the service's: a plain server that records its visits. */
interface BrandSite {
  /** `http://127.0.0.1:<port>`: another origin than the app's `http://localhost:<port>`. */
  readonly origin: string;
  /** Every page request it received (not the favicon), in order. */
  readonly visits: URL[];
  close(): Promise<void>;
}

async function startBrandSite(): Promise<BrandSite> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const visits: URL[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname !== '/favicon.ico') visits.push(url);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end('<!doctype html><html lang="en"><title>Brand</title><h1>The brand’s site</h1></html>');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin,
    visits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Where the brand site takes a sign-in back (§4 step 6: the brand's tokenURL). */
const CALLBACK_PATH = '/auth/signin-callback';
/** A mobile app's tokenURL as qa and prod derive it from its scheme (src/config/brand-directory.ts). */
const APP_CALLBACK = 'psacard://auth/callback';

/** What a collector's browser reports along the way: CSP violations, from any document. */
interface Watch {
  readonly violations: string[];
  /** Navigations Chromium started to the app's scheme (it cannot open them, and need not). */
  readonly appNavigations: string[];
}

/**
 * Watches a journey in its context: every CSP violation, as the page's `securitypolicyviolation`
 * event and as Chromium's console report, in whichever document; and navigations to the app scheme.
 */
async function watchJourney(context: BrowserContext, page: Page): Promise<Watch> {
  const violations: string[] = [];
  const appNavigations: string[] = [];
  await context.exposeBinding('__reportViolation', (_source, line: string) => {
    violations.push(`event: ${line}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { __reportViolation: (line: string) => void }).__reportViolation(
        `${event.effectiveDirective} blocked ${event.blockedURI} on ${event.documentURI}`,
      );
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      violations.push(`console: ${message.text()}`);
  });
  // Chromium starts the navigation (a request event), then aborts it: no handler for the scheme.
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.url().startsWith('psacard:'))
      appNavigations.push(request.url());
  });
  return { violations, appNavigations };
}

/** Email, then password, on the embedded IdP's steps, as a person types them. */
async function signInOnIdp(page: Page): Promise<void> {
  await page.waitForURL(/\/idp\/signin\//);
  await page.fill('#field-email', EMAIL);
  await page.click('button[value="submit"]');
  await page.waitForSelector('#field-password');
  await page.fill('#field-password', DEMO_PASSWORD);
  await page.click('button[value="submit"]');
}

/**
 * Issue 49 item 1, in Debian's Chromium: the pages' CSP said `form-action 'self'`, and Chromium holds
 * the whole redirect chain of a form post to it. The password posted on the IdP's step page answers
 * 303 → /oauth2/default/… → /handleloginredirect → … → 302 to the brand, so a brand on another
 * origin (or an app's scheme) was refused at the last hop: the collector stayed on the password page
 * and only a second visit arrived. Each journey here starts in a fresh context and has no second
 * visit: the first sign-in must reach the brand, with no CSP violation anywhere on the way.
 */
describe('the first sign-in reaches a brand on another origin, in Chromium (issue 49 item 1)', () => {
  let brand: BrandSite | undefined;
  const site = (): BrandSite => {
    if (!brand) throw new Error('the brand site has not started');
    return brand;
  };
  const t = useTestApp(
    async () => {
      brand = await startBrandSite();
      const tokenURL = `${brand.origin}${CALLBACK_PATH}`;
      return {
        // Web brands on the brand site, as BRAND_URLS sets them in any environment.
        BRAND_URLS: JSON.stringify({ psa: { tokenURL }, pcgs: { tokenURL } }),
        RATE_LIMIT_SIGNIN: '100000/60',
        RATE_LIMIT_SIGNIN_SESSION: '100000/60',
      };
    },
    [],
    // psamobile to its scheme, as in qa and prod: in local and dev its tokenURL defaults to the demo
    // brand page, and BRAND_URLS takes only http(s) addresses.
    (config: AppConfig): AppConfig => ({
      ...config,
      brands: {
        ...config.brands,
        psamobile: { ...config.brands.psamobile, tokenURL: APP_CALLBACK },
      },
    }),
  );
  afterAll(async () => {
    await brand?.close();
  });
  const chromium = useChromium();

  let context: BrowserContext | undefined;
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  /** A fresh context (no session, no cookies: no second visit), watched. */
  async function start(): Promise<{ page: Page; watch: Watch }> {
    context = await chromium.browser.newContext();
    const page = await context.newPage();
    return { page, watch: await watchJourney(context, page) };
  }

  /** The brand site's visits to its callback from `since` on, once one arrived or Chromium objected. */
  async function callbackVisit(watch: Watch, since: number): Promise<URL | undefined> {
    const arrived = () =>
      site()
        .visits.slice(since)
        .find((url) => url.pathname === CALLBACK_PATH);
    await until(
      () => Promise.resolve(arrived() !== undefined || watch.violations.length > 0),
      (done) => done,
    );
    return arrived();
  }

  it('the IdP’s step page allows form posts to the brand site’s origin and the app scheme, and no wider', async () => {
    const { page } = await start();
    // goto answers with the last response of the redirects: the step page's.
    const step = await page.goto(`${t.url}/signin?b=psa`);
    expect(page.url()).toMatch(/\/idp\/signin\//);
    const csp = (await step?.allHeaders())?.['content-security-policy'] ?? '';
    const formAction = /(?:^|;\s*)form-action ([^;]*)/.exec(csp)?.[1]?.split(' ');
    expect(formAction).toEqual(expect.arrayContaining(["'self'", site().origin, 'psacard:']));
    for (const source of formAction ?? []) expect(source).not.toMatch(/\*|^https?:$/);
  });

  it('a web brand (psa): email and password on the IdP’s pages, and the brand site receives t, first time', async () => {
    const { page, watch } = await start();
    const since = site().visits.length;
    await page.goto(`${t.url}/signin?b=psa`);
    await signInOnIdp(page);

    const visit = await callbackVisit(watch, since);
    expect(watch.violations).toEqual([]);
    expect(visit?.origin).toBe(site().origin);
    expect(visit?.searchParams.get('t')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(visit?.searchParams.get('si')).toBeTruthy();
    await page.waitForURL((url) => url.origin === site().origin);
  }, 120_000);

  it('an app brand (psamobile): the post’s chain ends in Chromium’s navigation to psacard://auth/callback?code=…', async () => {
    const { page, watch } = await start();
    await page.goto(`${t.url}/signin?b=psamobile`);
    await signInOnIdp(page);

    await until(
      () => Promise.resolve(watch.appNavigations.length > 0 || watch.violations.length > 0),
      (done) => done,
    );
    expect(watch.violations).toEqual([]);
    const target = new URL(watch.appNavigations[0] ?? 'missing:');
    expect(`${target.protocol}//${target.host}${target.pathname}`).toBe(APP_CALLBACK);
    expect(target.searchParams.get('code')).toBeTruthy();
    // A handoff code, never tokens, for a mobile app (§4 step 6, docs/security.md).
    expect(target.searchParams.has('t')).toBe(false);
  }, 120_000);

  it('the brand code redirect (/handlebrandtokenredirect?b=pcgs) signs a collector in and lands on the brand site, first time', async () => {
    const { page, watch } = await start();
    const since = site().visits.length;
    await page.goto(`${t.url}/handlebrandtokenredirect?b=pcgs`);
    // Not signed in yet (the IdP answers login_required): the usual sign-in, then on to the brand.
    await signInOnIdp(page);

    const visit = await callbackVisit(watch, since);
    expect(watch.violations).toEqual([]);
    expect(visit?.origin).toBe(site().origin);
    expect(visit?.searchParams.get('t') ?? visit?.searchParams.get('code')).toBeTruthy();
    await page.waitForURL((url) => url.origin === site().origin);
  }, 120_000);

  // The IdP's logout page keeps form-action 'self' (src/idp/provider/provider-pages.ts): its post's
  // chain ends on this service's logout landing, a page, which goes on to `r` by a navigation of its
  // own. Were the landing ever a redirect, this would fail as the sign-ins did.
  it('a brand’s sign-out link with r on the brand site: past the IdP’s logout confirmation (a post), on to r', async () => {
    const { page, watch } = await start();
    const since = site().visits.length;
    await page.goto(`${t.url}/signin?b=psa`);
    await signInOnIdp(page);
    await callbackVisit(watch, since);

    const back = `${site().origin}/signed-out`;
    const before = site().visits.length;
    // Followed from the brand's page: its origin is the Referer, so it signs out at once (issue 50
    // item 4; test/browser/signout-csrf.spec.ts clicks such a link).
    await page.goto(`${t.url}/logout/collectorsid?b=psa&r=${encodeURIComponent(back)}`, {
      referer: `${site().origin}/account`,
    });
    await until(
      () =>
        Promise.resolve(
          site()
            .visits.slice(before)
            .some((url) => url.pathname === '/signed-out') || watch.violations.length > 0,
        ),
      (done) => done,
    );
    expect(watch.violations).toEqual([]);
    await page.waitForURL(back);
  }, 120_000);
});
