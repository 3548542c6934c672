import type { Page } from 'playwright-core';
import {
  PHONE,
  TEST_TIMEOUT_MS,
  errorPagePath,
  useShellBrowser,
  waitForHydration,
} from '../support/shell-browser';

/**
 * Issue 33, Japanese text in Chromium: a Japanese system font, and line breaking that never splits a
 * word (the error page's heading broke エラー as エラ / ー) nor starts a line with a small kana, the
 * long-vowel mark or a closing mark. Words are Intl.Segmenter's.
 */

/** Characters a Japanese line must not start with (line-break: strict). */
const NO_LINE_START = 'ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ、。）」』！？';

/**
 * Every line of the page's text that starts with a character in `forbidden`: each text node's
 * characters are laid out one by one (Range.getClientRects), and a character whose top is below the
 * one before it starts a line.
 */
function badLineStarts(page: Page, forbidden: string): Promise<string[]> {
  return page.evaluate((chars) => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      let lastTop: number | undefined;
      for (let i = 0; i < text.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect || rect.width === 0) continue;
        if (lastTop !== undefined && rect.top > lastTop + 2 && chars.includes(text[i] ?? ''))
          found.push(`${text.slice(Math.max(0, i - 4), i)} / ${text.slice(i, i + 4)}`);
        lastTop = rect.top;
      }
    }
    return found;
  }, forbidden);
}

describe('Japanese text (issue 33)', () => {
  const fixture = useShellBrowser();

  async function open(path: string, viewport = PHONE): Promise<Page> {
    const context = await fixture.context({ cookies: fixture.cookies, viewport });
    const page = await context.newPage();
    await page.goto(`${fixture.shell.t.url}${path}`);
    await waitForHydration(page);
    await page.evaluate(() => document.fonts.ready);
    return page;
  }

  it(
    'the error page’s heading breaks only between words, even at its narrowest, in a Japanese font',
    async () => {
      const page = await open(errorPagePath('ja-JP'));
      const heading = await page.locator('h1').evaluate((h1) => {
        const text = h1.textContent ?? '';
        /** Where a line starts inside a word: the text around each such break. */
        const splitWords = () => {
          const words = new Set(
            [...new Intl.Segmenter('ja', { granularity: 'word' }).segment(text)].map(
              (s) => s.index,
            ),
          );
          const node = h1.firstChild;
          const range = document.createRange();
          const splits: string[] = [];
          let lastTop: number | undefined;
          for (let i = 0; node && i < text.length; i++) {
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const top = range.getClientRects()[0]?.top;
            if (top === undefined) continue;
            if (lastTop !== undefined && top > lastTop + 2 && !words.has(i))
              splits.push(`${text.slice(0, i)} / ${text.slice(i)}`);
            lastTop = top;
          }
          return splits;
        };
        const atWidth = splitWords();
        // Its min-content width: the narrowest box its own line-breaking rules allow.
        (h1 as HTMLElement).style.width = 'min-content';
        const narrowest = splitWords();
        return {
          oneTextNode: h1.childNodes.length === 1,
          atWidth,
          narrowest,
          font: getComputedStyle(h1).fontFamily.split(',')[0]?.trim(),
        };
      });
      expect(heading).toEqual({
        oneTextNode: true,
        atWidth: [],
        narrowest: [],
        font: '"Hiragino Sans"',
      });
    },
    TEST_TIMEOUT_MS,
  );

  it.each(['/collection', errorPagePath('ja-JP')])(
    '%s at 390 px: no line starts with a small kana, ー or a closing mark',
    async (path) => {
      const page = await open(path.startsWith('/collection') ? `${path}?lang=ja-JP` : path);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja-JP');
      expect(await badLineStarts(page, NO_LINE_START)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
