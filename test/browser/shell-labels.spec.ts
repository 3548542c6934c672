import type { Cookie, Page } from 'playwright-core';
import type { Locale } from '../../src/shared/locale';
import { loadHeaderMessages, translateFor } from '../fixtures/header.fixtures';
import {
  DESKTOP,
  LOCALES,
  PHONE,
  TEST_TIMEOUT_MS,
  seriousViolations,
  signedInCookies,
  useShellBrowser,
  waitForHydration,
  watchPage,
} from '../support/shell-browser';

/**
 * Issue 16 item 1: every label of §2 "Headers" is visible on a page, in every locale. Chromium opens
 * every desktop dropdown, the account menu of a grading-brand shell and of the collectors brand's
 * shell, and the mobile panel with every section expanded; then each row of the table below checks
 * its label's translation among the texts visible in its place. axe runs with the menus open.
 */

/** Where a label is looked for. */
type Place =
  | 'header bar'
  | 'desktop navigation'
  | 'account menu'
  | 'alternative account menu'
  | 'mobile panel';

/**
 * In which locales §2 shows a label. §2 gives the Japan locale a reduced navigation, its own account
 * menu and 'submit' instead of 'start submission': those labels are 'not ja-JP', their Japanese
 * replacements 'ja-JP only'. Everything else is on a page in every locale.
 */
type Shown = 'every locale' | 'not ja-JP' | 'ja-JP only';

interface LabelRow {
  /** The label as §2 lists it. */
  readonly spec: string;
  readonly key: string;
  readonly place: Place;
  readonly shown: Shown;
}

const row = (spec: string, key: string, place: Place, shown: Shown = 'every locale'): LabelRow => ({
  spec,
  key,
  place,
  shown,
});

/** §2 "Headers", one row per label in the order §2 lists them. */
const LABELS: readonly LabelRow[] = [
  // Full header.
  row('Full header: a skip-to-main link', 'header.a11y.skipToMain', 'header bar'),
  row('Full header: start submission', 'header.actions.startSubmission', 'header bar', 'not ja-JP'),
  row('Full header: submit (Japan locale)', 'header.actions.submit', 'header bar', 'ja-JP only'),
  row(
    'Desktop navigation: getting started (flag on)',
    'header.nav.gettingStarted.title',
    'desktop navigation',
    'not ja-JP',
  ),
  row(
    'Desktop navigation: pricing and services',
    'header.nav.pricingAndServices.title',
    'desktop navigation',
    'not ja-JP',
  ),
  row(
    'Desktop navigation: vault and sell',
    'header.nav.vaultAndSell.title',
    'desktop navigation',
    'not ja-JP',
  ),
  row(
    'Desktop navigation: set registry',
    'header.nav.setRegistry',
    'desktop navigation',
    'not ja-JP',
  ),
  row(
    'Desktop navigation: research',
    'header.nav.research.title',
    'desktop navigation',
    'not ja-JP',
  ),
  row('Desktop navigation: near me', 'header.nav.nearMe.title', 'desktop navigation', 'not ja-JP'),
  row('Japan navigation: about', 'header.japanNav.about', 'desktop navigation', 'ja-JP only'),
  row(
    'Japan navigation: grading standards',
    'header.japanNav.gradingStandards',
    'desktop navigation',
    'ja-JP only',
  ),
  row('Japan navigation: research', 'header.japanNav.research', 'desktop navigation', 'ja-JP only'),
  row('Japan navigation: contact', 'header.japanNav.contact', 'desktop navigation', 'ja-JP only'),
  row('Account menu: home', 'header.account.home', 'account menu', 'not ja-JP'),
  row(
    'Account menu: submissions dashboard',
    'header.account.submissionsDashboard',
    'account menu',
    'not ja-JP',
  ),
  row('Account menu: orders', 'header.account.orders', 'account menu', 'not ja-JP'),
  row('Account menu: collection', 'header.account.collection', 'account menu', 'not ja-JP'),
  row('Account menu: vault shipping', 'header.account.vaultShipping', 'account menu', 'not ja-JP'),
  row('Account menu: request center', 'header.account.requestCenter', 'account menu', 'not ja-JP'),
  row(
    'Account menu: help and support',
    'header.account.helpAndSupport',
    'account menu',
    'not ja-JP',
  ),
  row('Account menu: account', 'header.account.account', 'account menu', 'not ja-JP'),
  row(
    'Account menu for Japan: submissions',
    'header.account.submissions',
    'account menu',
    'ja-JP only',
  ),
  row('Account menu for Japan: orders', 'header.account.orders', 'account menu', 'ja-JP only'),
  row(
    'Account menu for Japan: request center',
    'header.account.requestCenter',
    'account menu',
    'ja-JP only',
  ),
  row('Account menu for Japan: account', 'header.account.account', 'account menu', 'ja-JP only'),
  row('Account menu: sign out', 'header.actions.signOut', 'account menu'),
  // Shared header labels across the site.
  row('Services & Prices', 'header.nav.servicesAndPrices', 'mobile panel'),
  row('Research', 'header.nav.research.title', 'mobile panel'),
  row('Research: Cert Verification', 'header.nav.research.certVerification', 'mobile panel'),
  row('Research: Auction Prices', 'header.nav.research.auctionPrices', 'mobile panel'),
  row('Research: Pop Report', 'header.nav.research.popReport', 'mobile panel'),
  row('Research: Population Report', 'header.nav.research.populationReport', 'mobile panel'),
  row('Research: Price Guide', 'header.nav.research.priceGuide', 'mobile panel'),
  row('Research: Card Facts', 'header.brandNames.cardFacts', 'mobile panel'),
  row('Research: Card Ladder', 'header.brandNames.cardLadder', 'mobile panel'),
  row('Vault', 'header.nav.vault', 'mobile panel'),
  row('Set Registry', 'header.nav.setRegistry', 'mobile panel'),
  row('Info Center', 'header.nav.infoCenter.title', 'mobile panel'),
  row('Info Center: Grading Standards', 'header.nav.infoCenter.gradingStandards', 'mobile panel'),
  row(
    'Info Center: Packaging Guidelines',
    'header.nav.infoCenter.packagingGuidelines',
    'mobile panel',
  ),
  row('Info Center: Hobby News', 'header.nav.infoCenter.hobbyNews', 'mobile panel'),
  row('Info Center: Resources', 'header.nav.infoCenter.resources', 'mobile panel'),
  row('Info Center: FAQ', 'header.nav.infoCenter.faq', 'mobile panel'),
  row('Info Center: Help & Support', 'header.nav.infoCenter.helpAndSupport', 'mobile panel'),
  row('More', 'header.nav.more.title', 'mobile panel'),
  row('More: Collectors Club', 'header.nav.more.collectorsClub', 'mobile panel'),
  row('More: Store', 'header.nav.more.store', 'mobile panel'),
  row('More: Sales', 'header.nav.more.sales', 'mobile panel'),
  row('More: Dealer Directory', 'header.nav.more.dealerDirectory', 'mobile panel'),
  row('More: Forums', 'header.nav.more.forums', 'mobile panel'),
  row('More: social links (Facebook)', 'header.brandNames.facebook', 'mobile panel'),
  row('More: social links (X)', 'header.brandNames.x', 'mobile panel'),
  row('More: social links (Instagram)', 'header.brandNames.instagram', 'mobile panel'),
  row('More: social links (YouTube)', 'header.brandNames.youtube', 'mobile panel'),
  row('About', 'header.nav.about', 'mobile panel'),
  row('Contact', 'header.nav.contact', 'mobile panel'),
  row(
    'Getting Started: How It Works',
    'header.nav.gettingStarted.howItWorks',
    'desktop navigation',
    'not ja-JP',
  ),
  row(
    'Getting Started: Video Tutorials',
    'header.nav.gettingStarted.videoTutorials',
    'desktop navigation',
    'not ja-JP',
  ),
  row(
    'Pricing & Services: Authentication & Grading',
    'header.nav.pricingAndServices.authenticationAndGrading',
    'desktop navigation',
    'not ja-JP',
  ),
  row(
    'Pricing & Services: Active Specials',
    'header.nav.pricingAndServices.activeSpecials',
    'desktop navigation',
    'not ja-JP',
  ),
  row(
    'Pricing & Services: Team Store',
    'header.nav.pricingAndServices.teamStore',
    'desktop navigation',
    'not ja-JP',
  ),
  row(
    'Vault & Sell: sell on an auction marketplace',
    'header.nav.vaultAndSell.sellWithGoldin',
    'desktop navigation',
    'not ja-JP',
  ),
  row(
    'PSA Near Me: Drop Off Events & Shows',
    'header.nav.nearMe.dropOffEventsAndShows',
    'desktop navigation',
    'not ja-JP',
  ),
  row('Account menu (alternative): Home', 'header.account.home', 'alternative account menu'),
  row('Account menu (alternative): Orders', 'header.account.orders', 'alternative account menu'),
  row(
    'Account menu (alternative): Collection & Vault',
    'header.account.collectionAndVault',
    'alternative account menu',
  ),
  row('Account menu (alternative): Account', 'header.account.account', 'alternative account menu'),
  row(
    'Account menu (alternative): Help & Support',
    'header.account.helpAndSupport',
    'alternative account menu',
  ),
  row(
    'Account menu (alternative): Submissions',
    'header.account.submissions',
    'alternative account menu',
  ),
  row('Settings menu: Menu', 'header.settingsMenu.title', 'mobile panel'),
  row('Settings menu: Home', 'header.settingsMenu.home', 'mobile panel'),
  row('Settings menu: Profile', 'header.settingsMenu.profile', 'mobile panel'),
  row('Settings menu: My Account', 'header.settingsMenu.myAccount', 'mobile panel'),
  row('Settings menu: Orders', 'header.settingsMenu.orders', 'mobile panel'),
  row('Settings menu: Collection', 'header.settingsMenu.collection', 'mobile panel'),
  row('Settings menu: Vault Shipping', 'header.settingsMenu.vaultShipping', 'mobile panel'),
  row(
    'Settings menu: Customer Request Center',
    'header.settingsMenu.customerRequestCenter',
    'mobile panel',
  ),
  row('Settings menu: Help & Support', 'header.settingsMenu.helpAndSupport', 'mobile panel'),
  row('Settings menu: Sign Out', 'header.settingsMenu.signOut', 'mobile panel'),
];

const rowsFor = (locale: Locale) =>
  LABELS.filter((r) => (locale === 'ja-JP' ? r.shown !== 'not ja-JP' : r.shown !== 'ja-JP only'));

/**
 * The texts of the elements under `selector` that a collector can see: rendered (checkVisibility),
 * larger than the 1 px of visually hidden text, and, once scrolled into view, inside the viewport
 * and on top at their centre (not covered, not moved off-screen like an unfocused skip link).
 */
function visibleTexts(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluate((root) => {
    const seen = new Set<string>();
    for (const element of [root, ...root.querySelectorAll('*')]) {
      const text = element.textContent?.replace(/\s+/g, ' ').trim();
      if (!text || seen.has(text)) continue;
      if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      element.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const box = element.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) continue;
      const hit = document.elementFromPoint(x, y);
      if (hit && element.contains(hit)) seen.add(text);
    }
    return [...seen];
  });
}

/** Clicks a disclosure button and waits for the panel it controls to show. */
async function expand(page: Page, button: ReturnType<Page['locator']>): Promise<void> {
  await button.click();
  const controls = (await button.getAttribute('aria-controls')) ?? 'missing';
  await page.locator(`#${controls}`).waitFor({ state: 'visible' });
}

describe('every §2 header label on a page, in every locale (issue 16 item 1)', () => {
  // getting started is a dropdown only with its feature flag on (§3 "Enabled-features data").
  const fixture = useShellBrowser({ env: { ENABLED_FEATURES: 'gettingStarted' } });
  /** A collector signed in from a grading brand: the §2 account menu (the Japan set in ja-JP). */
  let gradingCookies: Cookie[] = [];
  beforeAll(async () => {
    gradingCookies = await signedInCookies(fixture.shell.t, undefined, 'psa');
  }, TEST_TIMEOUT_MS);

  it('the table holds every label of the header namespace’s §2 sections', () => {
    const flat = (tree: unknown, prefix: string): string[] =>
      typeof tree === 'string'
        ? [prefix]
        : Object.entries(tree as Record<string, unknown>).flatMap(([k, v]) =>
            flat(v, `${prefix}.${k}`),
          );
    const messages = loadHeaderMessages('en-US');
    const sections = ['nav', 'japanNav', 'account', 'settingsMenu'] as const;
    const keys = sections.flatMap((section) => flat(messages[section], `header.${section}`));
    // "Follow us" names the social links as a group; §2 lists the links, not a heading for them.
    const notLabels = new Set(['header.nav.more.followUs']);
    const inTable = new Set(LABELS.map((r) => r.key));
    expect(keys.filter((key) => !notLabels.has(key) && !inTable.has(key))).toEqual([]);
  });

  describe.each(LOCALES)('%s', (locale) => {
    const t = translateFor(locale);
    const seen = new Map<Place, Set<string>>();
    const violations: string[] = [];
    const problems: string[] = [];
    /** Before anything opens or takes focus: what the check must not count as visible. */
    const closed: { bar: string[]; nav: string[] } = { bar: [], nav: [] };

    const record = (place: Place, texts: readonly string[]) => {
      const set = seen.get(place) ?? new Set<string>();
      for (const text of texts) set.add(text);
      seen.set(place, set);
    };

    async function open(cookies: Cookie[], viewport: { width: number; height: number }) {
      const context = await fixture.context({ cookies, viewport });
      const page = await context.newPage();
      const watch = watchPage(page);
      await page.goto(`${fixture.shell.t.url}/collection?lang=${locale}`);
      await waitForHydration(page);
      return { page, watch };
    }

    async function audit(page: Page, watch: ReturnType<typeof watchPage>, what: string) {
      violations.push(...(await seriousViolations(page)).map((v) => `${what}: ${v}`));
      problems.push(...(await watch.all()).map((p) => `${what}: ${p}`));
    }

    beforeAll(async () => {
      // A grading brand's shell at desktop width: the bar, every dropdown, the account menu.
      const desktop = await open(gradingCookies, DESKTOP);
      closed.bar = await visibleTexts(desktop.page, '.site-header');
      closed.nav = await visibleTexts(desktop.page, '.site-header__nav');
      await desktop.page.keyboard.press('Tab'); // the skip link shows when focused
      record('header bar', await visibleTexts(desktop.page, '.site-header'));
      record('desktop navigation', await visibleTexts(desktop.page, '.site-header__nav'));
      const dropdowns = desktop.page.locator('.site-header__nav .site-header__dropdown-button');
      for (let i = 0; i < (await dropdowns.count()); i++) {
        await expand(desktop.page, dropdowns.nth(i));
        record('desktop navigation', await visibleTexts(desktop.page, '.site-header__nav'));
        await audit(desktop.page, desktop.watch, `dropdown ${i + 1} open`);
      }
      await expand(desktop.page, desktop.page.locator('.site-header__account button'));
      record('account menu', await visibleTexts(desktop.page, '.site-header__account'));
      await audit(desktop.page, desktop.watch, 'account menu open');

      // The collectors brand's shell (the fixture's collector): the alternative account menu.
      const collectors = await open(fixture.cookies, DESKTOP);
      await expand(collectors.page, collectors.page.locator('.site-header__account button'));
      record(
        'alternative account menu',
        await visibleTexts(collectors.page, '.site-header__account'),
      );
      await audit(collectors.page, collectors.watch, 'alternative account menu open');

      // A phone: the mobile panel with every section expanded.
      const phone = await open(fixture.cookies, PHONE);
      await expand(phone.page, phone.page.locator('.site-header__mobile-toggle'));
      const sections = phone.page.locator('#site-header-mobile-panel .site-header__section-button');
      for (let i = 0; i < (await sections.count()); i++) await expand(phone.page, sections.nth(i));
      record('mobile panel', await visibleTexts(phone.page, '#site-header-mobile-panel'));
      await audit(phone.page, phone.watch, 'mobile panel open, every section expanded');
    }, TEST_TIMEOUT_MS * 2);

    it.each(rowsFor(locale))('$spec ($place)', ({ key, place }) => {
      const label = t(key);
      expect(label).not.toBe(key);
      expect({ label, place, visible: seen.get(place)?.has(label) ?? false }).toEqual({
        label,
        place,
        visible: true,
      });
    });

    it('counts only what is shown: not a closed dropdown, an unfocused skip link, hidden text', () => {
      const research =
        locale === 'ja-JP' ? 'header.japanNav.research' : 'header.nav.research.title';
      expect(closed.nav).toContain(t(research));
      expect(closed.nav).not.toContain(t('header.nav.research.certVerification'));
      expect(closed.bar).not.toContain(t('header.a11y.skipToMain'));
      expect(closed.bar).not.toContain(t('header.actions.signOut'));
      // The new-tab hint is read by screen readers (aria-describedby) and never shown.
      expect(seen.get('mobile panel')).not.toContain(t('header.a11y.opensInNewTab'));
    });

    it('axe finds no serious or critical violation with the menus open', () => {
      expect(violations).toEqual([]);
    });

    it('no console error, uncaught exception or CSP violation', () => {
      expect(problems).toEqual([]);
    });
  });
});
