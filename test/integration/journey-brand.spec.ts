import * as fs from 'node:fs';
import * as path from 'node:path';
import { BRANDS, type Brand } from '../../src/shared/brand';
import { LOCALES, type Locale } from '../../src/shared/locale';
import { signedInSession } from '../support/account-api';
import { Browser, BrowserResponse } from '../support/browser';
import { EMAIL } from '../support/signin-journey';
import {
  SigninDriver,
  decodeHtml,
  errorSummary,
  refusalText,
  signinText,
  stepTitle,
} from '../support/signin-steps';
import { TestApp, useTestApp } from '../support/test-app';

/**
 * Issue 14 item 3, "the brand is visible on every page of the journey" (§2 simple header, favicons,
 * footer variants): the IdP's sign-in steps, /unauthredirect and the error page show the logo and
 * favicon of the brand the collector came from and the legal footer (the power-pack footer for
 * powerpacks); the signed-in shell shows the favicon and logo of the brand its session records.
 */

type Mark = 'psa' | 'pcgs' | 'collectors';

/** The table: grading for psa, psajapan and psamobile, coin grading for the pcgs brands. */
const BRAND_MARK: Readonly<Record<Brand, Mark>> = {
  psa: 'psa',
  psajapan: 'psa',
  psamobile: 'psa',
  // The legacy code of the grading brand itself (§3, legacy site 12).
  grading: 'psa',
  pcgs: 'pcgs',
  pcgschina: 'pcgs',
  pcgsasia: 'pcgs',
  pcgseurope: 'pcgs',
  collectors: 'collectors',
  collectorsmobile: 'collectors',
  goldin: 'collectors',
  goldinmobile: 'collectors',
  lbe: 'collectors',
  cc: 'collectors',
  ccmobile: 'collectors',
  certifi: 'collectors',
  enterprise: 'collectors',
  powerpacks: 'collectors',
};

const footerOf = (brand: Brand) => (brand === 'powerpacks' ? 'powerpacks' : 'legal');

/** What a page shows of its brand: header logo (src, alt), favicon, footer variant and footer logo. */
function brandOf(page: BrowserResponse) {
  const logo = /<img class="simple-site-header__logo" src="([^"]+)" alt="([^"]*)"/.exec(page.body);
  return {
    logo: logo?.[1],
    alt: logo ? decodeHtml(logo[2] ?? '') : undefined,
    favicon: /<link rel="icon" href="([^"]+)"/.exec(page.body)?.[1],
    footer: /<footer class="site-footer site-footer--([a-z]+)"/.exec(page.body)?.[1],
    footerLogo: /<img class="site-footer__logo" src="([^"]+)"/.exec(page.body)?.[1],
  };
}

/** What a page of `brand` must show (the footer logo is absent in the power-pack footer). */
function expected(brand: Brand, locale: Locale = 'en-US') {
  const mark = BRAND_MARK[brand];
  return {
    logo: `/static/brand/logo-${mark}-color.svg`,
    alt: headerText(locale, `brandNames.${mark}`),
    favicon: `/static/brand/favicon-${mark}.svg`,
    footer: footerOf(brand),
    footerLogo: brand === 'powerpacks' ? undefined : `/static/brand/logo-${mark}-color.svg`,
  };
}

function headerText(locale: Locale, key: string): string {
  const file = path.join(__dirname, '../../locales', locale, 'header.json');
  const all = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const value = key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], all);
  if (typeof value !== 'string') throw new Error(`no header.${key} in ${locale}`);
  return value;
}

/** The footer's links: legal (grading site, or the Japan site in ja-JP) or power-pack ones. */
function footerLinks(t: TestApp, page: BrowserResponse): string[] {
  const footer = page.body.slice(page.body.indexOf('<footer'));
  return [...footer.matchAll(/<a class="site-footer__link" href="([^"]+)"/g)].map((m) =>
    decodeHtml(m[1] ?? '').replace(/^https?:\/\/[^/]+/, (origin) =>
      origin === new URL(t.config.services.powerpacks).origin
        ? 'powerpacks:'
        : origin === new URL(t.config.services.gradingJapan).origin
          ? 'japan:'
          : origin === new URL(t.config.services.grading).origin
            ? 'grading:'
            : `${origin}:`,
    ),
  );
}

const LONG = 120_000;

describe('the brand on every page of the journey (issue 14 item 3)', () => {
  const t = useTestApp();
  let idp: SigninDriver;
  beforeAll(async () => {
    idp = await SigninDriver.for(t);
  }, 30_000);

  describe('the IdP’s sign-in steps: the brand of the authorization request (brand=)', () => {
    it.each(BRANDS)(
      'brand=%s: its logo and favicon, and its legal footer',
      async (brand) => {
        const { page } = await idp.begin(new Browser(), { brand });
        expect(page.status).toBe(200);
        expect(stepTitle(page)).toBe(signinText('en-US', 'steps.EmailCheck.title'));
        expect(brandOf(page)).toEqual(expected(brand));
      },
      LONG,
    );

    it.each([
      ['without brand', {}],
      ['with a brand that is not ours', { brand: 'acme' }],
      ['with a brand in capitals', { brand: 'PCGS' }],
    ])('%s: the collectors logo and favicon', async (_case, extra) => {
      const { page } = await idp.begin(new Browser(), extra);
      expect(brandOf(page)).toEqual(expected('collectors'));
    });

    describe.each(LOCALES)('in %s', (locale) => {
      it.each(['pcgs', 'psajapan', 'powerpacks'] as const)(
        'brand=%s: EmailCheck, EnterPassword and its error state keep the brand',
        async (brand) => {
          const browser = new Browser();
          const { page } = await idp.begin(browser, { brand, ui_locales: locale });
          expect(page.body).toContain(`<html lang="${locale}"`);
          expect(brandOf(page)).toEqual(expected(brand, locale));
          const password = await idp.next(browser, page, { email: EMAIL });
          expect(stepTitle(password)).toBe(signinText(locale, 'steps.EnterPassword.title'));
          expect(brandOf(password)).toEqual(expected(brand, locale));
          // An empty password: a field error, which (unlike a wrong one) locks no account.
          const refused = await idp.step(browser, password, { password: '' });
          expect(refused.page.status).toBe(400);
          expect(refusalText(refused.page)).toContain(signinText(locale, 'errors.required'));
          expect(brandOf(refused.page)).toEqual(expected(brand, locale));
          const links = footerLinks(t, page);
          if (brand === 'powerpacks') {
            expect(links).toEqual([
              expect.stringMatching(/^powerpacks:\/user-agreement/),
              expect.stringMatching(/^https:\/\/[^/]*privacy[^/]*:\//),
              expect.stringMatching(/^powerpacks:\/support/),
            ]);
          } else if (locale === 'ja-JP') {
            expect(links).toEqual(['japan:/terms', 'japan:/privacy']);
          } else {
            expect(links).toEqual([
              expect.stringMatching(/^grading:(\/[a-z]{2}-[A-Z]{2})?\/terms$/),
              expect.stringMatching(/^https:\/\/[^/]*privacy[^/]*:\//),
              expect.stringMatching(/^grading:(\/[a-z]{2}-[A-Z]{2})?\/support$/),
            ]);
          }
        },
        LONG,
      );
    });

    it.each([
      ['psa', 'en-US'],
      ['pcgs', 'fr-CA'],
      ['powerpacks', 'ja-JP'],
    ] as const)(
      'over the real journey: /signin?b=%s (%s) reaches the IdP with its brand',
      async (brand, locale) => {
        const browser = new Browser();
        const page = await browser.visit(`${t.url}/signin?b=${brand}&lang=${locale}`);
        expect(new URL(page.url).pathname).toMatch(/^\/idp\/signin\//);
        expect(brandOf(page)).toEqual(expected(brand, locale));
      },
      LONG,
    );

    it('an expired or unknown interaction: the collectors logo and the legal footer', async () => {
      const page = await new Browser().get(`${t.url}/idp/signin/no-such-interaction`);
      expect(page.status).toBe(400);
      expect(errorSummary(page)).toBe(signinText('en-US', 'errors.interactionExpired'));
      expect(brandOf(page)).toEqual(expected('collectors'));
    });
  });

  describe('/unauthredirect: the brand of b', () => {
    it.each(BRANDS)('b=%s: its logo and favicon, and its legal footer', async (brand) => {
      const page = await new Browser().get(`${t.url}/unauthredirect?error=Unauthorized&b=${brand}`);
      // A landing page, not a bare 401 without a challenge (issue 16 item 6, RFC 9110 §15.5.2).
      expect(page.status).toBe(200);
      expect(brandOf(page)).toEqual(expected(brand));
    });

    it.each(LOCALES)('in %s', async (locale) => {
      for (const brand of ['psamobile', 'pcgsasia', 'powerpacks', 'goldin'] as const) {
        const page = await new Browser().get(
          `${t.url}/unauthredirect?error=Unauthorized&b=${brand}&lang=${locale}`,
        );
        expect(page.body).toContain(`<html lang="${locale}"`);
        expect(brandOf(page)).toEqual(expected(brand, locale));
      }
    });
  });

  describe('the error page: the brand of b', () => {
    it.each(BRANDS)('b=%s: its logo and favicon, and its legal footer', async (brand) => {
      // A query /unauthredirect refuses: the §2 error page, for a browser.
      const page = await new Browser({ accept: 'text/html' }).get(
        `${t.url}/unauthredirect?error=Nope&b=${brand}`,
      );
      expect(page.status).toBe(400);
      expect(brandOf(page)).toEqual(expected(brand));
    });
  });

  describe('/collection: the brand the session records', () => {
    // Brands whose sign-in leaves the browser with a session of its own (the mobile apps and the
    // auction brand are handed off elsewhere), one or more of each family.
    it.each([
      'collectors',
      'psa',
      'psajapan',
      'grading',
      'pcgs',
      'pcgschina',
      'pcgsasia',
      'pcgseurope',
      'powerpacks',
      'lbe',
      'enterprise',
    ] as const)(
      'signed in from %s: its favicon and the footer’s brand logo',
      async (brand) => {
        const browser = new Browser();
        await signedInSession(t, EMAIL, browser, `${t.url}/signin?b=${brand}`);
        const page = await browser.get(`${t.url}/collection`);
        expect(page.status).toBe(200);
        const shown = brandOf(page);
        expect(shown.favicon).toBe(expected(brand).favicon);
        // The full header is the grading site's (§1); the footer carries the session's brand.
        expect(shown.footer).toBe('default');
        expect(shown.footerLogo).toBe(`/static/brand/logo-${BRAND_MARK[brand]}-color.svg`);
        expect(page.body).toContain(`href="/logout/collectorsid?b=${brand}"`);
      },
      LONG,
    );
  });
});
