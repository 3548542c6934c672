import { isActiveLink } from '../active-link';
import { BRANDS } from '../../../src/shared/brand';
import { LOCALES, type Locale } from '../../../src/shared/locale';
import { simpleHeaderLogo } from './header-brand';
import { SOCIAL_LINKS } from '../footer/footer-links';
import {
  accountMenu,
  accountMenuKind,
  desktopNav,
  homeHref,
  mobileNav,
  settingsMenu,
  sharedSiteNav,
  signOutHref,
  startSubmissionLink,
  type AccountMenuKind,
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

  // Issue 16 item 1 replaced the assertion that the mobile panel repeats the desktop entries and
  // the account menu: the panel now carries §2's shared site sections and the settings menu. The
  // desktop entries and account menus keep their own tables above; the panel's are below.
  it('the mobile navigation holds the shared site sections and the settings menu', () => {
    for (const locale of LOCALES) {
      const data = shellData({ locale, features: ['gettingStarted'] });
      expect(mobileNav(data)).toEqual({
        sections: sharedSiteNav(data),
        account: settingsMenu(data),
      });
    }
  });

  describe('the mobile panel (§2 shared header labels, issue 16 item 1)', () => {
    // §2: "Services & Prices. Research: Cert Verification, Auction Prices, Pop Report, Population
    // Report, Price Guide, Card Facts, Card Ladder. Vault. Set Registry. Info Center: Grading
    // Standards, Packaging Guidelines, Hobby News, Resources, FAQ, Help & Support. More: Collectors
    // Club, Store, Sales, Dealer Directory, Forums, social links. About, Contact."
    const SHARED_SITE_SECTIONS = [
      'servicesAndPrices',
      'research: certVerification, auctionPrices, popReport, populationReport, priceGuide, cardFacts, cardLadder',
      'vault',
      'setRegistry',
      'infoCenter: gradingStandards, packagingGuidelines, hobbyNews, resources, faq, helpAndSupport',
      'more: collectorsClub, store, sales, dealerDirectory, forums, facebook, x, instagram, youtube',
      'about',
      'contact',
    ];

    it.each(LOCALES)(
      '%s: the shared site sections, in every locale and with any flag',
      (locale) => {
        for (const features of [[], ['gettingStarted']])
          expect(shape(mobileNav(shellData({ locale, features })).sections)).toEqual(
            SHARED_SITE_SECTIONS,
          );
      },
    );

    it.each(LOCALES)('%s: the section labels are the §2 keys', (locale) => {
      const labels = mobileNav(shellData({ locale })).sections.map((item) => item.label);
      expect(labels).toEqual([
        'header.nav.servicesAndPrices',
        'header.nav.research.title',
        'header.nav.vault',
        'header.nav.setRegistry',
        'header.nav.infoCenter.title',
        'header.nav.more.title',
        'header.nav.about',
        'header.nav.contact',
      ]);
    });

    it('Research is the desktop dropdown, entry for entry', () => {
      const data = shellData();
      const research = (items: readonly NavItem[]) => items.find((i) => i.key === 'research');
      expect(research(mobileNav(data).sections)).toEqual(research(desktopNav(data)));
    });

    // §2 Footer: "Social links open in a new tab. Their addresses differ for the Japanese locale for
    // X and Instagram." The header's social links are the footer's.
    it.each(LOCALES)(
      '%s: More ends with the footer’s social links, opening in a new tab',
      (locale) => {
        const more = mobileNav(shellData({ locale })).sections.find((i) => i.key === 'more');
        const social = more?.kind === 'dropdown' ? more.links.filter((l) => l.newTab) : [];
        const region = locale === 'ja-JP' ? 'japan' : 'global';
        expect(social).toEqual(
          (['facebook', 'x', 'instagram', 'youtube'] as const).map((network) => ({
            kind: 'link',
            key: network,
            label: `header.brandNames.${network}`,
            href: SOCIAL_LINKS[network].href[region],
            newTab: true,
          })),
        );
        // Only the social links leave the configured sites or open a new tab.
        expect(allLinks(mobileNav(shellData({ locale })).sections).filter((l) => l.newTab)).toEqual(
          social,
        );
      },
    );

    // §2: "Settings menu: Menu, Home, Profile, My Account, Orders, Collection, Vault Shipping,
    // Customer Request Center, Help & Support, Sign Out."
    it.each(LOCALES)('%s: the account section is the settings menu, titled Menu', (locale) => {
      const menu = mobileNav(shellData({ locale, brand: 'pcgs' })).account;
      expect(menu.title).toBe('header.settingsMenu.title');
      expect([...menu.links, menu.signOut].map((l) => l.label)).toEqual([
        'header.settingsMenu.home',
        'header.settingsMenu.profile',
        'header.settingsMenu.myAccount',
        'header.settingsMenu.orders',
        'header.settingsMenu.collection',
        'header.settingsMenu.vaultShipping',
        'header.settingsMenu.customerRequestCenter',
        'header.settingsMenu.helpAndSupport',
        'header.settingsMenu.signOut',
      ]);
      // The same sign-out as the desktop account menu (issue 14 item 2).
      expect(menu.signOut.href).toBe(signOutHref('pcgs', locale));
    });

    it('a label the desktop row, the account menus or the footer also link leads to the same page', () => {
      const data = shellData({ features: ['gettingStarted'] });
      const hrefOf = (links: readonly NavLink[], key: string) =>
        links.find((l) => l.key === key)?.href;
      const mobile = allLinks(mobileNav(data).sections);
      const desktop = allLinks(desktopNav(data));
      expect(hrefOf(mobile, 'vault')).toBe(hrefOf(desktop, 'vault'));
      expect(hrefOf(mobile, 'setRegistry')).toBe(hrefOf(desktop, 'setRegistry'));
      const settings = settingsMenu(data).links;
      const full = accountMenu(data).links;
      for (const key of ['home', 'orders', 'collection', 'vaultShipping', 'helpAndSupport'])
        expect({ key, href: hrefOf(settings, key) }).toEqual({ key, href: hrefOf(full, key) });
      expect(hrefOf(settings, 'customerRequestCenter')).toBe(hrefOf(full, 'requestCenter'));
      expect(hrefOf(settings, 'myAccount')).toBe(hrefOf(full, 'account'));
      expect(hrefOf(mobile, 'helpAndSupport')).toBe('https://grading.test/support'); // §2 routes
    });
  });

  describe('which account menu a shell shows (§2, issue 16 item 1)', () => {
    // The collectors brand's shell shows the alternative menu in every locale; any other brand the
    // §2 menu, reduced for Japan.
    const table: [string, Locale, AccountMenuKind][] = [];
    for (const brand of BRANDS)
      for (const locale of LOCALES) {
        const collectors = brand === 'collectors' || brand === 'collectorsmobile';
        table.push([
          brand,
          locale,
          collectors ? 'alternative' : locale === 'ja-JP' ? 'japan' : 'full',
        ]);
      }

    it.each(table)('%s in %s: %s', (brand, locale, expected) => {
      expect(accountMenuKind({ brand: brand as (typeof BRANDS)[number], locale })).toBe(expected);
    });

    // §2: "Account menu (alternative): Home, Orders, Collection & Vault, Account, Help & Support,
    // Submissions."
    it.each(LOCALES)('%s: the alternative menu’s entries, then Sign Out', (locale) => {
      const menu = accountMenu(shellData({ locale, brand: 'collectors' }));
      expect(menu.links.map((l) => l.label)).toEqual([
        'header.account.home',
        'header.account.orders',
        'header.account.collectionAndVault',
        'header.account.account',
        'header.account.helpAndSupport',
        'header.account.submissions',
      ]);
      expect(menu.signOut).toEqual({
        kind: 'link',
        key: 'signOut',
        label: 'header.actions.signOut',
        href: signOutHref('collectors', locale),
      });
    });
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
          ...accountMenu({ ...data, brand: 'collectors' }).links,
          ...allLinks(mobileNav(data).sections).filter((l) => !l.newTab),
          ...settingsMenu(data).links,
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
    const mobile = mobileNav(data);
    const labels = [
      ...desktopNav(data).map((item) => item.label),
      ...allLinks(desktopNav(data)).map((l) => l.label),
      ...allLinks(desktopNav(withoutFlag)).map((l) => l.label),
      ...menu.links.map((l) => l.label),
      menu.signOut.label,
      ...accountMenu({ ...data, brand: 'collectors' }).links.map((l) => l.label),
      ...mobile.sections.map((item) => item.label),
      ...allLinks(mobile.sections).map((l) => l.label),
      mobile.account.title,
      ...mobile.account.links.map((l) => l.label),
      mobile.account.signOut.label,
      'header.a11y.opensInNewTab',
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
