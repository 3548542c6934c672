import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { LOCALES_DIR } from '../../src/config/project-paths';
import { AccountFlags, AccountStore } from '../../src/idp/accounts/account-store';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import { CLIENT_ASSETS, type ClientAssets } from '../../src/render/client-assets';
import type { Locale } from '../../src/shared/locale';
import { RoundRobinProxy } from '../support/round-robin-proxy';
import {
  type ShellBrowser,
  TEST_TIMEOUT_MS,
  newShellContext,
  seriousViolations,
  startShellBrowser,
} from '../support/shell-browser';
import { EMAIL } from '../support/signin-journey';
import type { ShellData } from '../../views/shell/shell-data';

/**
 * Issue 16's last "Done when" item for the pages this wave added or changed: axe finds no serious or
 * critical WCAG 2.0/2.1 A/AA violation (the tags every browser spec uses) on
 * - the unauthorized landing /unauthredirect (a 200 page now), as a brand's link or the API's
 *   redirect opens it and as the Goldin sign-in without a state ends on it,
 * - the pending-step page /signin shows instead of a second trip to the IdP for the same step,
 * - the signed-out landing /handlelogoutredirect,
 * each in en-US, fr-CA and ja-JP, on the real app, its embedded IdP and its store, reached by the
 * collector's own journey in Chromium (nothing injected).
 *
 * The pending-step page appears only with an IdP that does not show a pending step (one that does
 * not know `pending_step`): as in test/integration/journey-pending-steps.spec.ts, a gateway in front
 * of the app drops that parameter on its way to the embedded IdP, and the browser goes through it.
 */
describe('axe on /unauthredirect, the pending-step page and the signed-out landing (issue 16)', () => {
  const proxy = new RoundRobinProxy();
  let shell: ShellBrowser;
  /** The gateway's origin: the app's public URL, where the browser goes. */
  let origin: string;
  const open: BrowserContext[] = [];

  beforeAll(async () => {
    // The proxy takes its port before the app starts: a port only found free could go to the app.
    const port = await proxy.listen();
    origin = `http://localhost:${port}`;
    shell = await startShellBrowser({
      PUBLIC_URL: origin,
      // 30-second access tokens, inside the refresh margin: every read of a session refreshes it,
      // so a change of the account at the IdP reaches the service at the next request.
      IDP_ACCESS_TOKEN_TTL_SECONDS: '30',
      RATE_LIMIT_SIGNIN: '100000/60',
      RATE_LIMIT_SIGNIN_SESSION: '100000/60',
    });
    proxy.backends = [shell.t.url];
    proxy.rewrite = (url) => {
      const parsed = new URL(url, origin);
      if (parsed.pathname !== '/oauth2/default/v1/authorize') return url;
      parsed.searchParams.delete('pending_step');
      return `${parsed.pathname}${parsed.search}`;
    };
  }, TEST_TIMEOUT_MS);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await proxy.close();
    await shell?.close();
  });

  const LOCALES = ['en-US', 'fr-CA', 'ja-JP'] as const satisfies readonly Locale[];

  /** `&lang=` for a locale other than the default. */
  const langParam = (locale: Locale) => (locale === 'en-US' ? '' : `&lang=${locale}`);

  const messages = new Map<string, Record<string, unknown>>();
  /** A locale's common.json text at a dotted key. */
  function common(locale: Locale, key: string): string {
    let tree = messages.get(locale);
    if (!tree) {
      tree = JSON.parse(readFileSync(path.join(LOCALES_DIR, locale, 'common.json'), 'utf8')) as {
        [key: string]: unknown;
      };
      messages.set(locale, tree);
    }
    const value = key
      .split('.')
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], tree);
    if (typeof value !== 'string') throw new Error(`no common.${key} in ${locale}`);
    return value;
  }

  async function newPage(): Promise<Page> {
    const context = await newShellContext(shell);
    open.push(context);
    return context.newPage();
  }

  /** From the brand's link through the IdP's steps (email, password), as a person types them. */
  async function signIn(page: Page, query: string, email = EMAIL): Promise<void> {
    await page.goto(`${origin}/signin?${query}`);
    await page.waitForURL(/\/idp\/signin\//);
    await page.fill('#field-email', email);
    await page.click('button[value="submit"]');
    await page.waitForSelector('#field-password');
    await page.fill('#field-password', DEMO_PASSWORD);
    await page.click('button[value="submit"]');
  }

  /** What every page here must be: in the locale, headed by `title`, and clean for axe. */
  async function expectPage(page: Page, locale: Locale, title: string): Promise<void> {
    expect(await page.getAttribute('html', 'lang')).toBe(locale);
    expect((await page.locator('h1').first().innerText()).trim()).toBe(title);
    expect(await seriousViolations(page)).toEqual([]);
  }

  describe('/unauthredirect', () => {
    it.each(LOCALES)(
      'error=Unauthorized&b=psa, as a link or the API’s redirect opens it, in %s',
      async (locale) => {
        const page = await newPage();
        // The §2 locale path rule: /fr-CA/unauthredirect, /ja-JP/unauthredirect.
        const prefix = locale === 'en-US' ? '' : `/${locale}`;
        const res = await page.goto(`${origin}${prefix}/unauthredirect?error=Unauthorized&b=psa`);
        expect(res?.status()).toBe(200);
        expect(await page.locator('main p[role="alert"]').innerText()).toBe(
          common(locale, 'unauth.Unauthorized'),
        );
        await expectPage(page, locale, common(locale, 'unauth.title'));
      },
      TEST_TIMEOUT_MS,
    );

    it.each(LOCALES)(
      'GoldinInvalidOktaSession, where the Goldin sign-in without a state ends, in %s',
      async (locale) => {
        const page = await newPage();
        await signIn(page, `b=goldin${langParam(locale)}`);
        await page.waitForURL((url) => url.pathname.endsWith('/unauthredirect'));
        expect(new URL(page.url()).searchParams.get('error')).toBe('GoldinInvalidOktaSession');
        expect(await page.locator('main p[role="alert"]').innerText()).toBe(
          common(locale, 'unauth.GoldinInvalidOktaSession'),
        );
        await expectPage(page, locale, common(locale, 'unauth.title'));
      },
      TEST_TIMEOUT_MS,
    );
  });

  describe('the pending-step page', () => {
    const cases: [Locale, Partial<AccountFlags>, string][] = [
      ['en-US', { isMigrating: true }, 'migrating'],
      ['fr-CA', { mfaSetupRequired: true }, 'setupMfa'],
      ['ja-JP', { surveyPending: true }, 'survey'],
    ];

    it.each(cases)(
      'in %s (%j): /signin shows it instead of a second trip to the IdP',
      async (locale, flags, key) => {
        // A collector the IdP's administrators created, with nothing pending yet.
        const email = `axe-pending-${randomUUID()}@example.com`;
        const store = shell.t.app.get(AccountStore);
        const account = await store.createAccount({
          email,
          password: DEMO_PASSWORD,
          locale,
          givenName: 'Pat',
          familyName: 'Pending',
          acceptedTerms: true,
          flags: { emailVerified: true },
        });
        const page = await newPage();
        await signIn(page, `b=collectors${langParam(locale)}`, email);
        await page.waitForURL((url) => url.pathname.endsWith('/collection'));
        const shellUrl = page.url();

        // The step becomes pending at the IdP. The shell page sends the collector to /signin, which
        // sends them to the IdP for it once; this IdP answers at once without showing it, the step
        // is still pending, and the next /signin shows the page, all in this one navigation.
        await store.setFlags(account.id, flags);
        const trips: string[] = [];
        page.on('request', (r) => {
          if (new URL(r.url()).pathname === '/oauth2/default/v1/authorize') trips.push(r.url());
        });
        const res = await page.goto(shellUrl);
        expect(new URL(page.url()).pathname).toBe('/signin');
        expect(res?.status()).toBe(200);
        expect(trips).toHaveLength(1);
        const action = new URL(
          (await page.locator('main a.button.primary').getAttribute('href')) ?? '',
          origin,
        );
        expect(action.pathname).toBe('/logout/collectorsid');
        await expectPage(page, locale, common(locale, `pendingStep.${key}.title`));
      },
      TEST_TIMEOUT_MS,
    );
  });

  describe('the signed-out landing /handlelogoutredirect', () => {
    /*
     * The landing's module script (client/main.tsx: hydrate, then finishSignOut) clears the §3 keys,
     * records the Logout event and calls location.replace(target) as soon as it runs, so the test
     * holds the page before that script runs: page.route takes the request for the app's own bundle
     * (the page's one module script, CLIENT_ASSETS.script; routing turns the HTTP cache off, so the
     * request is made) and keeps it unanswered while axe runs. A deferred module script that has
     * not arrived lets the parser finish the document, stylesheets load and nothing else happen:
     * the landing is our server-rendered document exactly as the server sent it (hydration leaves
     * that markup as it is: shell-pages.spec.ts asserts no hydration mutations), in a browser with
     * JavaScript on. Then the bundle goes through, and the page finishes the sign-out and leaves for
     * its target, as it does for every collector.
     *
     * Two holds that do not work, for the record:
     * - holding the target's request (page.route on it): the replacement navigation is then pending,
     *   and this Chromium answers nothing in the old document while a cross-document navigation is
     *   pending (page.evaluate, locators, even a raw CDP Runtime.evaluate wait until it commits),
     *   so axe never gets to run (the earlier attempt's timeout);
     * - a context with javaScriptEnabled: false: the page stays, but axe-core's run is asynchronous
     *   and its timers and promise jobs are page script, which such a context never runs, so the
     *   analysis never finishes.
     */
    it.each(LOCALES)(
      'in %s, held before its script replaces it with the target',
      async (locale) => {
        const page = await newPage();
        await signIn(page, `b=psa${langParam(locale)}`);
        await page.waitForURL((url) => url.pathname.startsWith('/demo/brand/psa'));

        const bundle = shell.t.app.get<ClientAssets>(CLIENT_ASSETS).script;
        const held = new Promise<Route>((resolve) => {
          void page.route(
            (url) => url.pathname === bundle,
            (route) => resolve(route),
          );
        });
        // The brand's sign-out link, from its page (in local, the demo brand page); the IdP's
        // confirmation submits itself; then the landing.
        await page.goto(`${origin}/logout/collectorsid?b=psa${langParam(locale)}`, {
          referer: `${origin}/demo/brand/psa`,
          waitUntil: 'commit',
        });
        const route = await held;
        expect(new URL(page.url()).pathname).toBe('/handlelogoutredirect');
        // Parsed to the end (readiness 'interactive' waits for nothing but the held script), and its
        // stylesheets applied (axe's contrast checks need them).
        await page.waitForFunction(
          () =>
            document.readyState !== 'loading' &&
            [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every(
              (link) => link.sheet !== null,
            ),
        );
        // Chromium hides the nonce from the DOM, so the page data is read from its element.
        const data = JSON.parse(
          (await page.locator('#page-data').textContent()) ?? '{}',
        ) as ShellData;
        expect(data.page).toBe('signedOut');
        expect(data.locale).toBe(locale);
        await expectPage(page, locale, common(locale, 'signedOut.title'));
        expect(new URL(page.url()).pathname).toBe('/handlelogoutredirect');

        // Let go: the script runs and replaces the landing with its target, /signin for psa, which
        // sends the collector to the IdP's first step.
        await route.continue();
        const target = await page.waitForRequest((r) => new URL(r.url()).pathname === '/signin');
        expect(new URL(target.url()).searchParams.get('b')).toBe('psa');
        await page.waitForURL(/\/idp\/signin\//);
      },
      TEST_TIMEOUT_MS,
    );
  });
});
