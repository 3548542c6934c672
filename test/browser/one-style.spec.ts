import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import { Browser } from '../support/browser';
import { locationOf, signInVia } from '../support/signin-journey';
import {
  DESKTOP,
  PHONE,
  TEST_TIMEOUT_MS,
  seriousViolations,
  useShellBrowser,
  waitForHydration,
} from '../support/shell-browser';

/** The styles that make an action's look: weight, outline and underline. */
const LOOK = [
  'font-weight',
  'border-top-width',
  'border-top-style',
  'border-top-color',
  'color',
  'text-decoration-line',
  'text-underline-offset',
] as const;

function lookOf(page: Page, selector: string): Promise<Record<string, string>> {
  return page.$eval(
    selector,
    (element, names) => {
      const style = getComputedStyle(element);
      return Object.fromEntries(names.map((name) => [name, style.getPropertyValue(name)]));
    },
    [...LOOK],
  );
}

/** The look a rule of the page's own stylesheets gives (the shell's ui.css), as declared. */
function declaredLook(page: Page, selector: string): Promise<Record<string, string>> {
  return page.evaluate(
    ({ selector, names }) => {
      for (const sheet of document.styleSheets)
        for (const rule of sheet.cssRules)
          if (rule instanceof CSSStyleRule && rule.selectorText.split(/,\s*/).includes(selector))
            return Object.fromEntries(
              names
                .map((name): [string, string] => [name, rule.style.getPropertyValue(name)])
                .filter(([, value]) => value !== ''),
            );
      return {};
    },
    { selector, names: ['font-weight', 'text-decoration', 'text-underline-offset'] },
  );
}

/** Where the first character of each element's text starts, across. */
function textStarts(page: Page, selector: string): Promise<number[]> {
  return page.$$eval(selector, (elements) =>
    elements
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return Math.round(range.getClientRects()[0]?.left ?? -1);
      }),
  );
}

/**
 * Issue 52 item 18, one style per role, and item 19, Japanese typography, where a collector looks:
 * in Chromium, by the computed styles and the boxes.
 */
describe('one style per role, in Chromium', () => {
  const fixture = useShellBrowser();

  async function signInPassword(page: Page, email: string, lang = ''): Promise<void> {
    await page.goto(`${fixture.shell.t.url}/signin${lang}`);
    await page.waitForURL(/\/idp\/signin\//);
    await page.fill('#field-email', email);
    await Promise.all([page.waitForNavigation(), page.click('button[value="submit"]')]);
  }

  it(
    'secondary actions: the sign-in pages outline theirs as the shell does; links underlined alike',
    async () => {
      const shell = await (await fixture.context({ cookies: fixture.cookies })).newPage();
      await shell.goto(`${fixture.shell.t.url}/collection`);
      await waitForHydration(shell);
      const shellSecondary = await lookOf(shell, '.account-summary-actions .ui-button--secondary');
      const shellLink = await declaredLook(shell, '.ui-button--link');

      // The demo brand site, in the journey's frame: its "Sign out" is a secondary action.
      await shell.goto(`${fixture.shell.t.url}/signin?b=psa`);
      await shell.waitForURL(/\/demo\/brand\/psa/);
      expect(await lookOf(shell, 'main .button.secondary')).toEqual(shellSecondary);

      const anonymous = await (await fixture.context()).newPage();
      await signInPassword(anonymous, 'collector@example.com');
      for (const action of ['forgot', 'back']) {
        const look = await lookOf(anonymous, `button[value="${action}"]`);
        expect({ action, ...look }).toMatchObject({
          action,
          'font-weight': shellLink['font-weight'],
          'text-decoration-line': 'underline',
          'border-top-style': 'none',
        });
        expect(shellLink['text-underline-offset']).toBe('0.15em');
        expect(Number.parseFloat(look['text-underline-offset'] ?? '')).toBeCloseTo(16 * 0.15, 1);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the mobile menu: every entry of the panel starts on one left edge',
    async () => {
      const context = await fixture.context({ cookies: fixture.cookies, viewport: PHONE });
      const page = await context.newPage();
      await page.goto(`${fixture.shell.t.url}/collection`);
      await waitForHydration(page);
      await page.click('.site-header__mobile-toggle');
      await page.locator('.site-header__mobile').waitFor({ state: 'visible' });
      await page.locator('.site-header__section-button').first().click();
      const starts = await textStarts(
        page,
        [
          '.site-header__mobile .site-header__section-button',
          '.site-header__mobile .site-header__mobile-link',
          '.site-header__mobile .site-header__mobile-heading',
        ].join(', '),
      );
      expect(starts.length).toBeGreaterThan(8);
      expect(new Set(starts)).toEqual(new Set([starts[0]]));
      expect(await seriousViolations(page)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it.each([
    ['fr-CA', DESKTOP],
    ['fr-CA', PHONE],
    ['ja-JP', DESKTOP],
  ] as const)(
    "/collection in %s at %j: the 'Continue to' cards are even and fill their row",
    async (locale, viewport) => {
      const context = await fixture.context({ cookies: fixture.cookies, viewport });
      const page = await context.newPage();
      await page.goto(`${fixture.shell.t.url}/collection?lang=${locale}`);
      await waitForHydration(page);
      const layout = await page.$eval('.account-summary__sites', (list) => {
        const cards = [...list.querySelectorAll('.continue-card')].map((card) =>
          card.getBoundingClientRect(),
        );
        const rows = new Map<number, DOMRect[]>();
        for (const card of cards) {
          const top = Math.round(card.top);
          rows.set(top, [...(rows.get(top) ?? []), card]);
        }
        return {
          right: list.getBoundingClientRect().right,
          rows: [...rows.values()].map((row) => ({
            heights: row.map((card) => Math.round(card.height)),
            right: Math.max(...row.map((card) => card.right)),
          })),
        };
      });
      for (const row of layout.rows) {
        expect(new Set(row.heights).size).toBe(1);
        expect(Math.abs(row.right - layout.right)).toBeLessThan(1);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it.each(['fr-CA', 'ja-JP'] as const)(
    'the footer in %s at 1280 px: no entry wraps, there is room',
    async (locale) => {
      const context = await fixture.context({ cookies: fixture.cookies, viewport: DESKTOP });
      const page = await context.newPage();
      await page.goto(`${fixture.shell.t.url}/collection?lang=${locale}`);
      await waitForHydration(page);
      const wrapped = await page.$$eval(
        ['heading', 'grid .site-footer__link', 'grid .site-footer__action']
          .map((part) => `.site-footer__${part}`)
          .join(', '),
        (elements) =>
          elements
            .filter((element) => {
              const range = document.createRange();
              range.selectNodeContents(element);
              const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
              return tops.size > 1;
            })
            .map((element) => element.textContent),
      );
      expect(wrapped).toEqual([]);
      // The bottom bar's legal links (ja-JP's), beside the logo, the copyright and the social ones.
      const tops = await page.$$eval('.site-footer__legal-list > li', (items) =>
        items.map((item) => Math.round(item.getBoundingClientRect().top)),
      );
      expect(new Set(tops).size).toBeLessThanOrEqual(1);
    },
    TEST_TIMEOUT_MS,
  );

  it.each(['fr-CA', 'ja-JP'] as const)(
    'the legal footer of a sign-in step in %s at 1280 px: its links on one line',
    async (locale) => {
      const page = await (await fixture.context({ viewport: DESKTOP })).newPage();
      await page.goto(`${fixture.shell.t.url}/signin?lang=${locale}`);
      await page.waitForURL(/\/idp\/signin\//);
      const tops = await page.$$eval('.site-footer__legal-list > li', (items) =>
        items.map((item) => Math.round(item.getBoundingClientRect().top)),
      );
      expect(tops.length).toBeGreaterThan(2);
      expect(new Set(tops).size).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a radio step: nothing looks chosen on load, and the legend lines up with the card and options',
    async () => {
      const page = await (await fixture.context()).newPage();
      await signInPassword(page, 'survey@example.com');
      await page.fill('#field-password', DEMO_PASSWORD);
      await Promise.all([page.waitForNavigation(), page.click('button[value="submit"]')]);
      await page.locator('input[type="radio"]').first().waitFor();
      expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('INPUT');
      expect(await page.locator('input[type="radio"]:checked').count()).toBe(0);
      const edges = await page.$eval('main.signin-card', (card) => {
        const style = getComputedStyle(card);
        const content =
          card.getBoundingClientRect().left +
          Number.parseFloat(style.borderLeftWidth) +
          Number.parseFloat(style.paddingLeft);
        const legend = card.querySelector('legend')!;
        const range = document.createRange();
        range.selectNodeContents(legend);
        return {
          content,
          legend: range.getClientRects()[0]!.left,
          option: card.querySelector('label.radio')!.getBoundingClientRect().left,
        };
      });
      expect(Math.abs(edges.legend - edges.content)).toBeLessThan(0.5);
      expect(Math.abs(edges.option - edges.content)).toBeLessThan(0.5);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('Japanese typography, in Chromium', () => {
  const fixture = useShellBrowser({ signedIn: false });

  it(
    "/signin/continue: 'Not you?' is centred line by line; paragraphs wrap by phrase, pretty",
    async () => {
      const { landing } = await signInVia(fixture.shell.t, new Browser(), 'b=psa', {
        email: 'japan@example.com',
      });
      const token = locationOf(landing).searchParams.get('t') ?? '';
      const page = await (await fixture.context({ viewport: PHONE })).newPage();
      await page.goto(
        `${fixture.shell.t.url}/signin?b=psa&t=${encodeURIComponent(token)}&lang=ja-JP`,
      );
      const lines = await page.$eval('button[value="decline"]', (button) => {
        const card = button.closest('main')!.getBoundingClientRect();
        const centre = card.left + card.width / 2;
        const range = document.createRange();
        range.selectNodeContents(button);
        return [...range.getClientRects()].map((rect) => ({
          offCentre: Math.abs(rect.left + rect.width / 2 - centre),
          width: rect.width,
        }));
      });
      for (const line of lines) expect(line.offCentre).toBeLessThan(2);
      const widths = lines.map((line) => line.width);
      // Balanced: two lines of about one length, not a full line and a short one.
      if (widths.length > 1) expect(Math.min(...widths) / Math.max(...widths)).toBeGreaterThan(0.7);
      const intro = await page.$eval('.intro', (element) => {
        const style = getComputedStyle(element);
        return { wordBreak: style.wordBreak, textWrap: style.getPropertyValue('text-wrap-style') };
      });
      expect(intro).toEqual({ wordBreak: 'auto-phrase', textWrap: 'pretty' });
      expect(await seriousViolations(page)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the password rules of create account are joined as Japanese sentences, no ASCII space',
    async () => {
      const page = await (await fixture.context()).newPage();
      await page.goto(`${fixture.shell.t.url}/signin?lang=ja-JP`);
      await page.waitForURL(/\/idp\/signin\//);
      await page.fill('#field-email', 'rules-ja@example.com');
      await Promise.all([page.waitForNavigation(), page.click('button[value="submit"]')]);
      await page.fill('#field-givenName', 'Robin');
      await page.fill('#field-familyName', 'Rules');
      await page.fill('#field-newPassword', 'short');
      await page.check('#field-acceptTerms');
      await Promise.all([page.waitForNavigation(), page.click('button[value="submit"]')]);
      const error = (await page.locator('#field-newPassword-error').textContent()) ?? '';
      expect(error).toContain('。');
      expect(error).not.toMatch(/。\s/);
    },
    TEST_TIMEOUT_MS,
  );
});
