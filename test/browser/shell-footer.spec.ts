import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { toConsentTranslation, type ConsentMessages } from '../../client/consent/consent-texts';
import { LOCALES_DIR } from '../../src/config/project-paths';
import type { Locale } from '../../src/shared/locale';
import {
  TEST_TIMEOUT_MS,
  documentStatusError,
  errorPagePath,
  seriousViolations,
  until,
  waitForHydration,
  watchPage,
  useShellBrowser,
} from '../support/shell-browser';

/**
 * Issue 6 item 8, the footer's consent buttons in Chromium (§2 Footer): 'Your privacy choices' and,
 * in Japanese, 'Cookie preferences' open vanilla-cookieconsent's preference dialog, which works with
 * the keyboard, gives focus back to the button when it closes, and passes axe.
 */
/**
 * The dialog's texts as the server serves them: the consent namespace the client fetches when the
 * dialog first opens (issue 16 item 3; consent-lazy.spec.ts tests the loading itself).
 */
function consentTexts(locale: Locale) {
  const file = path.join(LOCALES_DIR, locale, 'consent.json');
  return toConsentTranslation(JSON.parse(readFileSync(file, 'utf8')) as ConsentMessages);
}

describe('shell footer and the consent dialog in Chromium', () => {
  const fixture = useShellBrowser();
  let context: BrowserContext;

  async function open(path: string): Promise<Page> {
    context = await fixture.context({ cookies: fixture.cookies });
    const page = await context.newPage();
    await page.goto(`${fixture.shell.t.url}${path}`);
    await waitForHydration(page);
    return page;
  }

  /** The consent library's preference dialog. */
  const MODAL = '#cc-main .pm';
  const dialog = (page: Page) => page.locator(`${MODAL}[role="dialog"]`);
  const dialogOpen = (page: Page) =>
    page.evaluate(() => document.documentElement.classList.contains('show--preferences'));
  const activeIsInDialog = (page: Page) =>
    page.evaluate((modal) => Boolean(document.activeElement?.closest(modal)), MODAL);
  /**
   * The library moves focus into an opened dialog twice: 100 ms after opening, and again when
   * the dialog's fade-in ends. A key pressed before both have happened can go to the wrong
   * element, so keyboard steps wait until focus is inside and no transition is running.
   */
  const dialogSettled = (page: Page) =>
    until(
      () =>
        page.evaluate((selector) => {
          const modal = document.querySelector(selector);
          return Boolean(
            modal &&
            document.activeElement?.closest(selector) &&
            modal.getAnimations({ subtree: true }).length === 0,
          );
        }, MODAL),
      (settled) => settled,
    );

  it.each([
    ['/collection', 'yourPrivacyChoices', 'Your Privacy Choices'],
    ['/collection?lang=ja-JP', 'cookiePreferences', undefined],
    [errorPagePath('ja-JP'), 'cookiePreferences', undefined],
    [errorPagePath('fr-CA'), 'yourPrivacyChoices', undefined],
  ])(
    '%s: the %s button opens the preference dialog with the pointer; axe on it; closing returns focus',
    async (path, id, label) => {
      const page = await open(path);
      const watch = watchPage(page);
      const button = page.locator(`footer [data-consent-open="${id}"]`);
      expect(await button.count()).toBe(1);
      if (label) expect(await button.textContent()).toBe(label);
      expect(await button.getAttribute('aria-haspopup')).toBe('dialog');

      await button.click();
      await dialog(page).waitFor({ state: 'visible' });
      await until(
        () => dialogOpen(page),
        (opened) => opened,
      );
      expect(await dialog(page).getAttribute('aria-modal')).toBe('true');
      // In the page's language.
      const locale = (await page.getAttribute('html', 'lang')) as Locale;
      expect(await page.textContent('#pm__title')).toBe(
        consentTexts(locale).preferencesModal.title,
      );
      await until(
        () => activeIsInDialog(page),
        (inside) => inside,
      );
      expect(await seriousViolations(page, '#cc-main')).toEqual([]);

      await dialog(page).locator('.pm__close-btn').click();
      await until(
        () => dialogOpen(page),
        (opened) => !opened,
      );
      await until(
        () => button.evaluate((el) => el === document.activeElement),
        (focused) => focused,
      );
      expect(await watch.all(documentStatusError(page, 400))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'keyboard: Enter opens it, Tab stays inside, a category toggles with Space, Escape closes and focus returns',
    async () => {
      const page = await open('/collection');
      const button = page.locator('footer [data-consent-open="yourPrivacyChoices"]');
      await button.focus();
      await page.keyboard.press('Enter');
      await dialog(page).waitFor({ state: 'visible' });
      await dialogSettled(page);

      // Focus is trapped: many Tabs forwards and backwards never leave the dialog.
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Tab');
        expect(await activeIsInDialog(page)).toBe(true);
      }
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Shift+Tab');
        expect(await activeIsInDialog(page)).toBe(true);
      }

      // The analytics category is off (opt-in) and its switch works with Space.
      const analytics = dialog(page).locator('input[type="checkbox"][value="analytics"]');
      expect(await analytics.isChecked()).toBe(false);
      await analytics.focus();
      await page.keyboard.press('Space');
      expect(await analytics.isChecked()).toBe(true);
      // The necessary category cannot be switched off.
      expect(
        await dialog(page).locator('input[type="checkbox"][value="necessary"]').isDisabled(),
      ).toBe(true);

      await page.keyboard.press('Escape');
      await until(
        () => dialogOpen(page),
        (opened) => !opened,
      );
      await until(
        () => button.evaluate((el) => el === document.activeElement),
        (focused) => focused,
      );
      // Escape saved nothing: no consent cookie yet.
      expect((await context.cookies(fixture.shell.t.url)).some((c) => c.name === 'cc_cookie')).toBe(
        false,
      );

      // Opened again from the keyboard, a choice is saved in the consent cookie.
      await page.keyboard.press('Enter');
      await dialog(page).waitFor({ state: 'visible' });
      await dialogSettled(page);
      await dialog(page).locator('button[data-role="all"]').focus();
      await page.keyboard.press('Enter');
      await until(
        () => dialogOpen(page),
        (opened) => !opened,
      );
      const consent = (await context.cookies(fixture.shell.t.url)).find(
        (c) => c.name === 'cc_cookie',
      );
      expect(decodeURIComponent(consent?.value ?? '')).toContain('"analytics"');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the footer: default grid and social links (new tab) in English; the Japanese footer has no grid',
    async () => {
      const page = await open('/collection');
      expect(await page.locator('footer .site-footer__section').count()).toBe(5);
      const social = page.locator('footer .site-footer__social-link');
      expect(await social.count()).toBe(4);
      for (const target of await social.evaluateAll((links) =>
        links.map((l) => [l.getAttribute('target'), l.getAttribute('rel')]),
      ))
        expect(target).toEqual(['_blank', 'noopener noreferrer']);
      expect(await page.textContent('footer .site-footer__copyright')).toContain(
        String(new Date().getUTCFullYear()),
      );

      await page.goto(`${fixture.shell.t.url}/collection?lang=ja-JP`);
      await waitForHydration(page);
      expect(await page.locator('footer .site-footer__section').count()).toBe(0);
      expect(await page.locator('footer .site-footer__social-link').count()).toBe(4);
    },
    TEST_TIMEOUT_MS,
  );
});
