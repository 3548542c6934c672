import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { LOCALES_DIR } from '../../src/config/project-paths';
import { AccountStore } from '../../src/idp/accounts/account-store';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import type { Locale } from '../../src/shared/locale';
import { Browser } from '../support/browser';
import {
  LOCALES,
  PHONE,
  TEST_TIMEOUT_MS,
  THEMES,
  seriousViolations,
  useShellBrowser,
  watchPage,
} from '../support/shell-browser';
import { EMAIL, locationOf, signInVia } from '../support/signin-journey';

/**
 * The page that asks before a cross-site `t` signs this browser in (issue 32 item 1), as Chromium
 * draws and submits it (issue 50 items 2 and 7): in every locale and both themes it names the whole
 * address and the collector number, passes axe, and has no console error or CSP violation; its
 * "Continue" is a form post from the page (the CSP's form-action, Chromium's own Sec-Fetch-Site and
 * Origin) that signs the collector in, and "Not you?" ends the offer and signs nobody in.
 */
const fixture = useShellBrowser({ signedIn: false });

function common(locale: Locale, key: string): string {
  const tree = JSON.parse(
    readFileSync(path.join(LOCALES_DIR, locale, 'common.json'), 'utf8'),
  ) as Record<string, unknown>;
  const value = key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], tree);
  if (typeof value !== 'string') throw new Error(`no common.${key} in ${locale}`);
  return value;
}

/** A `t` psa received for the demo collector (or `email`). */
async function brandToken(email = EMAIL): Promise<string> {
  const { landing } = await signInVia(fixture.shell.t, new Browser(), 'b=psa', { email });
  return locationOf(landing).searchParams.get('t') ?? '';
}

/** The link with `t` opened from outside the browser (Sec-Fetch-Site: none), on /<locale>/collection. */
async function openLink(page: Page, locale: Locale, email = EMAIL): Promise<void> {
  const token = await brandToken(email);
  const prefix = locale === 'en-US' ? '' : `/${locale}`;
  await page.goto(`${fixture.shell.t.url}${prefix}/collection?t=${encodeURIComponent(token)}`);
  expect(new URL(page.url()).pathname).toBe('/signin/continue');
}

describe.each(LOCALES)('in %s', (locale) => {
  it.each(THEMES)(
    '%s theme: the whole account, axe, and “Continue” signs in',
    async (theme) => {
      const context = await fixture.context({ theme, viewport: PHONE });
      const page = await context.newPage();
      const watch = watchPage(page);
      await openLink(page, locale);
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      expect((await page.locator('h1').innerText()).trim()).toBe(
        common(locale, 'tokenSignin.title'),
      );
      expect(await page.locator('.token-account__login').innerText()).toBe(EMAIL);
      // The name recorded when the token was handed over, then the whole address and the number.
      expect(await page.locator('.token-account dd').allInnerTexts()).toEqual([
        'Casey Collector',
        EMAIL,
        '100001',
      ]);
      expect((await page.locator('.token-account dt').first().innerText()).trim()).toBe(
        common(locale, 'tokenSignin.name'),
      );
      expect(await seriousViolations(page)).toEqual([]);
      const button = page.getByRole('button', {
        name: common(locale, 'tokenSignin.continue').replace('{account}', EMAIL),
      });
      await button.click();
      await page.waitForURL((url) => url.pathname.endsWith('/collection'));
      expect(await page.locator('#root').count()).toBe(1);
      expect(await watch.all()).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});

it(
  '“Not you?” ends the offer: nobody is signed in, and the page is gone',
  async () => {
    const context = await fixture.context();
    const page = await context.newPage();
    await openLink(page, 'en-US');
    const offer = page.url();
    await page.getByRole('button', { name: 'Not you? Go on without signing in' }).click();
    // /collection without a session sends the collector to sign in at the IdP.
    await page.waitForURL(/\/idp\/signin\//);
    const again = await page.goto(offer);
    expect(again?.status()).toBe(400);
  },
  TEST_TIMEOUT_MS,
);

it.each(THEMES)(
  '%s theme: an address that only looks like another is spelled out, and the page still passes axe',
  async (theme) => {
    const email = 'collector\u200b@example.com';
    await fixture.shell.t.app.get(AccountStore).createAccount({
      email: `${theme}.${email}`,
      password: DEMO_PASSWORD,
      locale: 'en-US',
      acceptedTerms: true,
      flags: { emailVerified: true },
    });
    const context = await fixture.context({ theme, viewport: PHONE });
    const page = await context.newPage();
    await openLink(page, 'en-US', `${theme}.${email}`);
    expect(await page.locator('.token-account__unusual').innerText()).toContain(
      `Written out: ${theme}.collector[U+200B]@example.com`,
    );
    expect(await seriousViolations(page)).toEqual([]);
  },
  TEST_TIMEOUT_MS,
);
