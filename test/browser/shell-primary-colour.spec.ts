import type { Page } from 'playwright-core';
import { contrastRatio } from '../support/contrast';
import {
  TEST_TIMEOUT_MS,
  errorPagePath,
  useShellBrowser,
  waitForHydration,
} from '../support/shell-browser';

const colours = (page: Page, selector: string) =>
  page.$eval(selector, (el) => {
    const style = getComputedStyle(el);
    return {
      background: style.backgroundColor,
      color: style.color,
      page: getComputedStyle(document.body).backgroundColor,
    };
  });

/**
 * Issue 33: the shell's primary colour is the sign-in pages' navy, so the product looks the same
 * from the sign-in steps to the collector's account; the dark theme keeps WCAG AA contrast.
 */
describe("the shell's primary colour in Chromium", () => {
  const fixture = useShellBrowser();

  it(
    "light theme: the primary and secondary buttons are the sign-in page's navy",
    async () => {
      const context = await fixture.context({ theme: 'light' });
      const page = await context.newPage();
      await page.goto(`${fixture.shell.t.url}/signin`);
      const navy = (await colours(page, 'main .button.primary')).background;
      expect(navy).toBe('rgb(11, 42, 74)');

      await page.goto(`${fixture.shell.t.url}${errorPagePath('en-US')}`);
      await waitForHydration(page);
      const primary = await colours(page, '.error-view-actions .ui-button--primary');
      expect(primary.background).toBe(navy);
      expect(contrastRatio(primary.color, primary.background)).toBeGreaterThanOrEqual(4.5);

      const signedIn = await fixture.context({ cookies: fixture.cookies, theme: 'light' });
      const account = await signedIn.newPage();
      await account.goto(`${fixture.shell.t.url}/collection`);
      await waitForHydration(account);
      const secondary = await colours(account, '.account-summary-actions .ui-button--secondary');
      expect(secondary.color).toBe(navy);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'dark theme: the primary button and links keep WCAG AA contrast',
    async () => {
      const context = await fixture.context({ theme: 'dark' });
      const page = await context.newPage();
      await page.goto(`${fixture.shell.t.url}${errorPagePath('en-US')}`);
      await waitForHydration(page);
      const primary = await colours(page, '.error-view-actions .ui-button--primary');
      expect(contrastRatio(primary.color, primary.background)).toBeGreaterThanOrEqual(4.5);
      // The button's fill against the page (WCAG 1.4.11, 3:1 for a control's boundary).
      expect(contrastRatio(primary.background, primary.page)).toBeGreaterThanOrEqual(3);
      const link = await colours(page, '.error-view a[href$="/support"]');
      expect(contrastRatio(link.color, link.page)).toBeGreaterThanOrEqual(4.5);
    },
    TEST_TIMEOUT_MS,
  );
});
