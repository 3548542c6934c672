import type { Page, Request } from 'playwright-core';
import enCommon from '../../locales/en-US/common.json';
import { ROUTES } from '../../src/shared/routes';
import { launchChromium } from '../support/chromium';
import {
  API_ROUTE,
  TEST_TIMEOUT_MS,
  newShellContext,
  seriousViolations,
  signedInCookies,
  useShellBrowser,
  waitForHydration,
  watchPage,
} from '../support/shell-browser';

/**
 * Issue 16 item 2, the §2 loading overlay in real use: when the auth state a shell page shows may
 * have changed elsewhere (its tab is shown again, or it comes back from the back-forward cache), the
 * page-level overlay, a progressbar labelled "Loading", shows until account.status answers; a
 * signed-out answer then applies the §2 redirect to /signin with r.
 *
 * Every session is signed in for its test alone (no shared collector session), since these tests end
 * them: through the page's own sign-out link, or 'Sign out everywhere' on another browser's sessions
 * page, never by touching cookies or storage.
 */
describe('the §2 loading overlay when the auth state is checked again, in Chromium', () => {
  const fixture = useShellBrowser({ signedIn: false });

  const overlay = (page: Page) => page.getByRole('progressbar', { name: enCommon.loading });

  /**
   * The collector leaves this tab and comes back to it. Headless Chromium shows every tab at once
   * (document.visibilityState stays 'visible' whichever tab is in front, and bringToFront, a
   * minimised window or a frozen page change nothing), so the test plays the browser's part: the
   * document reports hidden, then visible, each time with the visibilitychange event a browser fires.
   */
  async function leaveAndReturn(page: Page): Promise<void> {
    await page.evaluate(() => {
      const become = (state: DocumentVisibilityState) => {
        Object.defineProperty(document, 'visibilityState', {
          configurable: true,
          get: () => state,
        });
        Object.defineProperty(document, 'hidden', {
          configurable: true,
          get: () => state === 'hidden',
        });
        document.dispatchEvent(new Event('visibilitychange'));
      };
      become('hidden');
      become('visible');
    });
  }

  /**
   * Holds this page's account.status requests until release(), so that the test sees what the page
   * shows while the answer is on its way; every other API call goes through.
   */
  async function holdAccountStatus(page: Page) {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const calls: string[] = [];
    await page.route(API_ROUTE, async (route) => {
      if (new URL(route.request().url()).pathname.endsWith('/account.status')) {
        calls.push(route.request().url());
        await released;
      }
      await route.continue().catch(() => undefined);
    });
    return { calls, release };
  }

  /** The page's next navigation to /signin (the §2 redirect). */
  const signinNavigation = (page: Page): Promise<Request> =>
    page.waitForRequest(
      (request) =>
        request.isNavigationRequest() &&
        request.frame() === page.mainFrame() &&
        new URL(request.url()).pathname === ROUTES.signin,
    );

  /**
   * Runs in the page before it is left: notes in session storage (which outlives the page in its tab)
   * its return from the back-forward cache and the first loading progressbar that appears in it, with
   * its label. The page shows none until it is checked again. (On a return from the cache the browser
   * makes the page visible before it fires pageshow, so the two may come in either order.)
   */
  function recordRestoreAndOverlay(label: string): void {
    const note = (entry: string) =>
      sessionStorage.setItem(
        'overlay-test',
        `${sessionStorage.getItem('overlay-test') ?? ''}${entry};`,
      );
    let seen = false;
    window.addEventListener('pageshow', (event) => {
      if (event.persisted) note('pageshow from the cache');
    });
    new MutationObserver(() => {
      const bar = document.querySelector(`[role="progressbar"][aria-label="${label}"]`);
      if (seen || !bar) return;
      seen = true;
      note(`progressbar ${bar.getAttribute('aria-label') ?? ''}`);
    }).observe(document.body, { subtree: true, childList: true });
  }

  /** A signed-in collector's /collection, hydrated, in a context of its own. */
  async function signedInPage() {
    const { t } = fixture.shell;
    const context = await fixture.context({ cookies: await signedInCookies(t) });
    const page = await context.newPage();
    const watch = watchPage(page);
    await page.goto(`${t.url}${ROUTES.collection}`);
    await waitForHydration(page);
    return { context, page, watch };
  }

  it(
    'signed out in another tab: back on this one, the overlay shows until account.status answers, then the §2 redirect',
    async () => {
      const { t } = fixture.shell;
      const { context, page, watch } = await signedInPage();
      const held = await holdAccountStatus(page);
      expect(await overlay(page).count()).toBe(0);

      // The other tab of the same browser signs out through its own page's sign-out link.
      const other = await context.newPage();
      await other.goto(`${t.url}${ROUTES.collection}`);
      await waitForHydration(other);
      await other.locator(`a[href^="${ROUTES.logout}"]:visible`).first().click();
      await other.waitForURL(/\/idp\/signin\//);

      // Back on the first tab: the overlay, over the page it still shows, while the answer is awaited.
      const redirect = signinNavigation(page);
      await leaveAndReturn(page);
      await overlay(page).waitFor({ state: 'visible' });
      expect(held.calls).toHaveLength(1);
      expect(page.url()).toBe(`${t.url}${ROUTES.collection}`);
      expect(await overlay(page).getAttribute('aria-busy')).toBe('true');
      expect(await seriousViolations(page)).toEqual([]);

      // The answer says signed out: §2 sends the browser to /signin with r, this page.
      held.release();
      const request = await redirect;
      expect(new URL(request.url()).searchParams.get('r')).toBe(`${t.url}${ROUTES.collection}`);
      await page.waitForURL(/\/idp\/signin\//);
      expect(await watch.all()).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'ended on another device: the page restored from the back-forward cache shows the overlay, then the §2 redirect',
    async () => {
      const { t } = fixture.shell;
      // Playwright turns the back-forward cache off; this browser keeps it. Chromium restores a
      // no-store page from it as long as none of the site's cookies changed, which is the case here:
      // the session ends from another browser, not in this one's cookies.
      const cached = await launchChromium({ backForwardCache: true });
      try {
        const context = await newShellContext(
          { t, browser: cached.browser, close: cached.close },
          { cookies: await signedInCookies(t) },
        );
        const page = await context.newPage();
        await page.goto(`${t.url}${ROUTES.collection}`);
        await waitForHydration(page);
        // Playwright loses track of a page's requests and script worlds once it comes back from the
        // cache, so the page writes down what happens to it, in this tab's session storage.
        await page.evaluate(recordRestoreAndOverlay, enCommon.loading);
        await page.goto(`${t.url}${ROUTES.sessions}`);
        await waitForHydration(page);

        // Another browser of the same collector: 'Sign out everywhere' on its sessions page.
        const elsewhere = await fixture.context({ cookies: await signedInCookies(t) });
        const other = await elsewhere.newPage();
        await other.goto(`${t.url}${ROUTES.sessions}`);
        await waitForHydration(other);
        await other.getByRole('button', { name: enCommon.sessions.signOutEverywhere }).click();
        await other.waitForURL(/\/idp\/signin\//);

        // Back to /collection: restored as it was left; the overlay shows, and the signed-out answer
        // sends the browser to /signin with r. (The IdP still knows this browser, so the sign-in
        // comes straight back to /collection with a new session.)
        const redirect = signinNavigation(page);
        await page.goBack({ waitUntil: 'commit' });
        const request = await redirect;
        expect(new URL(request.url()).searchParams.get('r')).toBe(`${t.url}${ROUTES.collection}`);
        await page.waitForURL(`${t.url}${ROUTES.collection}`);
        await waitForHydration(page);
        const noted = await page.evaluate(() => sessionStorage.getItem('overlay-test'));
        expect((noted ?? '').split(';').filter(Boolean).sort()).toEqual([
          'pageshow from the cache',
          `progressbar ${enCommon.loading}`,
        ]);
      } finally {
        await cached.close();
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'still signed in: the overlay shows until the answer, then goes; the page stays, one request per return',
    async () => {
      const { t } = fixture.shell;
      const { page, watch } = await signedInPage();
      const held = await holdAccountStatus(page);
      let navigated = false;
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigated = true;
      });

      await leaveAndReturn(page);
      await overlay(page).waitFor({ state: 'visible' });
      // A second return while the first check runs asks nothing more.
      await leaveAndReturn(page);
      expect(held.calls).toHaveLength(1);

      held.release();
      await overlay(page).waitFor({ state: 'detached' });
      expect(page.url()).toBe(`${t.url}${ROUTES.collection}`);
      expect(await page.locator('main h1').count()).toBe(1);

      // Each later return is checked again (the held requests now pass at once).
      await leaveAndReturn(page);
      await overlay(page).waitFor({ state: 'detached' });
      expect(held.calls).toHaveLength(2);
      expect(navigated).toBe(false);
      expect(await watch.all()).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'no answer (§8 network failure): the overlay goes, the page stays, and a danger toast says why',
    async () => {
      const { t } = fixture.shell;
      const { page, watch } = await signedInPage();
      await page.route(API_ROUTE, (route) => route.abort('internetdisconnected'));

      await leaveAndReturn(page);
      const toast = page.locator('.toast-region [data-toast-id="network-error"]');
      await toast.waitFor({ state: 'visible' });
      expect(await toast.locator('.toast-message').textContent()).toBe('Network request failed');
      await overlay(page).waitFor({ state: 'detached' });
      expect(page.url()).toBe(`${t.url}${ROUTES.collection}`);
      // The only console errors are the browser's reports of the aborted request.
      expect(await watch.all((e) => e.text.includes('net::ERR_INTERNET_DISCONNECTED'))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
