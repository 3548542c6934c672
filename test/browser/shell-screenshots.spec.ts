import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import {
  API_ROUTE,
  DESKTOP,
  PHONE,
  TEST_TIMEOUT_MS,
  errorPagePath,
  settle,
  signedInCookies,
  until,
  useShellBrowser,
  waitForHydration,
} from '../support/shell-browser';

/**
 * The README's screenshots of the shell (issue 6 item 8), viewport-sized PNGs. Every run takes them
 * (so the steps that lead to each stay tested), but only `SCREENSHOTS=1` writes them to
 * docs/screenshots/:
 *
 *   node scripts/build-client.js && SCREENSHOTS=1 npx jest --selectProjects browser --testPathPatterns shell-screenshots
 *
 * Writing needs a Japanese font for the ja-JP page (Debian: fonts-noto-cjk); without one the run
 * stops rather than write boxes where the text should be.
 */
const WRITE = process.env.SCREENSHOTS === '1';
const OUT = path.resolve(__dirname, '../../docs/screenshots');

/** The PNG signature and the image's size from its IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('documentation screenshots of the shell', () => {
  // Checked before the app starts: writing without a Japanese font would write boxes.
  beforeAll(() => {
    if (!WRITE) return;
    const fonts = spawnSync('fc-list', [':lang=ja', 'family'], { encoding: 'utf8' });
    if (!fonts.stdout?.trim())
      throw new Error('no Japanese font: apt-get install -y fonts-noto-cjk, then run again');
    fs.mkdirSync(OUT, { recursive: true });
  });
  const fixture = useShellBrowser();

  async function open(
    urlPath: string,
    options: { theme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {},
  ): Promise<Page> {
    const context = await fixture.context({
      cookies: fixture.cookies,
      theme: options.theme ?? 'light',
      viewport: options.viewport ?? DESKTOP,
    });
    const page = await context.newPage();
    await page.goto(`${fixture.shell.t.url}${urlPath}`);
    await waitForHydration(page);
    return page;
  }

  async function shoot(page: Page, name: string): Promise<void> {
    await page.mouse.move(0, 0);
    await settle(page);
    const png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
    const viewport = page.viewportSize();
    expect(pngSize(png)).toEqual(viewport);
    if (WRITE) fs.writeFileSync(path.join(OUT, `${name}.png`), png);
  }

  /** A page path in a locale by the §2 rule (no prefix for en-US). */
  const localized = (locale: string, page: string) =>
    locale === 'en-US' ? page : `/${locale}${page}`;

  // Issue 16 item 5: the five pages of the README in the three languages it shows.
  const LOCALES_SHOWN = ['en-US', 'fr-CA', 'ja-JP'] as const;

  it.each(LOCALES_SHOWN)(
    'collection, sessions and error page, %s',
    async (locale) => {
      // A second session, so the sessions page has more than one row.
      await signedInCookies(fixture.shell.t);
      for (const [name, urlPath] of [
        ['collection', localized(locale, '/collection')],
        ['sessions', localized(locale, '/account/sessions')],
        ['error-page', errorPagePath(locale)],
      ] as const) {
        const page = await open(urlPath);
        await shoot(page, `${name}-${locale}`);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'collection, en-US, dark theme',
    async () => {
      await shoot(await open('/collection', { theme: 'dark' }), 'collection-en-US-dark');
    },
    TEST_TIMEOUT_MS,
  );

  it.each(LOCALES_SHOWN)(
    'a sign-in step, %s',
    async (locale) => {
      const context = await fixture.context({ viewport: DESKTOP });
      const page = await context.newPage();
      await page.goto(`${fixture.shell.t.url}/signin?b=psa&lang=${locale}`);
      await page.waitForURL(/\/idp\/signin\//);
      await page.waitForSelector('#field-email');
      await shoot(page, `signin-step-${locale}`);
    },
    TEST_TIMEOUT_MS,
  );

  it.each(LOCALES_SHOWN)(
    'mobile-panel, %s: a phone with the menu open and a section expanded',
    async (locale) => {
      const page = await open(localized(locale, '/collection'), { viewport: PHONE });
      await page.locator('.site-header__mobile-toggle').click();
      const section = page
        .locator('#site-header-mobile-panel .site-header__section-button')
        .first();
      await section.click();
      await page.locator(`#${(await section.getAttribute('aria-controls')) ?? ''}`).waitFor();
      await shoot(page, `mobile-panel-${locale}`);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'consent-dialog',
    async () => {
      const page = await open('/collection');
      await page.locator('footer [data-consent-open="yourPrivacyChoices"]').click();
      await page.locator('#cc-main .pm[role="dialog"]').waitFor({ state: 'visible' });
      // The dialog's opening transition has ended.
      await until(
        () =>
          page.evaluate(() =>
            document
              .getAnimations()
              .every((a) => a.playState === 'finished' || a.playState === 'idle'),
          ),
        (done) => done,
      );
      await shoot(page, 'consent-dialog');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'toast: the network toast after a failed save',
    async () => {
      // Dark first, so that the switch's click (whose save fails) leaves the page light.
      const page = await open('/collection', { theme: 'dark' });
      await page.route(API_ROUTE, (route) => route.abort('internetdisconnected'));
      await page.clock.install();
      await page.clock.pauseAt(new Date(Date.now() + 60_000));
      await page.locator('.site-header__theme').click();
      await page.locator('.toast-region [data-toast-id]').waitFor({ state: 'visible' });
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.mouse.move(0, 0);
      const png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
      expect(pngSize(png)).toEqual(DESKTOP);
      if (WRITE) fs.writeFileSync(path.join(OUT, 'toast.png'), png);
    },
    TEST_TIMEOUT_MS,
  );
});
