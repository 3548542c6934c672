import type { BrowserContext, Cookie, Page } from 'playwright-core';
import {
  DESKTOP,
  PHONE,
  TEST_TIMEOUT_MS,
  focusedElement,
  seriousViolations,
  settle,
  signedInCookies,
  until,
  waitForHydration,
  watchPage,
  useShellBrowser,
} from '../support/shell-browser';

/**
 * Issue 6 item 8, the full header in Chromium: desktop dropdowns and the account menu with pointer
 * and keyboard, the mobile panel at a phone's width and its §9 500 ms resize rule, and the
 * dark-mode switch of local/dev with its theme cookie.
 */
describe('shell header in Chromium', () => {
  const fixture = useShellBrowser();
  let context: BrowserContext;
  /**
   * The fixture's collector signs in from the collectors brand, whose shell shows §2's alternative
   * account menu (issue 16 item 1); the §2 account menu and its Japan set are those of every other
   * brand's shell, seen here with a session from the grading brand psa.
   */
  let gradingCookies: Cookie[] = [];
  beforeAll(async () => {
    gradingCookies = await signedInCookies(fixture.shell.t, undefined, 'psa');
  }, TEST_TIMEOUT_MS);

  async function openCollection(
    viewport: { width: number; height: number } = DESKTOP,
    path = '/collection',
    cookies: Cookie[] = fixture.cookies,
  ): Promise<Page> {
    context = await fixture.context({ cookies, viewport });
    const page = await context.newPage();
    await page.goto(`${fixture.shell.t.url}${path}`);
    await waitForHydration(page);
    return page;
  }

  const navButton = (page: Page, nth: number) =>
    page.locator('.site-header__nav .site-header__dropdown-button').nth(nth);
  const accountButton = (page: Page) =>
    page.locator('.site-header__account .site-header__dropdown-button');
  const panelOf = async (page: Page, button: ReturnType<Page['locator']>) =>
    page.locator(`#${(await button.getAttribute('aria-controls')) ?? 'missing'}`);

  it(
    'desktop dropdowns open and close with the pointer; one at a time; a click outside closes',
    async () => {
      const page = await openCollection();
      const watch = watchPage(page);
      const first = navButton(page, 0);
      const second = navButton(page, 1);
      const firstPanel = await panelOf(page, first);
      expect(await first.getAttribute('aria-expanded')).toBe('false');
      expect(await firstPanel.isHidden()).toBe(true);

      await first.click();
      await firstPanel.waitFor({ state: 'visible' });
      expect(await first.getAttribute('aria-expanded')).toBe('true');
      expect(await firstPanel.locator('a').count()).toBeGreaterThan(0);

      // Another dropdown: the first closes.
      await second.click();
      await (await panelOf(page, second)).waitFor({ state: 'visible' });
      await firstPanel.waitFor({ state: 'hidden' });
      expect(await first.getAttribute('aria-expanded')).toBe('false');

      // The same button again closes it.
      await second.click();
      await (await panelOf(page, second)).waitFor({ state: 'hidden' });

      // A click outside closes.
      await first.click();
      await firstPanel.waitFor({ state: 'visible' });
      await settle(page); // the outside-click listener is attached by an effect after the paint
      await page.mouse.click(DESKTOP.width / 2, DESKTOP.height - 300);
      await firstPanel.waitFor({ state: 'hidden' });
      expect(await first.getAttribute('aria-expanded')).toBe('false');
      expect(await watch.all()).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'desktop dropdowns work with the keyboard: Enter and Space toggle, Escape closes and returns focus, tabbing out closes',
    async () => {
      const page = await openCollection();
      const button = navButton(page, 0);
      const panel = await panelOf(page, button);
      await button.focus();

      await page.keyboard.press('Enter');
      await panel.waitFor({ state: 'visible' });
      expect(await button.getAttribute('aria-expanded')).toBe('true');
      // The panel's links follow the button in the tab order.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('[id]')?.id)).toBe(
        await button.getAttribute('aria-controls'),
      );
      // Escape from inside the panel closes it and puts focus back on the button.
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });
      expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);

      await page.keyboard.press('Space');
      await panel.waitFor({ state: 'visible' });
      await page.keyboard.press('Space');
      await panel.waitFor({ state: 'hidden' });

      // Tabbing past the last link leaves the dropdown, which closes.
      await page.keyboard.press('Enter');
      await panel.waitFor({ state: 'visible' });
      await settle(page);
      const links = await panel.locator('a').count();
      for (let i = 0; i <= links; i++) await page.keyboard.press('Tab');
      await panel.waitFor({ state: 'hidden' });
      expect(await button.getAttribute('aria-expanded')).toBe('false');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the account menu: pointer and keyboard, its entries end with Sign Out, axe while open',
    async () => {
      const page = await openCollection(DESKTOP, '/collection', gradingCookies);
      const button = accountButton(page);
      const panel = await panelOf(page, button);
      await button.click();
      await panel.waitFor({ state: 'visible' });
      const entries = await panel.locator('a').allTextContents();
      expect(entries).toHaveLength(9); // §2: eight entries, then Sign Out
      expect(entries.at(-1)).toBe('Sign Out');
      expect(await panel.locator('a').last().getAttribute('href')).toMatch(
        /^\/logout\/collectorsid/,
      );
      expect(await seriousViolations(page)).toEqual([]);
      await button.click();
      await panel.waitFor({ state: 'hidden' });

      await button.focus();
      await page.keyboard.press('Enter');
      await panel.waitFor({ state: 'visible' });
      await page.keyboard.press('Tab');
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });
      expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the collectors brand’s shell shows the alternative account menu, then Sign Out (issue 16 item 1)',
    async () => {
      const page = await openCollection();
      const button = accountButton(page);
      const panel = await panelOf(page, button);
      await button.click();
      await panel.waitFor({ state: 'visible' });
      // §2 "Account menu (alternative): Home, Orders, Collection & Vault, Account, Help & Support,
      // Submissions".
      expect(await panel.locator('a').allTextContents()).toEqual([
        'Home',
        'Orders',
        'Collection & Vault',
        'Account',
        'Help & Support',
        'Submissions',
        'Sign Out',
      ]);
      expect(await panel.locator('a').last().getAttribute('href')).toBe(
        '/logout/collectorsid?b=collectors',
      );
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });
      expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the Japanese header: reduced navigation and the Japanese account menu',
    async () => {
      const page = await openCollection(DESKTOP, '/collection?lang=ja-JP', gradingCookies);
      // §2: about, grading standards, research, contact: plain links, no dropdowns.
      expect(await page.locator('.site-header__nav-list > li').count()).toBe(4);
      expect(await page.locator('.site-header__nav .site-header__dropdown-button').count()).toBe(0);
      const button = accountButton(page);
      await button.click();
      const panel = await panelOf(page, button);
      await panel.waitFor({ state: 'visible' });
      // §2 for Japan: submissions, orders, request center, account; then sign out.
      expect(await panel.locator('a').count()).toBe(5);
      expect(await seriousViolations(page)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the mobile panel at a phone width: toggle, an expandable section, Escape, axe',
    async () => {
      const page = await openCollection(PHONE);
      const watch = watchPage(page);
      expect(await page.locator('.site-header__nav').isHidden()).toBe(true);
      const toggle = page.locator('.site-header__mobile-toggle');
      const panel = page.locator('#site-header-mobile-panel');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      const openLabel = await toggle.getAttribute('aria-label');

      await toggle.click();
      await panel.waitFor({ state: 'visible' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      expect(await toggle.getAttribute('aria-label')).not.toBe(openLabel);

      const section = panel.locator('.site-header__section-button').first();
      const sectionList = page.locator(`#${(await section.getAttribute('aria-controls')) ?? ''}`);
      expect(await section.getAttribute('aria-expanded')).toBe('false');
      await section.click();
      await sectionList.waitFor({ state: 'visible' });
      expect(await section.getAttribute('aria-expanded')).toBe('true');
      expect(await sectionList.locator('a').count()).toBeGreaterThan(0);
      // The account section is always there: the settings menu, titled Menu (issue 16 item 1).
      expect(await panel.locator('.site-header__mobile-account a').last().textContent()).toBe(
        'Sign Out',
      );
      expect(await panel.locator('.site-header__mobile-heading').textContent()).toBe('Menu');
      expect(await panel.locator('.site-header__mobile-account a').count()).toBe(9);
      expect(await seriousViolations(page)).toEqual([]);

      // Keyboard: Enter collapses the focused section; Escape closes the panel, focus on the toggle.
      await section.focus();
      await page.keyboard.press('Enter');
      await sectionList.waitFor({ state: 'hidden' });
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });
      expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');

      // The toggle itself works from the keyboard.
      await page.keyboard.press('Enter');
      await panel.waitFor({ state: 'visible' });
      await page.keyboard.press('Enter');
      await panel.waitFor({ state: 'hidden' });
      expect(await watch.all()).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'after a resize to desktop width the mobile panel closes once the 500 ms debounce has run',
    async () => {
      const page = await openCollection(PHONE);
      const toggle = page.locator('.site-header__mobile-toggle');
      const panel = page.locator('#site-header-mobile-panel');
      await toggle.click();
      await panel.waitFor({ state: 'visible' });

      // The page's clock stands still from here: the debounce runs only when the test moves it on.
      await page.clock.install();
      await page.clock.pauseAt(new Date(Date.now() + 60_000));
      await page.evaluate(() => {
        window.addEventListener('resize', () => {
          document.documentElement.dataset.resized = String(window.innerWidth);
        });
      });
      await page.setViewportSize(DESKTOP);
      await until(
        () => page.evaluate(() => document.documentElement.dataset.resized),
        (width) => width === String(DESKTOP.width),
      );
      await page.clock.runFor(450);
      expect(await panel.isVisible()).toBe(false); // hidden by CSS at desktop width...
      expect(await panel.getAttribute('hidden')).toBeNull(); // ...but still open: the delay runs
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await page.clock.runFor(100);
      await until(
        () => panel.getAttribute('hidden'),
        (hidden) => hidden !== null,
      );
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');

      // Back to a phone: the panel stays closed.
      await page.setViewportSize(PHONE);
      await page.clock.runFor(600);
      expect(await panel.isHidden()).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a desktop dropdown left open closes after a resize to a phone width',
    async () => {
      const page = await openCollection(DESKTOP);
      const button = navButton(page, 0);
      await button.click();
      expect(await button.getAttribute('aria-expanded')).toBe('true');
      await page.setViewportSize(PHONE);
      await until(
        () => button.getAttribute('aria-expanded'),
        (expanded) => expanded === 'false',
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the dark-mode switch (local/dev): toggles the html class, and the theme cookie keeps it after a reload',
    async () => {
      const page = await openCollection();
      const watch = watchPage(page);
      const themeSwitch = page.locator('.site-header__theme');
      expect(fixture.shell.t.config.env).toBe('local');
      expect(await page.getAttribute('html', 'class')).toBe('theme-light');
      expect(await themeSwitch.getAttribute('aria-pressed')).toBe('false');

      const saved = page.waitForResponse((r) => r.url().includes('cookie.setCookie'));
      await themeSwitch.click();
      expect(await page.getAttribute('html', 'class')).toBe('theme-dark');
      expect(await themeSwitch.getAttribute('aria-pressed')).toBe('true');
      expect((await saved).status()).toBe(200);
      expect(
        (await context.cookies(fixture.shell.t.url)).find((c) => c.name === 'theme')?.value,
      ).toBe('dark');

      await page.reload();
      await waitForHydration(page);
      expect(await page.getAttribute('html', 'class')).toBe('theme-dark');
      expect(await themeSwitch.getAttribute('aria-pressed')).toBe('true');
      expect(await page.locator('.site-header__theme-moon').isVisible()).toBe(true);

      // And back, with the keyboard this time.
      const savedAgain = page.waitForResponse((r) => r.url().includes('cookie.setCookie'));
      await themeSwitch.focus();
      await page.keyboard.press('Enter');
      await savedAgain;
      expect(await page.getAttribute('html', 'class')).toBe('theme-light');
      await page.reload();
      await waitForHydration(page);
      expect(await page.getAttribute('html', 'class')).toBe('theme-light');
      expect(await themeSwitch.getAttribute('aria-pressed')).toBe('false');
      expect(await watch.all()).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the skip link is the first stop and leads to the main content',
    async () => {
      const page = await openCollection();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('#main');
      await page.keyboard.press('Enter');
      expect(await focusedElement(page)).toBe('#main');
    },
    TEST_TIMEOUT_MS,
  );
});
