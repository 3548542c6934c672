import type { Page } from 'playwright-core';
import {
  PHONE,
  TEST_TIMEOUT_MS,
  seriousViolations,
  useShellBrowser,
  watchPage,
} from '../support/shell-browser';

/** What makes a button look like one: the styles the collector sees. */
const LOOK = [
  'background-color',
  'color',
  'border-radius',
  'font-weight',
  'text-decoration-line',
] as const;

async function lookOf(page: Page, selector: string): Promise<Record<string, string>> {
  return page.$eval(
    selector,
    (element, names) => {
      const style = getComputedStyle(element);
      return Object.fromEntries(names.map((name) => [name, style.getPropertyValue(name)]));
    },
    [...LOOK],
  );
}

/** How far the label's centre is from the button's centre, in px (0 for a centred label). */
async function labelOffset(page: Page, selector: string): Promise<number> {
  return page.$eval(selector, (element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const text = range.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    return Math.abs(text.left + text.width / 2 - (box.left + box.width / 2));
  });
}

/**
 * Issue 33: the message pages' one way on (/unauthredirect's "Sign in again") is a link that must
 * look like the primary button of the sign-in steps it sits among, in every brand and locale: label
 * centred, not underlined, the same colours and shape as the sign-in page's own primary button.
 */
describe('the message pages in Chromium', () => {
  const fixture = useShellBrowser({ signedIn: false });

  const cases = (['psa', 'pcgs', 'goldin', 'collectors'] as const).flatMap((brand) =>
    (['en-US', 'fr-CA', 'ja-JP'] as const).map((locale) => [brand, locale] as const),
  );

  it.each(cases)(
    "/unauthredirect for %s in %s: 'Sign in again' looks like the sign-in page's primary button",
    async (brand, locale) => {
      const context = await fixture.context({ viewport: PHONE });
      const page = await context.newPage();
      const watch = watchPage(page);
      const lang = locale === 'en-US' ? '' : `&lang=${locale}`;
      await page.goto(`${fixture.shell.t.url}/signin?b=${brand}${lang}`);
      const primary = await lookOf(page, 'main .button.primary');

      const response = await page.goto(
        `${fixture.shell.t.url}/unauthredirect?error=Unauthorized&b=${brand}${lang}`,
      );
      expect(response?.status()).toBe(200);
      const action = 'main .actions a';
      expect(await lookOf(page, action)).toEqual(primary);
      expect(await lookOf(page, action)).toMatchObject({ 'text-decoration-line': 'none' });
      expect(await labelOffset(page, action)).toBeLessThan(2);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await watch.all()).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the signed-out landing (without script, so it stays) is a centred card like /unauthredirect',
    async () => {
      const context = await fixture.context({ context: { javaScriptEnabled: false } });
      const page = await context.newPage();
      await page.goto(`${fixture.shell.t.url}/unauthredirect?error=Unauthorized`);
      const card = await page.$eval('main.signin-card', (el) => el.getBoundingClientRect().width);
      await page.goto(`${fixture.shell.t.url}/handlelogoutredirect`);
      const landing = await page.$eval('.signed-out', (el) => {
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        return {
          width: box.width,
          centreOffset: Math.abs(box.left + box.width / 2 - window.innerWidth / 2),
          border: style.borderTopWidth,
        };
      });
      expect(Math.abs(landing.width - card)).toBeLessThan(2);
      expect(landing.centreOffset).toBeLessThan(2);
      expect(landing.border).toBe('1px');
    },
    TEST_TIMEOUT_MS,
  );
});
