import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { LOCALES_DIR } from '../../src/config/project-paths';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import { STORAGE_KEYS_CLEARED_ON_SIGNOUT } from '../../views/shell/nudge/storage-keys';
import { useChromium } from '../support/chromium';
import { EMAIL } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 14 items 2 and 8 in a real browser, as a collector would go:
 * - item 2: a brand link with lang=fr-CA (or l=ja-JP); the IdP's steps, /fr-CA/collection, the
 *   sessions page, the IdP's logout page, the logout landing and the sign-in page after it all speak
 *   that language, following only the links the pages show;
 * - item 8: a brand sends the collector to /logout/collectorsid directly (no click on our pages): the
 *   logout landing clears this product's storage keys (and no one else's), records the Logout event
 *   only with analytics consent, and goes on to the brand's return URL.
 */
describe('the journey’s language and sign-out in Chromium (issue 14 items 2 and 8)', () => {
  const t = useTestApp({
    RATE_LIMIT_SIGNIN: '100000/60',
    RATE_LIMIT_SIGNIN_SESSION: '100000/60',
  });
  const chromium = useChromium();

  const messages = new Map<string, Record<string, unknown>>();
  function text(locale: string, key: string): string {
    let tree = messages.get(locale);
    if (!tree) {
      tree = JSON.parse(readFileSync(path.join(LOCALES_DIR, locale, 'common.json'), 'utf8'));
      messages.set(locale, tree as Record<string, unknown>);
    }
    const value = key
      .split('.')
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], tree);
    if (typeof value !== 'string') throw new Error(`no text ${locale} ${key}`);
    return value;
  }

  const lang = (page: Page) => page.getAttribute('html', 'lang');
  const heading = (page: Page) => page.locator('h1').first().innerText();

  /** Email and password on the IdP's steps, as a person types them. */
  async function signInOnIdp(page: Page): Promise<void> {
    await page.waitForSelector('#field-email');
    await page.fill('#field-email', EMAIL);
    await page.click('button[value="submit"]');
    await page.waitForSelector('#field-password');
    await page.fill('#field-password', DEMO_PASSWORD);
    await page.click('button[value="submit"]');
  }

  it.each([
    ['lang=fr-CA', 'fr-CA'],
    ['l=ja-JP', 'ja-JP'],
  ])(
    '%s: every page after the brand link is in %s',
    async (query, locale) => {
      const context = await chromium.browser.newContext();
      const page = await context.newPage();
      await page.goto(`${t.url}/signin?${query}`);
      await page.waitForURL(/\/idp\/signin\//);
      expect(await lang(page)).toBe(locale);
      expect(await heading(page)).toBe(text(locale, 'signin.steps.EmailCheck.title'));
      await signInOnIdp(page);

      // The landing, in the language, hydrated.
      await page.waitForURL(`${t.url}/${locale}/collection`);
      expect(await lang(page)).toBe(locale);
      expect(await heading(page)).toBe(text(locale, 'collection.title'));

      // The sessions page through the page's own link.
      await page.getByRole('link', { name: text(locale, 'sessions.manage') }).click();
      await page.waitForURL(`${t.url}/${locale}/account/sessions`);
      expect(await lang(page)).toBe(locale);
      expect(await heading(page)).toBe(text(locale, 'sessions.title'));

      // Back to the landing, and out through its sign-out link.
      await page.goBack();
      await page.waitForURL(`${t.url}/${locale}/collection`);
      await page.getByRole('link', { name: text(locale, 'collection.signOut') }).click();

      // The IdP's logout page submits itself; the landing then goes on to the sign-in page, whose
      // IdP step speaks the language again.
      await page.waitForURL(/\/idp\/signin\//);
      expect(await lang(page)).toBe(locale);
      expect(await heading(page)).toBe(text(locale, 'signin.steps.EmailCheck.title'));
      await context.close();
    },
    120_000,
  );

  /** A browser signed in through psa's link; it ends on the demo brand page of psa. */
  async function signedInAtBrand(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await chromium.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.url}/signin?b=psa`);
    await page.waitForURL(/\/idp\/signin\//);
    await signInOnIdp(page);
    await page.waitForURL(/\/demo\/brand\/psa/);
    return { context, page };
  }

  /** Records what reaches the page's data layer, across navigations (the landing leaves at once). */
  async function watchDataLayer(context: BrowserContext): Promise<unknown[]> {
    const pushed: unknown[] = [];
    await context.exposeBinding('__recordDataLayer', (_source, entry: unknown) => {
      pushed.push(entry);
    });
    await context.addInitScript(() => {
      const layer: unknown[] = [];
      layer.push = (...entries: unknown[]) => {
        for (const entry of entries)
          (window as unknown as { __recordDataLayer: (e: unknown) => void }).__recordDataLayer(
            entry,
          );
        return Array.prototype.push.apply(layer, entries);
      };
      (window as unknown as { dataLayer: unknown[] }).dataLayer = layer;
    });
    return pushed;
  }

  /** What the storages hold, on this origin. */
  const storageKeys = (page: Page) =>
    page.evaluate(() => ({
      local: Object.keys(localStorage).sort(),
      session: Object.keys(sessionStorage).sort(),
    }));

  it.each([
    ['with analytics consent', true],
    ['without analytics consent', false],
  ])(
    'a brand’s own sign-out link (%s): storage cleared, the Logout event as consent allows, on to r',
    async (_name, consent) => {
      const { context, page } = await signedInAtBrand();
      const pushed = await watchDataLayer(context);
      if (consent) {
        // The collector accepts analytics in the consent manager on a page of ours (§2 Footer).
        await page.goto(`${t.url}/collection`);
        await page.locator('footer [data-consent-open]').first().click();
        await page.locator('#cc-main .pm[role="dialog"] button[data-role="all"]').click();
        await page.waitForFunction(() => decodeURIComponent(document.cookie).includes('analytics'));
      }
      // Keys this product's pages left in both storages, and a sister site's key that must stay.
      await page.goto(`${t.url}/collection`);
      await page.evaluate(
        (keys) => {
          for (const key of keys) {
            localStorage.setItem(key, 'x');
            sessionStorage.setItem(key, 'x');
          }
          localStorage.setItem('sister-site', 'keep');
          sessionStorage.setItem('sister-site', 'keep');
        },
        STORAGE_KEYS_CLEARED_ON_SIGNOUT as unknown as string[],
      );

      // The brand's link, followed from the brand's own site (in local, the demo brand page): not a
      // click on our pages. A link typed or from another site would ask first (issue 50 item 4).
      const back = `${t.config.http.publicUrl}/demo/brand/psa?signedOut=1`;
      await page.goto(`${t.url}/logout/collectorsid?b=psa&r=${encodeURIComponent(back)}`, {
        referer: `${t.config.http.publicUrl}/demo/brand/psa`,
      });
      await page.waitForURL(back);

      expect(await storageKeys(page)).toEqual({ local: ['sister-site'], session: ['sister-site'] });
      const logouts = pushed.filter(
        (e) => (e as { action?: unknown }).action === 'Logout',
      ) as Record<string, unknown>[];
      if (consent) {
        expect(logouts).toEqual([
          expect.objectContaining({
            event: 'collectors_event',
            action: 'Logout',
            category: 'Auth',
            label: 'psa',
            user: expect.any(Number),
          }),
        ]);
      } else {
        expect(logouts).toEqual([]);
      }
      await context.close();
    },
    120_000,
  );
});
