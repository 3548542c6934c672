import * as fs from 'node:fs';
import * as path from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import type { Locator, Page } from 'playwright-core';

/**
 * The screenshot safety net (issue 33 item 3): every page a collector sees, in each locale, width and
 * theme, compared with a baseline image committed under test/browser/__screenshots__/, plus the
 * layout checks no person should have to make by eye.
 *
 * Baselines are written on purpose only: `npm run test:screenshots:update` (UPDATE_SCREENSHOTS=1).
 * A run without one fails and says so; a run that differs writes the image it took and a diff
 * beside each other under .test-data/screenshots/ so the change can be looked at.
 */
export const BASELINES = path.resolve(__dirname, '../browser/__screenshots__');
const DIFFS = path.resolve(__dirname, '../../.test-data/screenshots');
const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';

export const VISUAL_LOCALES = ['en-US', 'fr-CA', 'ja-JP'] as const;
export const VISUAL_THEMES = ['light', 'dark'] as const;
export type VisualLocale = (typeof VISUAL_LOCALES)[number];
export type VisualTheme = (typeof VISUAL_THEMES)[number];

/** The two widths of the issue: a phone (390×844) and a desktop (1280×800). */
export const VISUAL_WIDTHS = [
  { name: '390', viewport: { width: 390, height: 844 } },
  { name: '1280', viewport: { width: 1280, height: 800 } },
] as const;

/**
 * How far a screenshot may stray from its baseline: pixelmatch's per-pixel colour threshold (0.1, its
 * default, ignores anti-aliasing shifts), then at most this share of the pixels may differ. Chromium
 * draws the same page the same way on one machine; the share absorbs sub-pixel text rendering that
 * varies between runs, while a moved block, a changed word or a new colour is far above it.
 */
const PIXEL_THRESHOLD = 0.1;
const MAX_DIFFERENT_SHARE = 0.002;

/** A screenshot's name: `<page>.<locale>.<width>.<theme>`, one PNG per name. */
export function shotName(page: string, locale: string, width: string, theme: string): string {
  return `${page}.${locale}.${width}.${theme}`;
}

/**
 * Waits until every image of the page is loaded and decoded. The brand logos load lazily
 * (BrandLogo.tsx), so the page's load event does not wait for them: on a busy machine a picture
 * once caught the header and footer without their logos. Lazy images are asked for now, as a
 * scroll would.
 */
async function imagesDrawn(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await Promise.all(
      [...document.images].map(async (image) => {
        if (image.loading === 'lazy') image.loading = 'eager';
        if (!image.complete) {
          await new Promise((settled) => {
            image.addEventListener('load', settled, { once: true });
            image.addEventListener('error', settled, { once: true });
          });
        }
        await image.decode().catch(() => undefined);
      }),
    );
  });
}

/** The footer's copyright year, painted over in every picture: it changes each January. */
export const copyrightYear = (page: Page): Locator[] => [page.locator('footer').getByText(/©/)];

/**
 * One state of a page pictured at each of VISUAL_WIDTHS, resized as it stands (fonts loaded): the
 * layout rules and the comparison with its baseline, each problem named by its picture
 * (`state.locale.width.theme`). Empty when every picture holds.
 */
export async function pictureProblems(
  page: Page,
  state: string,
  locale: string,
  theme: string,
  volatile: (page: Page) => readonly Locator[] = copyrightYear,
): Promise<string[]> {
  const problems: string[] = [];
  await page.evaluate(() => document.fonts.ready);
  for (const { name: width, viewport } of VISUAL_WIDTHS) {
    await page.setViewportSize(viewport);
    const name = shotName(state, locale, width, theme);
    for (const problem of await layoutProblems(page)) problems.push(`${name}: ${problem}`);
    const mismatch = await matchesBaseline(page, name, volatile(page));
    if (mismatch) problems.push(mismatch);
  }
  return problems;
}

/**
 * Takes the whole page (animations stopped, caret hidden, `volatile` parts painted over: what
 * changes from run to run, such as a time or a collector number) and compares it with its baseline.
 * Returns a problem, or undefined when it matches.
 */
export async function matchesBaseline(
  page: Page,
  name: string,
  volatile: readonly Locator[] = [],
): Promise<string | undefined> {
  await imagesDrawn(page);
  const png = await page.screenshot({
    fullPage: true,
    animations: 'disabled',
    caret: 'hide',
    mask: [...volatile],
    maskColor: '#8a2be2',
  });
  const file = path.join(BASELINES, `${name}.png`);
  if (UPDATE) {
    fs.mkdirSync(BASELINES, { recursive: true });
    fs.writeFileSync(file, png);
    return undefined;
  }
  if (!fs.existsSync(file))
    return `${name}: no baseline (npm run test:screenshots:update writes one; look at it first)`;
  const baseline = fs.readFileSync(file);
  // Chromium draws and encodes an unchanged page to the same bytes: most pictures end here, and
  // decoding two PNGs for pixelmatch costs ~0.7 s of CPU per full page (measured on 324 pictures).
  if (baseline.equals(png)) return undefined;
  const expected = PNG.sync.read(baseline);
  const actual = PNG.sync.read(png);
  const keep = (diff?: PNG) => {
    fs.mkdirSync(DIFFS, { recursive: true });
    fs.writeFileSync(path.join(DIFFS, `${name}.actual.png`), png);
    if (diff) fs.writeFileSync(path.join(DIFFS, `${name}.diff.png`), PNG.sync.write(diff));
  };
  if (expected.width !== actual.width || expected.height !== actual.height) {
    keep();
    return `${name}: ${actual.width}×${actual.height}, the baseline is ${expected.width}×${expected.height}`;
  }
  const diff = new PNG({ width: actual.width, height: actual.height });
  const different = pixelmatch(expected.data, actual.data, diff.data, actual.width, actual.height, {
    threshold: PIXEL_THRESHOLD,
  });
  const share = different / (actual.width * actual.height);
  if (share <= MAX_DIFFERENT_SHARE) return undefined;
  keep(diff);
  return `${name}: ${different} pixels (${(share * 100).toFixed(2)}%) differ from the baseline`;
}

/**
 * What a person would see wrong on the page as it stands, by rule rather than by eye:
 * - text that still holds a `{placeholder}` (a message rendered without its argument);
 * - a page wider than the viewport (sideways scrolling on a phone);
 * - anything drawn as a button (a background or a border of its own) whose label is underlined or
 *   not centred within it;
 * - text clipped by its box (overflow hidden with more content than room; ellipsis included).
 * Returns one line per problem.
 */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const describe = (el: Element): string => {
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const cls = typeof el.className === 'string' ? el.className.split(' ')[0] : '';
      return `${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''} "${text}"`;
    };
    const shown = (el: Element): boolean => {
      const box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) return false;
      const style = getComputedStyle(el);
      return style.visibility !== 'hidden' && style.display !== 'none' && style.opacity !== '0';
    };
    const placeholders = document.body.innerText.match(/\{[A-Za-z_][\w.]*\}/g);
    if (placeholders) problems.push(`placeholder text: ${[...new Set(placeholders)].join(', ')}`);
    const wide = document.documentElement.scrollWidth;
    if (wide > window.innerWidth + 1)
      problems.push(`the page is ${wide} px wide in a ${window.innerWidth} px viewport`);

    const controls = document.querySelectorAll(
      'button, a[role="button"], input[type="submit"], a[class*="button"], a[class*="btn"]',
    );
    for (const el of controls) {
      if (!shown(el)) continue;
      const style = getComputedStyle(el);
      const painted =
        style.backgroundColor !== 'rgba(0, 0, 0, 0)' && style.backgroundColor !== 'transparent';
      const bordered = parseFloat(style.borderTopWidth) > 0 && style.borderTopStyle !== 'none';
      if (!painted && !bordered) continue; // drawn as a link or an icon: not a button to the eye
      // A disclosure (an accordion's row, a menu's trigger) is a row with its label at the start.
      if (el.hasAttribute('aria-expanded')) continue;
      const label = (el.textContent ?? '').trim();
      if (!label) continue;
      const underlined = [el, ...el.querySelectorAll('*')].some((node) =>
        getComputedStyle(node).textDecorationLine.includes('underline'),
      );
      if (underlined) problems.push(`underlined button label: ${describe(el)}`);
      const range = document.createRange();
      range.selectNodeContents(el);
      const content = range.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      const offset = Math.abs(content.left + content.right - (box.left + box.right)) / 2;
      if (content.width > 0 && offset > 3)
        problems.push(`button label ${offset.toFixed(0)} px off centre: ${describe(el)}`);
    }

    for (const el of document.body.querySelectorAll('*')) {
      const ownText = [...el.childNodes].some(
        (n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '',
      );
      if (!ownText || !shown(el)) continue;
      const style = getComputedStyle(el);
      // Visually hidden text for screen readers is clipped on purpose.
      if (style.position === 'absolute' && el.getBoundingClientRect().width <= 2) continue;
      const clipsX = ['hidden', 'clip'].includes(style.overflowX);
      const clipsY = ['hidden', 'clip'].includes(style.overflowY);
      if (clipsX && el.scrollWidth > el.clientWidth + 1)
        problems.push(`text cut off at the side: ${describe(el)}`);
      else if (clipsY && el.scrollHeight > el.clientHeight + 1)
        problems.push(`text cut off below: ${describe(el)}`);
    }
    return problems;
  });
}
