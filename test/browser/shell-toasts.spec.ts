import type { BrowserContext, Page } from 'playwright-core';
import {
  API_ROUTE,
  TEST_TIMEOUT_MS,
  seriousViolations,
  until,
  waitForHydration,
  watchPage,
  useShellBrowser,
} from '../support/shell-browser';
import { signedInSession } from '../support/account-api';

/**
 * Issue 6 item 8, toasts in Chromium (§4 Other, §8, §9): a call to the account API that fails for
 * network reasons shows a danger toast with 'Network request failed'; it closes with Escape, its
 * close button, a right swipe past 50 px, or after 5000 ms; F8 moves focus to the region; at most 5
 * are kept, newest first.
 *
 * The page's clock is paused while a toast is on screen (page.clock), so that its 5000 ms never run
 * out behind a slow step on a busy machine: time moves only when a test says so.
 */
describe('shell toasts in Chromium', () => {
  const fixture = useShellBrowser();
  let context: BrowserContext;

  const region = (page: Page) => page.locator('.toast-region');
  const networkToast = (page: Page) =>
    page.locator('.toast-region [data-toast-id="network-error"]');

  /** /collection with the account API unreachable and the page's clock paused. */
  async function offlineCollection(): Promise<Page> {
    context = await fixture.context({ cookies: fixture.cookies });
    const page = await context.newPage();
    await page.goto(`${fixture.shell.t.url}/collection`);
    await waitForHydration(page);
    await page.route(API_ROUTE, (route) => route.abort('internetdisconnected'));
    await page.clock.install();
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    return page;
  }

  /** The theme switch saves through cookie.setCookie, which now fails: the network toast shows. */
  async function produceNetworkToast(page: Page): Promise<void> {
    await page.locator('.site-header__theme').click();
    await networkToast(page).waitFor({ state: 'visible' });
    // Lets the toast's effects (its auto-close timer) run: 100 ms of the 5000.
    await page.clock.runFor(100);
  }

  it(
    'a network failure shows a danger toast with §8 text in the labelled region; axe passes',
    async () => {
      const page = await offlineCollection();
      const watch = watchPage(page);
      expect(await region(page).getAttribute('role')).toBe('region');
      expect(await region(page).getAttribute('aria-label')).toContain('F8');
      await produceNetworkToast(page);
      const toast = networkToast(page);
      expect(await toast.getAttribute('data-variant')).toBe('danger');
      expect(await toast.locator('[role="alert"]').count()).toBe(1);
      expect(await toast.locator('.toast-message').textContent()).toBe('Network request failed');
      // axe needs the page's timers: the pointer rests on the toast, which stops its clock, and the
      // page's time runs again.
      await toast.hover();
      await page.clock.resume();
      expect(await seriousViolations(page)).toEqual([]);
      expect(await toast.isVisible()).toBe(true);
      // The only console errors are the browser's reports of the aborted requests.
      expect(await watch.all((e) => e.text.includes('net::ERR_INTERNET_DISCONNECTED'))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'keyboard: F8 moves focus to the region, Tab reaches the toast, Escape closes it and focus stays in the region',
    async () => {
      const page = await offlineCollection();
      await produceNetworkToast(page);
      await page.keyboard.press('F8');
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('toast-region');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-toast-id'))).toBe(
        'network-error',
      );
      await page.keyboard.press('Escape');
      await networkToast(page).waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('toast-region');

      // With no toast F8 leaves focus where it is.
      await page.locator('.site-header__theme').focus();
      await page.keyboard.press('F8');
      expect(await page.evaluate(() => document.activeElement?.className)).toContain(
        'site-header__theme',
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the close button closes it, by pointer and by keyboard',
    async () => {
      const page = await offlineCollection();
      await produceNetworkToast(page);
      const close = networkToast(page).locator('.toast-close');
      expect(await close.getAttribute('aria-label')).toBeTruthy();
      await close.click();
      await networkToast(page).waitFor({ state: 'detached' });

      await produceNetworkToast(page);
      await networkToast(page).locator('.toast-close').focus();
      await page.keyboard.press('Enter');
      await networkToast(page).waitFor({ state: 'detached' });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a right swipe of more than 50 px closes it; a shorter one or a left one does not',
    async () => {
      const page = await offlineCollection();
      await produceNetworkToast(page);
      const toast = networkToast(page);
      const swipe = async (dx: number) => {
        const box = await toast.locator('.toast-message').boundingBox();
        if (!box) throw new Error('the toast has no box');
        const x = box.x + 10;
        const y = box.y + box.height / 2;
        await page.mouse.move(x, y);
        await page.mouse.down();
        await page.mouse.move(x + dx, y, { steps: 8 });
        await page.mouse.up();
      };
      await swipe(30);
      expect(await toast.isVisible()).toBe(true);
      expect(await toast.evaluate((el) => (el as HTMLElement).style.transform)).toBe('');
      await swipe(-80);
      expect(await toast.isVisible()).toBe(true);
      await swipe(80);
      await toast.waitFor({ state: 'detached' });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'it closes by itself after 5000 ms',
    async () => {
      const page = await offlineCollection();
      await produceNetworkToast(page);
      await page.mouse.move(0, 0); // not hovering it (hover pauses the clock)
      await page.clock.runFor(4_800); // 4900 ms after it was shown
      expect(await networkToast(page).isVisible()).toBe(true);
      await page.clock.runFor(300);
      await until(
        () => networkToast(page).count(),
        (n) => n === 0,
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'at most 5 are kept, newest first',
    async () => {
      // The sessions page shows one success toast per session it ends, each with its own id (its
      // failures share one id, so that a failure never stacks a second toast): seven more sessions
      // of the same collector give it seven rows to end.
      for (let n = 0; n < 7; n++) await signedInSession(fixture.shell.t);
      context = await fixture.context({ cookies: fixture.cookies });
      const page = await context.newPage();
      await page.goto(`${fixture.shell.t.url}/account/sessions`);
      await waitForHydration(page);
      await page.clock.install();
      await page.clock.pauseAt(new Date(Date.now() + 60_000));
      const rows = page.locator('.session-item');
      const other = page.locator('.session-item:not(:has(.session-current)) button').first();
      // Batched calls wait for a zero-delay timer: every look moves the paused clock on by 1 ms.
      const newest = async () => {
        await page.clock.runFor(1);
        return page.evaluate(
          () =>
            document
              .querySelector('.toast-region [data-toast-id]')
              ?.getAttribute('data-toast-id') ?? null,
        );
      };
      const shown: string[] = [];
      for (let attempt = 0; attempt < 7; attempt++) {
        const before = await rows.count();
        await other.click();
        const id = await until(newest, (top) =>
          Boolean(top?.startsWith('toast-') && !shown.includes(top)),
        );
        shown.push(id ?? '');
        await until(
          () => rows.count(),
          (n) => n === before - 1,
        );
        expect(await page.locator('.toast-region [data-toast-id]').count()).toBe(
          Math.min(5, attempt + 1),
        );
      }
      const ids = await page
        .locator('.toast-region [data-toast-id]')
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-toast-id')));
      expect(ids).toEqual([shown[6], shown[5], shown[4], shown[3], shown[2]]);
      const first = page.locator('.toast-region [data-toast-id]').first();
      expect(await first.getAttribute('data-variant')).toBe('success');
      expect(await first.locator('[role="status"]').count()).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );
});
