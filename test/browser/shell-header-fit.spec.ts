import type { Cookie, Page } from 'playwright-core';
import {
  LOCALES,
  PHONE,
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

describe('phone header and brand (issue 33)', () => {
  const fixture = useShellBrowser();

  async function open(locale: string, viewport: { width: number; height: number }) {
    // The fixture's collector signed in with no brand: the collectors brand (its wide logo).
    const context = await fixture.context({ cookies: fixture.cookies, viewport });
    const page = await context.newPage();
    await page.goto(`${fixture.shell.t.url}/collection?lang=${locale}`);
    await waitForHydration(page);
    await page.evaluate(() => document.fonts.ready);
    return page;
  }

  /** The bar's shown children: their vertical centres, and the labels that take more than a line. */
  const barLayout = (page: Page) =>
    page.evaluate(() => {
      const lines = (element: Element): number => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      };
      const bar = document.querySelector('.site-header__bar');
      const shown = [...(bar?.querySelectorAll('a, button') ?? [])].filter(
        (el) => el.getBoundingClientRect().width > 0 && !el.closest('.site-header__skip'),
      );
      return {
        height: Math.round(bar?.getBoundingClientRect().height ?? 0),
        centres: [
          ...new Set(
            shown.map((el) => {
              const box = el.getBoundingClientRect();
              return Math.round(box.top + box.height / 2);
            }),
          ),
        ],
        multiLine: shown.filter((el) => lines(el) > 1).map((el) => el.textContent),
        pageScroll: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      };
    });

  it.each(LOCALES)(
    '%s, 390 px: the bar is one line; start submission is the menu’s first entry, on one line',
    async (locale) => {
      const page = await open(locale, PHONE);
      expect(await barLayout(page)).toEqual({
        height: 64,
        centres: [expect.any(Number)],
        multiLine: [],
        pageScroll: 0,
      });
      await page.click('.site-header__mobile-toggle');
      const submit = page.locator('#site-header-mobile-panel .site-header__mobile-submit');
      await submit.waitFor({ state: 'visible' });
      const box = await submit.boundingBox();
      expect(box?.height).toBeLessThanOrEqual(48);
      expect(await submit.getAttribute('href')).toMatch(/\/submit$/);
    },
    TEST_TIMEOUT_MS,
  );

  it.each(LOCALES)(
    '%s, 640 and 1024 px: start submission is in the bar, on one line, and not in the menu',
    async (locale) => {
      for (const width of [640, 1024]) {
        const page = await open(locale, { width, height: 800 });
        const layout = await barLayout(page);
        expect({ width, ...layout, height: layout.height <= 64 }).toEqual({
          width,
          height: true,
          centres: [expect.any(Number)],
          multiLine: [],
          pageScroll: 0,
        });
        expect(await page.locator('.site-header__bar .site-header__submit').isVisible()).toBe(true);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it.each(LOCALES)(
    '%s, 768, 1024 and 1280 px: the footer’s bottom bar is one row, the social icons at its end',
    async (locale) => {
      for (const width of [768, 1024, 1280]) {
        const page = await open(locale, { width, height: 800 });
        const rows = await page.evaluate(() => {
          const bar = document.querySelector('.site-footer__bottom');
          const parts = [...(bar?.children ?? [])].map((el) => el.getBoundingClientRect());
          // Two parts share a row when their vertical extents overlap.
          const first = parts[0];
          return {
            parts: parts.length,
            offRow: parts.filter((r) => !first || r.top >= first.bottom || r.bottom <= first.top)
              .length,
            socialLast:
              bar?.lastElementChild?.classList.contains('site-footer__social') === true &&
              Math.round(bar.lastElementChild.getBoundingClientRect().right) ===
                Math.round(bar.getBoundingClientRect().right),
          };
        });
        expect({ width, ...rows }).toEqual({
          width,
          parts: expect.any(Number),
          offRow: 0,
          socialLast: true,
        });
      }
    },
    TEST_TIMEOUT_MS,
  );

  it.each([PHONE, { width: 1280, height: 800 }])(
    'after a sign-in with no brand, the header and the footer show the same brand (%o)',
    async (viewport) => {
      const page = await open('en-US', viewport);
      const logos = await page.evaluate(() =>
        ['.site-header__logo img', 'img.site-footer__logo'].map((selector) =>
          document
            .querySelector(selector)
            ?.getAttribute('src')
            ?.replace(/-[a-z]+\.svg$/, ''),
        ),
      );
      expect(logos).toEqual(['/static/brand/logo-collectors', '/static/brand/logo-collectors']);
    },
    TEST_TIMEOUT_MS,
  );
});
