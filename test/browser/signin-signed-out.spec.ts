import { commonText } from '../support/signin-steps';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import { EMAIL } from '../support/signin-journey';
import {
  TEST_TIMEOUT_MS,
  UNLIMITED_SIGNINS,
  seriousViolations,
  useShellBrowser,
} from '../support/shell-browser';
import { VISUAL_LOCALES, VISUAL_THEMES, pictureProblems } from '../support/visual';

/**
 * Issue 52 item 14 in Chromium: after a sign-out, the sign-in page says "You are signed out" in the
 * page's language, as Google's and Auth0's hosted pages do, and says it once. The collector signs in
 * and out through the pages' own links; the notice state is pictured in en-US, fr-CA and ja-JP, at
 * 390 and 1280 px, light and dark.
 */
const fixture = useShellBrowser({ signedIn: false, env: UNLIMITED_SIGNINS });

describe.each(VISUAL_LOCALES)('signed out, in %s', (locale) => {
  it.each(VISUAL_THEMES)(
    'the first sign-in step after sign-out says so, once (%s theme)',
    async (theme) => {
      const context = await fixture.context({ theme });
      const page = await context.newPage();
      const lang = locale === 'en-US' ? '' : `?lang=${locale}`;
      await page.goto(`${fixture.shell.t.url}/signin${lang}`);
      await page.waitForURL(/\/idp\/signin\//);
      // No sign-out led here: no notice.
      expect(await page.locator('.notice').count()).toBe(0);
      await page.fill('#field-email', EMAIL);
      await page.click('button[value="submit"]');
      await page.waitForSelector('#field-password');
      await page.fill('#field-password', DEMO_PASSWORD);
      await page.click('button[value="submit"]');
      await page.waitForURL(/\/collection$/);
      await page.getByRole('link', { name: commonText(locale, 'collection.signOut') }).click();

      await page.waitForURL(/\/idp\/signin\//);
      await page.waitForSelector('#field-email');
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      const notice = page.locator('.notice[role="status"]');
      expect(await notice.innerText()).toBe(commonText(locale, 'signin.notices.signedOut'));
      expect(await seriousViolations(page)).toEqual([]);

      expect(await pictureProblems(page, 'signin-signed-out', locale, theme)).toEqual([]);

      // Once: the same step again does not repeat it.
      await page.reload();
      await page.waitForSelector('#field-email');
      expect(await page.locator('.notice').count()).toBe(0);
      await context.close();
    },
    TEST_TIMEOUT_MS,
  );
});
