import type { Page } from 'playwright-core';
import {
  TEST_TIMEOUT_MS,
  seriousViolations,
  useShellBrowser,
  watchPage,
} from '../support/shell-browser';
import {
  VISUAL_THEMES,
  VISUAL_WIDTHS,
  copyrightYear,
  layoutProblems,
  matchesBaseline,
  shotName,
} from '../support/visual';

/**
 * Issue 52 item 20: the local tools a newcomer opens first, /idp/outbox and /demo/brand/:brand,
 * look like part of the product: its frame (header, footer, the brand's logo), its card, headings
 * and theme, and a table that reads on a phone. Pictured at both widths in both themes, checked by
 * the layout rules and axe. Their words are English whatever the locale (a developer's pages, as
 * the documentation that links them), so one locale's pictures stand for all.
 */
describe('the local tools in Chromium', () => {
  const fixture = useShellBrowser();

  /** A real registration's code, so the outbox has a message (sent, not stored by the test). */
  async function sendACode(page: Page, email: string): Promise<void> {
    await page.goto(`${fixture.shell.t.url}/signin?b=collectors`);
    await page.waitForURL(/\/idp\/signin\//);
    await page.fill('#field-email', email);
    await Promise.all([page.waitForNavigation(), page.click('button[value="submit"]')]);
    await page.fill('#field-givenName', 'Robin');
    await page.fill('#field-familyName', 'Outbox');
    await page.fill('#field-newPassword', 'N3w!Collector-pass');
    await page.check('#field-acceptTerms');
    await Promise.all([page.waitForNavigation(), page.click('button[value="submit"]')]);
  }

  it.each(VISUAL_THEMES)(
    'the outbox and the demo brand site, at both widths, in the %s theme',
    async (theme) => {
      const problems: string[] = [];
      const anonymous = await fixture.context({ theme });
      const page = await anonymous.newPage();
      await sendACode(page, `outbox-${theme}@example.com`);
      const signedIn = await fixture.context({ theme, cookies: fixture.cookies });
      const brandPage = await signedIn.newPage();
      const shots: [string, Page, string, (p: Page) => ReturnType<Page['locator']>[]][] = [
        [
          'outbox',
          page,
          `/idp/outbox?to=${encodeURIComponent(`outbox-${theme}@example.com`)}`,
          (p) => [
            ...copyrightYear(p),
            p.locator('.tool-table__time'),
            p.locator('.tool-table__text'),
          ],
        ],
        [
          'demo-brand',
          brandPage,
          '/signin?b=psa',
          (p) => [...copyrightYear(p), p.locator('[data-claim]')],
        ],
      ];
      for (const [name, tab, path, volatile] of shots) {
        const watch = watchPage(tab);
        for (const { name: width, viewport } of VISUAL_WIDTHS) {
          await tab.setViewportSize(viewport);
          await tab.goto(`${fixture.shell.t.url}${path}`);
          await tab.evaluate(() => document.fonts.ready);
          // The product's frame and card, in the collector's theme.
          expect(await tab.locator('html').getAttribute('class')).toBe(`theme-${theme}`);
          expect(await tab.locator('main.signin-card h1').count()).toBe(1);
          expect(await tab.locator('header, footer').count()).toBe(2);
          const shot = shotName(name, 'en-US', width, theme);
          for (const problem of await layoutProblems(tab)) problems.push(`${shot}: ${problem}`);
          const mismatch = await matchesBaseline(tab, shot, volatile(tab));
          if (mismatch) problems.push(mismatch);
          expect({ shot, axe: await seriousViolations(tab) }).toEqual({ shot, axe: [] });
        }
        expect(await watch.all()).toEqual([]);
      }
      expect(await page.locator('.tool-table tbody tr').count()).toBeGreaterThan(0);
      expect(await brandPage.locator('[data-claim="uid"]').textContent()).not.toBe('');
      expect(problems).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
