import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import { useChromium } from '../support/chromium';
import { discover, startAuthorization } from '../support/oidc-journey';
import { seriousViolations } from '../support/shell-browser';
import { useTestApp } from '../support/test-app';

/**
 * The sign-in steps in a real browser: every locale passes axe with no serious or critical
 * violation, and a collector can sign in with the keyboard alone.
 */
describe('sign-in steps in Chromium', () => {
  const t = useTestApp();
  const chromium = useChromium();
  let redirectUri: string;

  beforeAll(() => {
    redirectUri = `${t.config.http.publicUrl}/handleloginredirect`;
  });

  async function openSignin(locale: string): Promise<Page> {
    const oidc = await discover(
      t.config.idp.issuer,
      t.config.idp.clientId,
      t.config.idp.clientSecret,
    );
    const start = await startAuthorization(oidc, redirectUri, { ui_locales: locale });
    const page = await (await chromium.browser.newContext()).newPage();
    await page.goto(start.url.href);
    await page.waitForURL(/\/idp\/signin\//);
    return page;
  }

  it.each(['en-US', 'en-CA', 'fr-CA', 'ja-JP'])(
    'EmailCheck, EnterPassword and the error state pass axe in %s',
    async (locale) => {
      const page = await openSignin(locale);
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      expect(await seriousViolations(page)).toEqual([]);
      await page.fill('#field-email', 'collector@example.com');
      await page.click('button[value="submit"]');
      await page.waitForSelector('#field-password');
      expect(await seriousViolations(page)).toEqual([]);
      await page.fill('#field-password', 'wrong-password');
      await page.click('button[value="submit"]');
      // A form of one field says its error at the field, which has the focus (issue 52 item 9).
      await page.waitForSelector('#field-password-error');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-password');
      expect(await seriousViolations(page)).toEqual([]);
      // The field in error is marked and described for screen readers.
      expect(await page.getAttribute('#field-password', 'aria-invalid')).toBe('true');
      expect(await page.getAttribute('#field-password', 'aria-describedby')).toContain(
        'field-password-error',
      );
      await page.context().close();
    },
    60_000,
  );

  it('a collector signs in with the keyboard alone', async () => {
    const page = await openSignin('en-US');
    // The email field has focus on arrival; Enter submits.
    await page.waitForFunction(() => document.activeElement?.id === 'field-email');
    await page.keyboard.type('collector@example.com');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#field-password');
    await page.waitForFunction(() => document.activeElement?.id === 'field-password');
    await page.keyboard.type(DEMO_PASSWORD);
    const landed = page.waitForRequest((r) => r.url().startsWith(redirectUri));
    await page.keyboard.press('Enter');
    expect(new URL((await landed).url()).searchParams.get('code')).toEqual(expect.any(String));
    await page.context().close();
  }, 60_000);

  it('the skip link comes before the form in the tab order and leads to the main content', async () => {
    const page = await openSignin('fr-CA');
    // Focus starts in the email field; the only stop before it is the skip link.
    await page.waitForFunction(() => document.activeElement?.id === 'field-email');
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('#main');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      'Passer au contenu principal',
    );
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await page.context().close();
  }, 60_000);
});
