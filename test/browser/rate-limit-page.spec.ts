import type { Page } from 'playwright-core';
import { commonText } from '../support/signin-steps';
import {
  TEST_TIMEOUT_MS,
  newShellContext,
  seriousViolations,
  startShellBrowser,
  waitForHydration,
  type ShellBrowser,
} from '../support/shell-browser';
import { VISUAL_LOCALES, VISUAL_THEMES, copyrightYear, pictureProblems } from '../support/visual';

/**
 * Issue 52 item 8 in Chromium: the page of this service's rate limit (429 TooManyRequests) says how
 * long to wait, from the Retry-After it is sent with, in the page's language, as its one instruction
 * (no "wait a moment" beside "please try again"), and offers no "Try again" that would fail at once.
 * Pictured in en-US, fr-CA and ja-JP, at 390 and 1280 px, light and dark.
 */
let shell: ShellBrowser;
/** Two sign-ins per address in ten minutes: the third is refused for ten minutes. */
const WINDOW_SECONDS = 600;

beforeAll(async () => {
  shell = await startShellBrowser({ RATE_LIMIT_SIGNIN: `2/${WINDOW_SECONDS}` });
  // The two sign-ins this address may start; every /signin after them answers 429.
  for (let i = 0; i < 2; i++) await fetch(`${shell.t.url}/signin`, { redirect: 'manual' });
}, TEST_TIMEOUT_MS);
afterAll(() => shell?.close());

const volatile = (page: Page) => [
  ...copyrightYear(page),
  // The reference is the request's own id.
  page.locator('.correlation-id'),
];

describe.each(VISUAL_LOCALES)('the rate limit page in %s', (locale) => {
  it.each(VISUAL_THEMES)(
    'says how long to wait, once, with no button that fails at once (%s theme)',
    async (theme) => {
      const context = await newShellContext(shell, { theme });
      const page = await context.newPage();
      const lang = locale === 'en-US' ? '' : `?lang=${locale}`;
      const response = await page.goto(`${shell.t.url}/signin${lang}`);
      expect(response?.status()).toBe(429);
      await waitForHydration(page);
      const seconds = Number(response?.headers()['retry-after']);
      expect(seconds).toBeGreaterThan(WINDOW_SECONDS - 60);
      // Ten minutes, in words, in the page's language.
      const wait = commonText(locale, 'waitTime.minutes', {
        count: String(Math.ceil(seconds / 60)),
      });
      const message = commonText(locale, 'errors.TooManyRequests', { wait });
      expect(await page.locator('[role="alert"]').innerText()).toBe(message);
      // One instruction: not "please try again" as well, and no button.
      const main = await page.locator('main').innerText();
      expect(main).not.toContain(commonText(locale, 'errorPage.subHeader'));
      expect(main).toContain(commonText(locale, 'errorPage.subHeaderWait'));
      expect(await page.locator('main a.button, main button').count()).toBe(0);
      expect(
        await page.getByRole('link', { name: commonText(locale, 'errorPage.tryAgain') }).count(),
      ).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);

      expect(await pictureProblems(page, 'rate-limited', locale, theme, volatile)).toEqual([]);
      await context.close();
    },
    TEST_TIMEOUT_MS,
  );
});
