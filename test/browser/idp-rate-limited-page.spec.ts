import type { Page } from 'playwright-core';
import type { OktaIdp } from '../support/okta-idp';
import { externalIdpEnv, startOktaIdpOverHttp } from '../support/okta-over-http';
import { OKTA_USERS } from '../support/okta-stack';
import { freePort } from '../support/free-port';
import { commonText } from '../support/signin-steps';
import {
  type ShellBrowser,
  TEST_TIMEOUT_MS,
  newShellContext,
  seriousViolations,
  startShellBrowser,
  waitForHydration,
} from '../support/shell-browser';
import { VISUAL_LOCALES, VISUAL_THEMES, copyrightYear, pictureProblems } from '../support/visual';

/**
 * Issue 52, the page a collector meets when Okta's rate limit holds back their sign-in
 * (IdpRateLimited, 429; docs/okta.md "Rate limits"), in Chromium: they sign in at the Okta-shaped
 * IdP (no code shared with src/idp/), whose token endpoint answers as Okta's rate limit does, and
 * land on this service's page. It says how long to wait, from Retry-After, in the page's language,
 * as its one instruction, with no button that would fail at once. Pictured in en-US, fr-CA and
 * ja-JP, at 390 and 1280 px, light and dark.
 */
const TOKEN = '/oauth2/default/v1/token';
/** Okta's window ends in 170 s: Retry-After stays within 121-180 s, "3 minutes", whenever read. */
const RESET_SECONDS = 170;

let idp: OktaIdp;
let shell: ShellBrowser;

beforeAll(async () => {
  const port = await freePort();
  idp = await startOktaIdpOverHttp([port]);
  shell = await startShellBrowser(externalIdpEnv(port, idp));
  await idp.fault('429', TOKEN, { resetSeconds: RESET_SECONDS });
}, TEST_TIMEOUT_MS);
afterAll(async () => {
  await shell?.close();
  await idp?.close();
});

const volatile = (page: Page) => [
  ...copyrightYear(page),
  // The reference is the request's own id.
  page.locator('.correlation-id'),
];

/** The collector signs in at the Okta-shaped IdP's own form, as a person would. */
async function signInAtOkta(page: Page, locale: string) {
  const lang = locale === 'en-US' ? '' : `&lang=${locale}`;
  await page.goto(`${shell.t.url}/signin?b=collectors${lang}`);
  await page.waitForURL((url) => url.href.startsWith(idp.issuer.replace(/\/oauth2.*/, '')));
  await page.fill('input[name="username"]', OKTA_USERS.plain.email);
  await page.fill('input[name="password"]', OKTA_USERS.plain.password);
  const landed = page.waitForResponse(
    (res) => new URL(res.url()).pathname === '/handleloginredirect',
  );
  await page.locator('form[method="post"] [type="submit"]').click();
  return landed;
}

describe.each(VISUAL_LOCALES)('Okta’s rate limit at sign-in, in %s', (locale) => {
  it.each(VISUAL_THEMES)(
    'says how long to wait, once, with no button that fails at once (%s theme)',
    async (theme) => {
      const context = await newShellContext(shell, { theme });
      const page = await context.newPage();
      const response = await signInAtOkta(page, locale);
      expect(response.status()).toBe(429);
      await waitForHydration(page);
      const seconds = Number(response.headers()['retry-after']);
      expect(seconds).toBeGreaterThan(120);
      expect(seconds).toBeLessThanOrEqual(RESET_SECONDS + 1);
      const wait = commonText(locale, 'waitTime.minutes', { count: '3' });
      expect(await page.locator('[role="alert"]').innerText()).toBe(
        commonText(locale, 'errors.IdpRateLimited', { wait }),
      );
      const main = await page.locator('main').innerText();
      expect(main).toContain('IdpRateLimited');
      expect(main).not.toContain(commonText(locale, 'errorPage.subHeader'));
      expect(main).toContain(commonText(locale, 'errorPage.subHeaderWait'));
      expect(await page.locator('main a.button, main button').count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);

      expect(await pictureProblems(page, 'idp-rate-limited', locale, theme, volatile)).toEqual([]);
      await context.close();
    },
    TEST_TIMEOUT_MS,
  );
});
