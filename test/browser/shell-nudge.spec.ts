import type { BrowserContext, Page } from 'playwright-core';
import { NUDGE_INTERVAL_MS } from '../../views/shell/nudge/nudge-timing';
import { APP_STORE_LINKS } from '../../views/shell/nudge/MobileAppNudge';
import {
  ANDROID_UA,
  DESKTOP,
  DESKTOP_UA,
  IPHONE_UA,
  PHONE,
  TEST_TIMEOUT_MS,
  seriousViolations,
  waitForHydration,
  watchPage,
  useShellBrowser,
} from '../support/shell-browser';

const KEY = 'appNudgeLastShown';

/**
 * Issue 6 item 8, the mobile-app nudge in Chromium (§2, §4 Other, §9): on Android and iOS only; shown
 * when no time is stored or the stored time is at least 168 hours old; showing it stores the time
 * (localStorage appNudgeLastShown); a desktop never sees it. The page's clock is fixed (page.clock)
 * where the exact boundary matters.
 */
describe('mobile-app nudge in Chromium', () => {
  const fixture = useShellBrowser();
  let context: BrowserContext;

  const nudge = (page: Page) => page.locator('section.app-nudge');
  const stored = (page: Page) => page.evaluate((key) => localStorage.getItem(key), KEY);

  async function open(
    userAgent: string,
    options: { storedAt?: number; now?: number; path?: string } = {},
  ): Promise<Page> {
    context = await fixture.context({
      cookies: fixture.cookies,
      userAgent,
      viewport: userAgent === DESKTOP_UA ? DESKTOP : PHONE,
      ...(options.storedAt !== undefined
        ? { localStorage: { [KEY]: String(options.storedAt) } }
        : {}),
    });
    const page = await context.newPage();
    if (options.now !== undefined) await page.clock.setFixedTime(options.now);
    await page.goto(`${fixture.shell.t.url}${options.path ?? '/collection'}`);
    await waitForHydration(page);
    return page;
  }

  it.each([
    ['Android', ANDROID_UA, 'android'],
    ['iPhone', IPHONE_UA, 'ios'],
  ] as const)(
    '%s with no stored time: shown with its store link, the time is stored; closing hides it; a reload does not bring it back',
    async (_device, userAgent, platform) => {
      const before = Date.now();
      const page = await open(userAgent);
      const watch = watchPage(page);
      await nudge(page).waitFor({ state: 'visible' });
      expect(await nudge(page).getAttribute('data-platform')).toBe(platform);
      expect(await nudge(page).locator('a.app-nudge-store').getAttribute('href')).toBe(
        APP_STORE_LINKS[platform],
      );
      const time = Number(await stored(page));
      expect(time).toBeGreaterThanOrEqual(before);
      expect(time).toBeLessThanOrEqual(Date.now());
      expect(await seriousViolations(page)).toEqual([]);

      // Closed with the keyboard.
      await nudge(page).locator('button.app-nudge-close').focus();
      await page.keyboard.press('Enter');
      await nudge(page).waitFor({ state: 'detached' });
      expect(Number(await stored(page))).toBe(time);

      await page.reload();
      await waitForHydration(page);
      expect(await nudge(page).count()).toBe(0);
      expect(Number(await stored(page))).toBe(time);
      expect(await watch.all()).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'closing it with the pointer',
    async () => {
      const page = await open(ANDROID_UA, { path: '/collection?lang=ja-JP' });
      await nudge(page).waitFor({ state: 'visible' });
      await nudge(page).locator('button.app-nudge-close').click();
      await nudge(page).waitFor({ state: 'detached' });
    },
    TEST_TIMEOUT_MS,
  );

  /** The page's cumulative layout shift so far (Chromium's layout-shift entries, all buffered). */
  const layoutShift = (page: Page) =>
    page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => {
            let sum = 0;
            for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[])
              sum += entry.value;
            resolve(sum);
          }).observe({ type: 'layout-shift', buffered: true });
          // No entry at all is no shift: the observer then never calls back.
          setTimeout(() => resolve(0), 500);
        }),
    );

  it.each([
    ['Android', '/collection', ANDROID_UA],
    ['iPhone', '/collection?lang=ja-JP', IPHONE_UA],
    ['Android', '/account/sessions?lang=fr-CA', ANDROID_UA],
  ] as const)(
    "%s on %s: the nudge is the first thing on the page, in the server's HTML, and nothing moves",
    async (_device, path, userAgent) => {
      context = await fixture.context({ cookies: fixture.cookies, userAgent, viewport: PHONE });
      const page = await context.newPage();
      const response = await page.goto(`${fixture.shell.t.url}${path}`);
      const html = (await response?.text()) ?? '';
      // Drawn by the server, before the header: it has its room from the first paint on.
      expect(html.indexOf('class="app-nudge"')).toBeGreaterThan(0);
      expect(html.indexOf('class="app-nudge"')).toBeLessThan(html.indexOf('<header'));
      await waitForHydration(page);
      await nudge(page).waitFor({ state: 'visible' });
      const box = (await nudge(page).boundingBox())!;
      expect(box.y).toBe(0);
      expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height / 3);
      const header = (await page.locator('header').first().boundingBox())!;
      expect(header.y).toBeGreaterThanOrEqual(box.y + box.height - 1);
      expect(await layoutShift(page)).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);

      // Closing it may collapse it: the collector asked for that.
      await nudge(page).locator('button.app-nudge-close').click();
      await nudge(page).waitFor({ state: 'detached' });
      expect((await page.locator('header').first().boundingBox())!.y).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'shown in the last 168 hours: never drawn, not even for a moment, and nothing moves',
    async () => {
      const now = Date.now();
      context = await fixture.context({
        cookies: fixture.cookies,
        userAgent: ANDROID_UA,
        viewport: PHONE,
        localStorage: { [KEY]: String(now - 60_000) },
      });
      const page = await context.newPage();
      await page.goto(`${fixture.shell.t.url}/collection`, { waitUntil: 'commit' });
      // Before the bundle hydrates, as the first paint shows it: the header is at the top.
      await page.waitForSelector('header', { state: 'attached' });
      expect(
        await page.evaluate(() => document.querySelector('header')!.getBoundingClientRect().top),
      ).toBe(0);
      await waitForHydration(page);
      expect(await nudge(page).count()).toBe(0);
      expect((await page.locator('header').first().boundingBox())!.y).toBe(0);
      expect(await layoutShift(page)).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a stored time less than 168 hours ago: not shown, and the stored time is kept',
    async () => {
      const now = Date.UTC(2026, 0, 15, 12, 0, 0);
      const storedAt = now - NUDGE_INTERVAL_MS + 1;
      const page = await open(ANDROID_UA, { now, storedAt });
      expect(await page.evaluate(() => Date.now())).toBe(now);
      expect(await nudge(page).count()).toBe(0);
      expect(await stored(page)).toBe(String(storedAt));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a stored time exactly 168 hours ago: shown again, and the new time stored',
    async () => {
      const now = Date.UTC(2026, 0, 15, 12, 0, 0);
      const page = await open(IPHONE_UA, { now, storedAt: now - NUDGE_INTERVAL_MS });
      await nudge(page).waitFor({ state: 'visible' });
      expect(await stored(page)).toBe(String(now));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a stored time more than 168 hours ago: shown again',
    async () => {
      const now = Date.UTC(2026, 0, 15, 12, 0, 0);
      const page = await open(ANDROID_UA, { now, storedAt: now - NUDGE_INTERVAL_MS - 60_000 });
      await nudge(page).waitFor({ state: 'visible' });
      expect(await stored(page)).toBe(String(now));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a desktop user agent never sees it, and nothing is stored',
    async () => {
      const page = await open(DESKTOP_UA);
      expect(await nudge(page).count()).toBe(0);
      expect(await stored(page)).toBeNull();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'on the error page too (every shell page carries it)',
    async () => {
      const page = await open(ANDROID_UA, { path: '/signin?b=nosuchbrand&lang=fr-CA' });
      await nudge(page).waitFor({ state: 'visible' });
      expect(await seriousViolations(page)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
