import type { Page } from 'playwright-core';
import {
  LOCALES,
  TEST_TIMEOUT_MS,
  THEMES,
  documentStatusError,
  errorPagePath,
  hydrationMutations,
  seriousViolations,
  useShellBrowser,
  waitForHydration,
  watchPage,
} from '../support/shell-browser';

/**
 * Issue 6 item 8: every shell page in every locale and both themes renders and hydrates in Chromium
 * with no console error, no uncaught exception, no CSP violation and no DOM repair by hydration, and
 * axe finds no serious or critical WCAG 2.x A/AA violation.
 */
describe('shell pages in Chromium: locales x themes', () => {
  const fixture = useShellBrowser();

  async function open(path: string, theme: 'light' | 'dark') {
    const context = await fixture.context({ cookies: fixture.cookies, theme });
    const page = await context.newPage();
    const watch = watchPage(page);
    const response = await page.goto(`${fixture.shell.t.url}${path}`);
    await waitForHydration(page);
    return { page, watch, status: response?.status(), close: () => context.close() };
  }

  async function expectTheme(page: Page, theme: 'light' | 'dark') {
    expect(await page.getAttribute('html', 'class')).toBe(`theme-${theme}`);
  }

  const cases = LOCALES.flatMap((locale) => THEMES.map((theme) => [locale, theme] as const));

  it.each(cases)(
    '/collection in %s, %s theme: renders, hydrates cleanly, passes axe',
    async (locale, theme) => {
      const { page, watch, status, close } = await open(`/collection?lang=${locale}`, theme);
      expect(status).toBe(200);
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      await expectTheme(page, theme);
      await page.waitForSelector('#account-summary-title');
      expect(await page.textContent('.account-summary p')).toMatch(/\d+/);
      // Hydration changed nothing in the server's markup (Preact rewrites text and nodes that differ).
      expect(await hydrationMutations(page)).toEqual([]);
      // The dark-mode switch (local) shows the page's theme from the first paint.
      const themeSwitch = page.locator('.site-header__theme');
      expect(await themeSwitch.getAttribute('aria-pressed')).toBe(String(theme === 'dark'));
      expect(
        await page
          .locator(theme === 'dark' ? '.site-header__theme-moon' : '.site-header__theme-sun')
          .isVisible(),
      ).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      // Issue 33: the sites to continue to are link cards, not underlined, with a visible focus ring.
      const card = page.locator('.continue-card').first();
      await card.focus();
      expect(
        await card.evaluate((el) => {
          const style = getComputedStyle(el);
          return [style.textDecorationLine, style.outlineStyle, style.outlineWidth];
        }),
      ).toEqual(['none', 'solid', '3px']);
      // Hydrated: the account menu's button works.
      const account = page.locator('.site-header__account .site-header__dropdown-button');
      await account.click();
      await page.waitForSelector(
        '.site-header__account .site-header__dropdown-panel:not([hidden])',
      );
      expect(await account.getAttribute('aria-expanded')).toBe('true');
      expect(await watch.all()).toEqual([]);
      await close();
    },
    TEST_TIMEOUT_MS,
  );

  it.each(cases)(
    '/account/sessions in %s, %s theme: renders, hydrates cleanly, passes axe',
    async (locale, theme) => {
      const { page, watch, status, close } = await open(`/account/sessions?lang=${locale}`, theme);
      expect(status).toBe(200);
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      await expectTheme(page, theme);
      expect(await page.locator('main h1').count()).toBe(1);
      // Hydration repaired nothing; after it, the browser rewrote the server's UTC times in its own
      // time zone (issue 33), and nothing else.
      const mutations = await hydrationMutations(page);
      expect(
        mutations.filter((m) => !/^characterData in #text\(.*\): text ".*UTC" -> /.test(m)),
      ).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await watch.all()).toEqual([]);
      await close();
    },
    TEST_TIMEOUT_MS,
  );

  it.each(cases)(
    'the error page in %s, %s theme: correlation id, support and start-over links, axe',
    async (locale, theme) => {
      const path = errorPagePath(locale);
      const { page, watch, status, close } = await open(path, theme);
      expect(status).toBe(400);
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      await expectTheme(page, theme);
      expect(await page.isVisible('#error-view-title')).toBe(true);
      const correlation = (await page.textContent('.correlation-id')) ?? '';
      expect(correlation).toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
      expect(await page.getAttribute('.error-view a[href$="/support"]', 'href')).toBe(
        `${fixture.shell.t.config.services.grading}/support`,
      );
      // An unknown brand fails the same way every time: the way on starts over at the sign-in, in
      // the page's language, rather than loading the failed address again (issue 33).
      expect(await page.getAttribute('.error-view-actions a', 'href')).toBe(
        locale === 'en-US' ? '/signin' : `/signin?lang=${locale}`,
      );
      expect(await page.locator('.error-view .ui-spinner-status').count()).toBe(0);
      expect(await hydrationMutations(page)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await watch.all(documentStatusError(page, 400))).toEqual([]);
      await close();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the error page is reached with a plain Accept: text/html request too (no lang: en-US)',
    async () => {
      const context = await fixture.context({
        context: { extraHTTPHeaders: { accept: 'text/html' } },
      });
      const page = await context.newPage();
      const response = await page.goto(`${fixture.shell.t.url}/signin?b=nosuchbrand`);
      expect(response?.status()).toBe(400);
      await waitForHydration(page);
      expect(await page.getAttribute('html', 'lang')).toBe('en-US');
      expect(await page.textContent('.error-code')).toContain('InvalidBrand');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the CSP watch sees a violation: an inline style attribute the policy refuses',
    async () => {
      // A control for the CSP checks above: the server's markup gets a style attribute on its way.
      const context = await fixture.context({ cookies: fixture.cookies });
      const page = await context.newPage();
      const watch = watchPage(page);
      await page.route(`${fixture.shell.t.url}/collection`, async (route) => {
        const response = await route.fetch();
        const body = (await response.text()).replace('<main ', '<main style="color:red" ');
        await route.fulfill({ response, body });
      });
      await page.goto(`${fixture.shell.t.url}/collection`);
      await waitForHydration(page);
      expect((await watch.all()).join('\n')).toMatch(/csp: style-src(-attr)? blocked inline/);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the axe check sees violations: an unlabelled field and faint text added to the page',
    async () => {
      // A control for seriousViolations' settings (axe in the page, violations only): after
      // hydration the page gains a field with no label and grey text on white below 4.5:1.
      const context = await fixture.context({ cookies: fixture.cookies });
      const page = await context.newPage();
      await page.goto(`${fixture.shell.t.url}/collection`);
      await waitForHydration(page);
      await page.evaluate(() => {
        const main = document.querySelector('main');
        const field = document.createElement('input');
        field.type = 'text';
        const faint = document.createElement('p');
        faint.textContent = 'faint words';
        faint.style.cssText = 'color:#bbbbbb;background:#ffffff';
        main?.prepend(field, faint);
      });
      const found = (await seriousViolations(page)).map((line) => line.split(':')[0]);
      expect(found).toEqual(expect.arrayContaining(['label', 'color-contrast']));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the hydration check sees a mismatch: markup the client would not render is repaired',
    async () => {
      // A control for the checks above: the server's title is altered on its way to the browser, so
      // hydration must rewrite it, and the watch must report that.
      const context = await fixture.context({ cookies: fixture.cookies });
      const page = await context.newPage();
      await page.route(`${fixture.shell.t.url}/collection`, async (route) => {
        const response = await route.fetch();
        const body = (await response.text()).replace(
          /(<h1 id="account-summary-title">)[^<]*/,
          '$1Altered on the way',
        );
        await route.fulfill({ response, body });
      });
      await page.goto(`${fixture.shell.t.url}/collection`);
      await waitForHydration(page);
      const mutations = await hydrationMutations(page);
      expect(mutations.join('\n')).toContain('"Altered on the way" -> ');
      expect(await page.textContent('#account-summary-title')).not.toBe('Altered on the way');
    },
    TEST_TIMEOUT_MS,
  );
});
