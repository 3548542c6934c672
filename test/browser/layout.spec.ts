import type { Page } from 'playwright-core';
import {
  DESKTOP,
  PHONE,
  TEST_TIMEOUT_MS,
  errorPagePath,
  signedInCookies,
  useShellBrowser,
  waitForHydration,
} from '../support/shell-browser';

/**
 * Issue 16 item 5: pages that look finished. Every page, at a phone's 390 px and a desktop's 1280 px,
 * in both themes and the three languages with the longest (fr-CA) and widest (ja-JP) texts: no
 * horizontal scroll, no two pieces of text on top of each other, no text cut off by its box. Measured
 * on the element boxes Chromium lays out, not on screenshots. And the sessions page's rows line up
 * as a table on a desktop and stack on a phone.
 */
describe('layout: every page fits a phone and a desktop', () => {
  const fixture = useShellBrowser();

  /** What is wrong with the page's layout, as readable lines (empty when nothing is). */
  async function layoutProblems(page: Page): Promise<string[]> {
    return page.evaluate(() => {
      const problems: string[] = [];
      const root = document.documentElement;
      if (root.scrollWidth > root.clientWidth + 1)
        problems.push(`horizontal scroll: ${root.scrollWidth} > ${root.clientWidth}`);
      const visible = (el: Element) => {
        const style = getComputedStyle(el);
        const box = el.getBoundingClientRect();
        return (
          style.visibility !== 'hidden' &&
          style.display !== 'none' &&
          box.width > 0 &&
          box.height > 0 &&
          !el.closest('[hidden], .visually-hidden, .skip-link, .site-header__skip')
        );
      };
      // Elements that hold text themselves (a text node child with something in it).
      const texts = [...document.body.querySelectorAll('*')].filter(
        (el) =>
          visible(el) &&
          [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim()),
      );
      const name = (el: Element) =>
        `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
      for (const el of texts) {
        // Cut off: the text is wider or taller than a box that clips it.
        const style = getComputedStyle(el);
        const clips =
          ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
        if (clips && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1))
          problems.push(`cut off: ${name(el)}`);
        const box = el.getBoundingClientRect();
        if (box.right > root.clientWidth + 1 || box.left < -1)
          problems.push(`outside the viewport: ${name(el)}`);
      }
      // Overlap: two texts, neither inside the other, whose line boxes share more than a sliver
      // (getClientRects: an inline text that wraps has one box per line, not its bounding square).
      // Each line box as far as it is seen: clipped by every ancestor that scrolls or clips (a
      // scrolled panel's hidden part is no overlap).
      const clipped = (el: Element): DOMRect[] => {
        let rects = [...el.getClientRects()];
        for (let a = el.parentElement; a; a = a.parentElement) {
          const style = getComputedStyle(a);
          if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
          const c = a.getBoundingClientRect();
          rects = rects
            .map(
              (r) =>
                new DOMRect(
                  Math.max(r.left, c.left),
                  Math.max(r.top, c.top),
                  Math.min(r.right, c.right) - Math.max(r.left, c.left),
                  Math.min(r.bottom, c.bottom) - Math.max(r.top, c.top),
                ),
            )
            .filter((r) => r.width > 0 && r.height > 0);
        }
        return rects;
      };
      const lines = texts.map(clipped);
      for (let i = 0; i < texts.length; i++) {
        for (let j = i + 1; j < texts.length; j++) {
          const a = texts[i] as Element;
          const b = texts[j] as Element;
          if (a.contains(b) || b.contains(a)) continue;
          const overlaps = (lines[i] ?? []).some((ra) =>
            (lines[j] ?? []).some((rb) => {
              const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
              const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
              return w > 2 && h > 2;
            }),
          );
          if (overlaps) problems.push(`overlap: ${name(a)} and ${name(b)}`);
        }
      }
      return problems;
    });
  }

  /** `hydrated`: a shell page (its script hydrates it); the others are server-only pages. */
  const PAGES: readonly {
    name: string;
    path: (locale: string) => string;
    signedIn: boolean;
    hydrated?: boolean;
  }[] = [
    {
      name: 'landing',
      path: (l) => (l === 'en-US' ? '/collection' : `/${l}/collection`),
      signedIn: true,
    },
    {
      name: 'sessions',
      path: (l) => (l === 'en-US' ? '/account/sessions' : `/${l}/account/sessions`),
      signedIn: true,
    },
    { name: 'error page', path: (l) => errorPagePath(l), signedIn: false },
    {
      name: 'unauthorized',
      path: (l) => `/unauthredirect?error=Unauthorized&lang=${l}`,
      signedIn: false,
    },
    { name: 'sign-in step', path: (l) => `/signin?lang=${l}`, signedIn: false },
  ];
  const CASES = PAGES.flatMap((p) =>
    (['en-US', 'fr-CA', 'ja-JP'] as const).flatMap((locale) =>
      (['light', 'dark'] as const).map((theme) => [p.name, locale, theme, p] as const),
    ),
  );

  it.each(CASES)(
    '%s, %s, %s: fits 390 px and 1280 px',
    async (_name, locale, theme, target) => {
      for (const viewport of [PHONE, DESKTOP]) {
        const context = await fixture.context({
          ...(target.signedIn ? { cookies: fixture.cookies } : {}),
          theme,
          viewport,
        });
        const page = await context.newPage();
        await page.goto(`${fixture.shell.t.url}${target.path(locale)}`);
        if (target.name === 'sign-in step') await page.waitForURL(/\/idp\/signin\//);
        if (target.hydrated) await waitForHydration(page);
        await page.evaluate(() => document.fonts.ready);
        expect({ viewport: viewport.width, problems: await layoutProblems(page) }).toEqual({
          viewport: viewport.width,
          problems: [],
        });
        await context.close();
      }
    },
    TEST_TIMEOUT_MS,
  );

  it.each(['en-US', 'fr-CA', 'ja-JP'])(
    'the mobile panel, every section open, %s: fits 390 px',
    async (locale) => {
      const context = await fixture.context({ cookies: fixture.cookies, viewport: PHONE });
      const page = await context.newPage();
      await page.goto(`${fixture.shell.t.url}${locale === 'en-US' ? '' : `/${locale}`}/collection`);
      await waitForHydration(page);
      await page.click('button[aria-controls="site-header-mobile-panel"]');
      const panel = page.locator('#site-header-mobile-panel');
      await panel.waitFor({ state: 'visible' });
      // Open one closed section at a time (each click changes what the locator matches).
      const closed = panel.locator('button[aria-expanded="false"]');
      for (let left = await closed.count(); left > 0; left = await closed.count())
        await closed.first().click();
      expect(await layoutProblems(page)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the sessions page: rows line up as a table on a desktop and stack on a phone',
    async () => {
      // A second session of the same collector, so there are rows to line up.
      await signedInCookies(fixture.shell.t);
      const cells = async (viewport: { width: number; height: number }) => {
        const context = await fixture.context({ cookies: fixture.cookies, viewport });
        const page = await context.newPage();
        await page.goto(`${fixture.shell.t.url}/fr-CA/account/sessions`);
        await waitForHydration(page);
        const rows = await page.$$eval('.session-item', (items) =>
          items.map((item) =>
            [
              ...item.querySelectorAll('.session-facts > div, .session-status, .session-action'),
            ].map((cell) => Math.round(cell.getBoundingClientRect().left)),
          ),
        );
        const width = await page.evaluate(() => document.documentElement.clientWidth);
        await context.close();
        return { rows, width };
      };
      const desktop = await cells(DESKTOP);
      expect(desktop.rows.length).toBeGreaterThanOrEqual(2);
      // Same columns in every row, and more than one column.
      for (const row of desktop.rows) expect(row).toEqual(desktop.rows[0]);
      expect(new Set(desktop.rows[0]).size).toBeGreaterThan(3);
      // A phone: every cell starts at the row's left edge, one under the other.
      const phone = await cells(PHONE);
      for (const row of phone.rows) expect(new Set(row.filter((x) => x > 0)).size).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );
});
