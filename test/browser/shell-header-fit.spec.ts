import type { Cookie, Page } from 'playwright-core';
import {
  LOCALES,
  TEST_TIMEOUT_MS,
  signedInCookies,
  useShellBrowser,
  waitForHydration,
} from '../support/shell-browser';

/**
 * Issue 33, the full header's layout measured in Chromium on the boxes it lays out: the desktop
 * navigation on one line from 1024 px up, in every locale, and the phone's header bar on one line.
 */

/** The desktop widths the navigation must fit on one line at (DESKTOP_MIN_WIDTH and a laptop). */
const DESKTOP_WIDTHS = [1024, 1280] as const;

/**
 * How the navigation row is laid out: each top-level entry's top, the number of lines each label
 * takes (its text's line boxes, Range.getClientRects, one per line), and whether the entries overflow
 * the row.
 */
function navLayout(page: Page) {
  return page.evaluate(() => {
    const lines = (element: Element): number => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    };
    const nav = document.querySelector('.site-header__nav');
    const list = document.querySelector('.site-header__nav-list');
    const items = [...document.querySelectorAll('.site-header__nav-item')];
    const labels = [
      ...items.map((item) => item.querySelector('a, button span')),
      document.querySelector('.site-header__account button span, .site-header__sign-in'),
    ].filter((label): label is Element => label !== null);
    return {
      visible: nav !== null && nav.getBoundingClientRect().width > 0,
      tops: [...new Set(items.map((item) => Math.round(item.getBoundingClientRect().top)))],
      multiLine: labels.filter((label) => lines(label) > 1).map((label) => label.textContent),
      overflow: list ? list.scrollWidth - list.clientWidth : -1,
      pageScroll: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  });
}

describe('full header layout (issue 33)', () => {
  // With the getting-started flag the first entry is a dropdown (a chevron more than the link).
  const fixture = useShellBrowser({ env: { ENABLED_FEATURES: 'gettingStarted' } });
  /** A grading-brand session: the §2 account menu, whose button ends the navigation row. */
  let gradingCookies: Cookie[] = [];
  beforeAll(async () => {
    gradingCookies = await signedInCookies(fixture.shell.t, undefined, 'psa');
  }, TEST_TIMEOUT_MS);

  async function open(locale: string, width: number, cookies: Cookie[]): Promise<Page> {
    const context = await fixture.context({ cookies, viewport: { width, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${fixture.shell.t.url}/collection?lang=${locale}`);
    await waitForHydration(page);
    await page.evaluate(() => document.fonts.ready);
    return page;
  }

  it.each(LOCALES)(
    '%s: the desktop navigation is one line of entries, each label on one line, at 1024 and 1280 px',
    async (locale) => {
      for (const width of DESKTOP_WIDTHS) {
        for (const cookies of [gradingCookies, fixture.cookies]) {
          const layout = await navLayout(await open(locale, width, cookies));
          expect({ width, ...layout }).toEqual({
            width,
            visible: true,
            tops: [expect.any(Number)],
            multiLine: [],
            overflow: 0,
            pageScroll: 0,
          });
        }
      }
    },
    TEST_TIMEOUT_MS,
  );
});
