import type { Page } from 'playwright-core';
import {
  DESKTOP,
  PHONE,
  TEST_TIMEOUT_MS,
  errorPagePath,
  seriousViolations,
  useShellBrowser,
  waitForHydration,
} from '../support/shell-browser';

/** The styles that make the card's box: the same on a sign-in step and on an error page. */
const CARD_BOX = [
  'background-color',
  'border-top-width',
  'border-top-color',
  'border-radius',
  'padding-top',
  'padding-left',
  'width',
] as const;

interface Placement {
  readonly box: Record<string, string>;
  /** How far the card's centre is from the page's, across. */
  readonly offCentreX: number;
  /** How far it is from the middle of the room between the header and the footer. */
  readonly offCentreY: number;
  /** The smallest gap between the card and the header or the footer. */
  readonly room: number;
  readonly footerBackground: string;
}

async function placementOf(page: Page, card: string): Promise<Placement> {
  return page.$eval(
    card,
    (element, names) => {
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      const header = document.querySelector('header')!.getBoundingClientRect();
      const footer = document.querySelector('footer')!.getBoundingClientRect();
      const above = box.top - header.bottom;
      const below = footer.top - box.bottom;
      return {
        box: Object.fromEntries(names.map((name) => [name, style.getPropertyValue(name)])),
        offCentreX: Math.abs(box.left + box.width / 2 - window.innerWidth / 2),
        offCentreY: Math.abs(above - below) / 2,
        room: Math.min(above, below),
        footerBackground: getComputedStyle(document.querySelector('footer')!).backgroundColor,
      };
    },
    [...CARD_BOX],
  );
}

/** The lines a reference id is drawn on (1 when it does not break); whether one click takes it. */
async function referenceOf(page: Page, selector: string) {
  return page.$eval(selector, (element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
    return {
      lines: tops.size,
      text: element.textContent ?? '',
      userSelect: getComputedStyle(element).userSelect,
      overflowsCard:
        element.getBoundingClientRect().right >
        element.closest('main')!.getBoundingClientRect().right,
    };
  });
}

/**
 * Issue 52 item 17, one card and one layout: the error page is drawn in the sign-in steps' card
 * (the same box, colour and place), centred with room around it at 1280 x 800 and not in the
 * footer's grey; its reference stays whole on one line and one click selects it; its heading
 * leaves no word alone on a line.
 */
describe('one card for the sign-in steps and the error pages, in Chromium', () => {
  const fixture = useShellBrowser({ signedIn: false });

  it.each(['light', 'dark'] as const)(
    'at 1280 x 800 (%s): the error page and the email step share the card, centred with room',
    async (theme) => {
      const context = await fixture.context({ viewport: DESKTOP, theme });
      const page = await context.newPage();
      await page.goto(`${fixture.shell.t.url}/signin`);
      const step = await placementOf(page, 'main.signin-card');

      await page.goto(`${fixture.shell.t.url}${errorPagePath('en-US')}`);
      await waitForHydration(page);
      const error = await placementOf(page, '.error-view');

      expect(error.box).toEqual(step.box);
      for (const card of [step, error]) {
        expect(card.offCentreX).toBeLessThan(3);
        expect(card.offCentreY).toBeLessThan(3);
        expect(card.room).toBeGreaterThanOrEqual(32);
        expect(card.box['background-color']).not.toBe(card.footerBackground);
      }
      expect(await seriousViolations(page)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it.each(['en-US', 'fr-CA', 'ja-JP'] as const)(
    'on a phone in %s: the reference on one line, selected in one click; a balanced heading',
    async (locale) => {
      const context = await fixture.context({ viewport: PHONE });
      const page = await context.newPage();
      await page.goto(`${fixture.shell.t.url}${errorPagePath(locale)}`);
      await waitForHydration(page);
      const reference = await referenceOf(page, '.correlation-id .reference-id');
      expect(reference.lines).toBe(1);
      expect(reference.text).toMatch(/^[\w-]{8,}$/);
      expect(reference.userSelect).toBe('all');
      expect(reference.overflowsCard).toBe(false);

      // Balanced: the heading's last line is not one word (or one Japanese phrase) under a full
      // one; its lines are within a third of each other's width.
      const widths = await page.$eval('.error-view h1', (element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        const lines = new Map<number, number>();
        for (const rect of range.getClientRects()) {
          const top = Math.round(rect.top);
          lines.set(top, (lines.get(top) ?? 0) + rect.width);
        }
        return [...lines.values()];
      });
      if (widths.length > 1) {
        expect(Math.min(...widths) / Math.max(...widths)).toBeGreaterThan(0.66);
      }
      expect(await seriousViolations(page)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
