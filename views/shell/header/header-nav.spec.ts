import { isActiveLink } from '../active-link';
import { BRANDS } from '../../../src/shared/brand';
import { LOCALES, type Locale } from '../../../src/shared/locale';
import { simpleHeaderLogo } from './header-brand';
import {
  accountMenu,
  desktopNav,
  homeHref,
  mobileNav,
  signOutHref,
  startSubmissionLink,
  type NavItem,
  type NavLink,
} from './header-nav';
import { APP_ENVS, shellData, translateFor } from '../../../test/fixtures/header.fixtures';

const allLinks = (items: readonly NavItem[]): NavLink[] =>
  items.flatMap((item) => (item.kind === 'link' ? [item] : item.links));

const shape = (items: readonly NavItem[]) =>
  items.map((item) =>
    item.kind === 'link' ? item.key : `${item.key}: ${item.links.map((l) => l.key).join(', ')}`,
  );

const GRADING_NAV_AFTER_FIRST = [
  'pricingAndServices: authenticationAndGrading, activeSpecials, teamStore',
  'vaultAndSell: vault, sellWithGoldin',
  'setRegistry',
  'research: certVerification, auctionPrices, popReport, populationReport, priceGuide, cardFacts, cardLadder',
  'nearMe: dropOffEventsAndShows',
];

describe('header navigation (§2 Headers)', () => {
  // The table reads like §2: locale, feature flag, and the expected desktop entries.
  const table: [Locale, boolean, string[]][] = [];
  for (const locale of ['en-US', 'en-CA', 'fr-CA'] as const) {
    table.push([
      locale,
      true,
      ['gettingStarted: howItWorks, videoTutorials', ...GRADING_NAV_AFTER_FIRST],
    ]);
    table.push([locale, false, ['howItWorks', ...GRADING_NAV_AFTER_FIRST]]);
  }
  for (const flag of [true, false])
    table.push(['ja-JP', flag, ['about', 'gradingStandards', 'research', 'contact']]);

  it.each(table)('%s with gettingStarted=%s: desktop entries', (locale, flag, expected) => {
    const data = shellData({ locale, features: flag ? ['gettingStarted'] : [] });
    expect(shape(desktopNav(data))).toEqual(expected);
  });

  it.each([
    [
      'en-US',
      [
        'home',
        'submissionsDashboard',
        'orders',
        'collection',
        'vaultShipping',
        'requestCenter',
        'helpAndSupport',
        'account',
      ],
    ],
    ['ja-JP', ['submissions', 'orders', 'requestCenter', 'account']],
  ] as const)('%s: account menu entries, then Sign Out', (locale, expected) => {
    const menu = accountMenu(shellData({ locale, brand: 'psamobile' }));
    expect(menu.links.map((l) => l.key)).toEqual(expected);
    // Issue 14 item 2: the sign-out carries the page's language; en-US none (§2).
    expect(menu.signOut).toMatchObject({
      label: 'header.actions.signOut',
      href: `/logout/collectorsid?b=psamobile${locale === 'en-US' ? '' : `&lang=${locale}`}`,
    });
  });

  it.each(['en-US', 'en-CA', 'fr-CA'] as const)('%s: account menu is the full set', (locale) => {
    expect(accountMenu(shellData({ locale })).links).toHaveLength(8);
  });

  it.each([
    ['en-US', 'header.actions.startSubmission'],
    ['en-CA', 'header.actions.startSubmission'],
    ['fr-CA', 'header.actions.startSubmission'],
    ['ja-JP', 'header.actions.submit'],
  ] as const)('%s: the start-submission label is %s', (locale, label) => {
    expect(startSubmissionLink(shellData({ locale })).label).toBe(label);
  });

  it('the mobile navigation holds the desktop entries and the account menu', () => {
    for (const locale of LOCALES) {
      const data = shellData({ locale, features: ['gettingStarted'] });
      expect(mobileNav(data)).toEqual({ sections: desktopNav(data), account: accountMenu(data) });
    }
  });

  it('sign-out carries the brand, URL-encoded', () => {
    expect(signOutHref('collectors')).toBe('/logout/collectorsid?b=collectors');
    // Issue 14 item 2: the collector's language travels with the sign-out; en-US gets none (§2).
    expect(signOutHref('psa', 'fr-CA')).toBe('/logout/collectorsid?b=psa&lang=fr-CA');
    expect(signOutHref('psa', 'en-US')).toBe('/logout/collectorsid?b=psa');
  });

  describe('hosts and locale paths by environment (§1, §2 locale path rule)', () => {
    const cases = APP_ENVS.flatMap((env) => LOCALES.map((locale) => [env, locale] as const));

    it.each(cases)('%s, %s: every link is on the configured site', (env, locale) => {
      for (const features of [[], ['gettingStarted']]) {
        const data = shellData({ env, locale, features });
        const base = locale === 'ja-JP' ? data.services.gradingJapan : data.services.grading;
        // The grading site takes the language as a path prefix, except for the default en-US;
        // the Japanese site is Japanese only and stays unlocalised.
        const prefix = locale === 'en-US' || locale === 'ja-JP' ? `${base}/` : `${base}/${locale}/`;
        const links = [
          ...allLinks(desktopNav(data)),
          ...accountMenu(data).links,
          startSubmissionLink(data),
        ];
        for (const link of links) expect(link.href.startsWith(prefix)).toBe(true);
        expect(new Set(links.map((l) => l.href)).size).toBeGreaterThan(1);
        expect(homeHref(data).startsWith(base)).toBe(true);
      }
    });

    it('local and dev share hosts; qa and prod use their own', () => {
      const hrefs = (env: (typeof APP_ENVS)[number]) =>
        allLinks(desktopNav(shellData({ env }))).map((l) => l.href);
      expect(hrefs('local')).toEqual(hrefs('dev'));
      expect(hrefs('qa')).not.toEqual(hrefs('prod'));
      expect(hrefs('qa')[0]).toBe('https://qa.grading.test/how-it-works');
      expect(homeHref(shellData({ env: 'prod', locale: 'fr-CA' }))).toBe(
        'https://grading.test/fr-CA',
      );
    });
  });

  it.each(LOCALES)('%s: every label key has a translation', (locale) => {
    const t = translateFor(locale);
    const data = shellData({ locale, features: ['gettingStarted'] });
    const withoutFlag = shellData({ locale });
    const menu = accountMenu(data);
    const labels = [
      ...desktopNav(data).map((item) => item.label),
      ...allLinks(desktopNav(data)).map((l) => l.label),
      ...allLinks(desktopNav(withoutFlag)).map((l) => l.label),
      ...menu.links.map((l) => l.label),
      menu.signOut.label,
      startSubmissionLink(data).label,
    ];
    for (const key of labels) expect({ key, text: t(key) }).not.toEqual({ key, text: key });
  });
});

describe('header links use the shared active-link rule', () => {
  it.each([
    ['https://grading.test/myaccount/orders', '/myaccount/orders', false, true],
    ['https://grading.test/myaccount/orders/', '/myaccount/orders?page=2', false, true],
    ['https://grading.test/myaccount', '/myaccount/orders', false, false],
    ['https://grading.test/myaccount', '/myaccount/orders', true, true],
    ['https://grading.test/myaccount', '/myaccountx', true, false],
    ['https://grading.test/', '/collection', true, false],
    ['/collection', '/collection', false, true],
  ])('%s against %s (prefix %s): %s', (href, current, prefix, expected) => {
    expect(isActiveLink(href, current, { prefix })).toBe(expected);
  });
});

describe(simpleHeaderLogo.name, () => {
  it.each(BRANDS)('%s', (brand) => {
    const expected = brand.startsWith('pcgs')
      ? 'pcgs'
      : brand === 'grading' || brand.startsWith('psa')
        ? 'psa'
        : 'collectors';
    expect(simpleHeaderLogo(brand)).toBe(expected);
  });
});
