import type { Brand } from '../../../src/shared/brand';
import type { ServiceBases } from '../../../src/shared/environment';
import { DEFAULT_LOCALE, localizeUrl, type Locale } from '../../../src/shared/locale';
import { SOCIAL_NETWORKS, socialHref, type SocialNetwork } from '../footer/footer-links';
import type { ShellData } from '../shell-data';
import { localizedPath, servicePath } from '../../../src/shared/routes';
import { brandLogo } from './header-brand';

/**
 * The full header's navigation as data (§2 "Headers"). The spec names the entries and their order but
 * not their paths ("Actual paths for these entries: not shown"), so the paths below are our choice:
 * short, lower-case paths on the grading site (ServiceBases.grading), or on the Japanese grading site
 * (ServiceBases.gradingJapan) for the Japan locale. Every entry sits on one of the configured hosts,
 * so each environment's links point at that environment's sites (§1); the one exception is the
 * social links of the mobile panel's More section, which are the footer's (§2 Footer).
 *
 * The tables feed two places (issue 16 item 1): the desktop row (§2's desktop navigation and account
 * menus) and the mobile panel (§2's shared header labels, with the settings menu as its account
 * section).
 *
 * Localisation (§2 "Locale path rule"): grading-site links carry the language as a path prefix
 * (`/fr-CA/...`; none for en-US). The Japanese site serves Japanese only, so its links are left
 * unlocalised ("others are left unlocalized").
 */

/** A translation key in the header namespace. */
export type HeaderKey = `header.${string}`;

/** The sites header links may point at: two of the four configured service bases. */
export type HeaderSite = Extract<keyof ServiceBases, 'grading' | 'gradingJapan'>;

interface LinkSpec {
  readonly key: string;
  readonly label: HeaderKey;
  readonly path: string;
}

interface DropdownSpec {
  readonly key: string;
  readonly label: HeaderKey;
  readonly links: readonly LinkSpec[];
  /** §2 "More: ..., social links": networks listed after the links, at the footer's addresses. */
  readonly social?: readonly SocialNetwork[];
}

type NavSpec =
  ({ readonly kind: 'link' } & LinkSpec) | ({ readonly kind: 'dropdown' } & DropdownSpec);

/** A resolved link: a label key and an absolute href (or our own origin's path for sign-out). */
export interface NavLink {
  readonly kind: 'link';
  readonly key: string;
  readonly label: HeaderKey;
  readonly href: string;
  /** §2 "Social links open in a new tab" (the footer's rule, kept in the header's More section). */
  readonly newTab?: true;
}

/** A desktop dropdown, which the mobile panel shows as an expandable section. */
export interface NavDropdown {
  readonly kind: 'dropdown';
  readonly key: string;
  readonly label: HeaderKey;
  readonly links: readonly NavLink[];
}

export type NavItem = NavLink | NavDropdown;

export interface AccountMenu {
  readonly links: readonly NavLink[];
  readonly signOut: NavLink;
}

/** §2 "Settings menu": a titled account menu ("Menu"), ending with Sign Out. */
export interface SettingsMenu extends AccountMenu {
  readonly title: HeaderKey;
}

export interface MobileNav {
  /** §2 shared header labels: plain links and expandable sections (Research, Info Center, More). */
  readonly sections: readonly NavItem[];
  /** §2: "plus an account section", which is the settings menu (issue 16 item 1). */
  readonly account: SettingsMenu;
}

/** Which of §2's account menus the desktop header shows. */
export type AccountMenuKind = 'full' | 'japan' | 'alternative';

/**
 * Below this width (px) the desktop navigation hides and the mobile toggle shows (header.css). Issue
 * 33: the navigation must fit on one line wherever it shows, and in French it needs 1024 px.
 */
export const DESKTOP_MIN_WIDTH = 1024;

/** §9 "Menu resize handler delay". */
export const MENU_RESIZE_DELAY_MS = 500;

/** §3 "Enabled-features data": switches the first entry from a plain link to a dropdown. */
export const GETTING_STARTED_FEATURE = 'gettingStarted';

const HOW_IT_WORKS = {
  key: 'howItWorks',
  label: 'header.nav.gettingStarted.howItWorks',
  path: '/how-it-works',
} as const satisfies LinkSpec;

/** First entry with the gettingStarted flag on. */
const GETTING_STARTED = {
  kind: 'dropdown',
  key: 'gettingStarted',
  label: 'header.nav.gettingStarted.title',
  links: [
    HOW_IT_WORKS,
    { key: 'videoTutorials', label: 'header.nav.gettingStarted.videoTutorials', path: '/videos' },
  ],
} as const satisfies NavSpec;

/**
 * §2 "Research: Cert Verification, Auction Prices, Pop Report, Population Report, Price Guide, Card
 * Facts, Card Ladder": the same dropdown on the desktop row and as a section of the mobile panel.
 */
const RESEARCH = {
  kind: 'dropdown',
  key: 'research',
  label: 'header.nav.research.title',
  links: [
    { key: 'certVerification', label: 'header.nav.research.certVerification', path: '/cert' },
    { key: 'auctionPrices', label: 'header.nav.research.auctionPrices', path: '/auctionprices' },
    { key: 'popReport', label: 'header.nav.research.popReport', path: '/pop' },
    {
      key: 'populationReport',
      label: 'header.nav.research.populationReport',
      path: '/population-report',
    },
    { key: 'priceGuide', label: 'header.nav.research.priceGuide', path: '/priceguide' },
    // Card Facts and Card Ladder are product names: their labels live under brandNames.
    { key: 'cardFacts', label: 'header.brandNames.cardFacts', path: '/cardfacts' },
    { key: 'cardLadder', label: 'header.brandNames.cardLadder', path: '/cardladder' },
  ],
} as const satisfies NavSpec;

/** §2: the desktop entries after the first, in the spec's order. */
const GRADING_NAV = [
  {
    kind: 'dropdown',
    key: 'pricingAndServices',
    label: 'header.nav.pricingAndServices.title',
    links: [
      {
        key: 'authenticationAndGrading',
        label: 'header.nav.pricingAndServices.authenticationAndGrading',
        path: '/services',
      },
      {
        key: 'activeSpecials',
        label: 'header.nav.pricingAndServices.activeSpecials',
        path: '/specials',
      },
      { key: 'teamStore', label: 'header.nav.pricingAndServices.teamStore', path: '/teamstore' },
    ],
  },
  {
    kind: 'dropdown',
    key: 'vaultAndSell',
    label: 'header.nav.vaultAndSell.title',
    links: [
      { key: 'vault', label: 'header.nav.vault', path: '/vault' },
      // The auction marketplace is reached through the grading site's own page about it: its host
      // is not among the four configured services (§1).
      { key: 'sellWithGoldin', label: 'header.nav.vaultAndSell.sellWithGoldin', path: '/goldin' },
    ],
  },
  { kind: 'link', key: 'setRegistry', label: 'header.nav.setRegistry', path: '/setregistry' },
  RESEARCH,
  {
    kind: 'dropdown',
    key: 'nearMe',
    label: 'header.nav.nearMe.title',
    links: [
      {
        key: 'dropOffEventsAndShows',
        label: 'header.nav.nearMe.dropOffEventsAndShows',
        path: '/near-me',
      },
    ],
  },
] as const satisfies readonly NavSpec[];

/** §2: "The Japan locale has a reduced navigation: about, grading standards, research, contact." */
const JAPAN_NAV = [
  { kind: 'link', key: 'about', label: 'header.japanNav.about', path: '/about' },
  {
    kind: 'link',
    key: 'gradingStandards',
    label: 'header.japanNav.gradingStandards',
    path: '/grading-standards',
  },
  { kind: 'link', key: 'research', label: 'header.japanNav.research', path: '/research' },
  { kind: 'link', key: 'contact', label: 'header.japanNav.contact', path: '/contact' },
] as const satisfies readonly NavSpec[];

/**
 * §2 "Shared header labels across the site", the mobile panel's sections (issue 16 item 1), in the
 * spec's order: Services & Prices; Research; Vault; Set Registry; Info Center; More; About; Contact.
 * A label with entries is an expandable section, the others are plain links. Paths are our choice
 * (§2 "Actual paths for these entries: not shown"); where the desktop row, the Japan navigation or a
 * grading-site link of the footer already links a label, the same path is used. The footer's Forums
 * is on the Collectors site, which is not a configured host: the header's Forums stays on the
 * grading site (docs/shell.md, "Where each §2 header label shows").
 */
const SHARED_SITE_NAV = [
  {
    kind: 'link',
    key: 'servicesAndPrices',
    label: 'header.nav.servicesAndPrices',
    path: '/pricing',
  },
  RESEARCH,
  { kind: 'link', key: 'vault', label: 'header.nav.vault', path: '/vault' },
  { kind: 'link', key: 'setRegistry', label: 'header.nav.setRegistry', path: '/setregistry' },
  {
    kind: 'dropdown',
    key: 'infoCenter',
    label: 'header.nav.infoCenter.title',
    links: [
      {
        key: 'gradingStandards',
        label: 'header.nav.infoCenter.gradingStandards',
        path: '/grading-standards',
      },
      {
        key: 'packagingGuidelines',
        label: 'header.nav.infoCenter.packagingGuidelines',
        path: '/packaging-guidelines',
      },
      { key: 'hobbyNews', label: 'header.nav.infoCenter.hobbyNews', path: '/news' },
      { key: 'resources', label: 'header.nav.infoCenter.resources', path: '/resources' },
      { key: 'faq', label: 'header.nav.infoCenter.faq', path: '/faq' },
      // §2 routes: "{host}/support", the grading site's support page.
      { key: 'helpAndSupport', label: 'header.nav.infoCenter.helpAndSupport', path: '/support' },
    ],
  },
  {
    kind: 'dropdown',
    key: 'more',
    label: 'header.nav.more.title',
    links: [
      { key: 'collectorsClub', label: 'header.nav.more.collectorsClub', path: '/collectorsclub' },
      { key: 'store', label: 'header.nav.more.store', path: '/shop' },
      { key: 'sales', label: 'header.nav.more.sales', path: '/sales' },
      { key: 'dealerDirectory', label: 'header.nav.more.dealerDirectory', path: '/dealers' },
      { key: 'forums', label: 'header.nav.more.forums', path: '/forums' },
    ],
    social: SOCIAL_NETWORKS,
  },
  { kind: 'link', key: 'about', label: 'header.nav.about', path: '/about' },
  { kind: 'link', key: 'contact', label: 'header.nav.contact', path: '/contact' },
] as const satisfies readonly NavSpec[];

/** §2 account menu entries, in order. Help and support is the grading site's /support (§2 routes). */
const ACCOUNT_MENU = [
  { key: 'home', label: 'header.account.home', path: '/myaccount' },
  {
    key: 'submissionsDashboard',
    label: 'header.account.submissionsDashboard',
    path: '/myaccount/submissions',
  },
  { key: 'orders', label: 'header.account.orders', path: '/myaccount/orders' },
  { key: 'collection', label: 'header.account.collection', path: '/myaccount/collection' },
  {
    key: 'vaultShipping',
    label: 'header.account.vaultShipping',
    path: '/myaccount/vault-shipping',
  },
  { key: 'requestCenter', label: 'header.account.requestCenter', path: '/myaccount/requests' },
  { key: 'helpAndSupport', label: 'header.account.helpAndSupport', path: '/support' },
  { key: 'account', label: 'header.account.account', path: '/myaccount/settings' },
] as const satisfies readonly LinkSpec[];

/** §2: "For Japan: submissions, orders, request center, account." */
const JAPAN_ACCOUNT_MENU = [
  { key: 'submissions', label: 'header.account.submissions', path: '/myaccount/submissions' },
  { key: 'orders', label: 'header.account.orders', path: '/myaccount/orders' },
  { key: 'requestCenter', label: 'header.account.requestCenter', path: '/myaccount/requests' },
  { key: 'account', label: 'header.account.account', path: '/myaccount/settings' },
] as const satisfies readonly LinkSpec[];

/**
 * §2 "Account menu (alternative): Home, Orders, Collection & Vault, Account, Help & Support,
 * Submissions", the account menu of the collectors brand's shell (issue 16 item 1). Same pages as the
 * entries of the full menu with the same meaning.
 */
const ALTERNATIVE_ACCOUNT_MENU = [
  { key: 'home', label: 'header.account.home', path: '/myaccount' },
  { key: 'orders', label: 'header.account.orders', path: '/myaccount/orders' },
  {
    key: 'collectionAndVault',
    label: 'header.account.collectionAndVault',
    path: '/myaccount/collection',
  },
  { key: 'account', label: 'header.account.account', path: '/myaccount/settings' },
  { key: 'helpAndSupport', label: 'header.account.helpAndSupport', path: '/support' },
  { key: 'submissions', label: 'header.account.submissions', path: '/myaccount/submissions' },
] as const satisfies readonly LinkSpec[];

/**
 * The brands whose shell shows the alternative account menu: the collectors brand, on the web and in
 * its app. Every other brand's shell shows the §2 account menu (the Japan set for ja-JP).
 */
const ALTERNATIVE_ACCOUNT_MENU_BRANDS: ReadonlySet<Brand> = new Set<Brand>([
  'collectors',
  'collectorsmobile',
]);

const ACCOUNT_MENUS: Readonly<Record<AccountMenuKind, readonly LinkSpec[]>> = {
  full: ACCOUNT_MENU,
  japan: JAPAN_ACCOUNT_MENU,
  alternative: ALTERNATIVE_ACCOUNT_MENU,
};

/**
 * §2 "Settings menu: Menu, Home, Profile, My Account, Orders, Collection, Vault Shipping, Customer
 * Request Center, Help & Support, Sign Out": the mobile panel's account section in every locale
 * (issue 16 item 1). "Menu" is its title; Sign Out is added by settingsMenu.
 */
const SETTINGS_MENU_TITLE: HeaderKey = 'header.settingsMenu.title';
const SETTINGS_MENU = [
  { key: 'home', label: 'header.settingsMenu.home', path: '/myaccount' },
  { key: 'profile', label: 'header.settingsMenu.profile', path: '/myaccount/profile' },
  { key: 'myAccount', label: 'header.settingsMenu.myAccount', path: '/myaccount/settings' },
  { key: 'orders', label: 'header.settingsMenu.orders', path: '/myaccount/orders' },
  { key: 'collection', label: 'header.settingsMenu.collection', path: '/myaccount/collection' },
  {
    key: 'vaultShipping',
    label: 'header.settingsMenu.vaultShipping',
    path: '/myaccount/vault-shipping',
  },
  {
    key: 'customerRequestCenter',
    label: 'header.settingsMenu.customerRequestCenter',
    path: '/myaccount/requests',
  },
  { key: 'helpAndSupport', label: 'header.settingsMenu.helpAndSupport', path: '/support' },
] as const satisfies readonly LinkSpec[];

const START_SUBMISSION_PATH = '/submit';

/** The data the header's links depend on. */
type NavData = Pick<ShellData, 'locale' | 'services' | 'features' | 'brand'>;

/** §2: the Japan locale gets the Japanese site and the reduced navigation. */
export function isJapanHeader(data: Pick<ShellData, 'locale'>): boolean {
  return data.locale === 'ja-JP';
}

function siteOf(data: Pick<ShellData, 'locale'>): HeaderSite {
  return isJapanHeader(data) ? 'gradingJapan' : 'grading';
}

/** An absolute href on one of the configured sites, localised by the §2 path rule where it applies. */
export function siteHref(
  services: ServiceBases,
  site: HeaderSite,
  path: string,
  locale: Locale,
): string {
  const href = `${services[site].replace(/\/+$/, '')}${path}`;
  return site === 'grading' ? localizeUrl(href, locale, { style: 'path' }) : href;
}

function resolveLink(data: NavData, spec: LinkSpec): NavLink {
  return {
    kind: 'link',
    key: spec.key,
    label: spec.label,
    href: siteHref(data.services, siteOf(data), spec.path, data.locale),
  };
}

/** §2 social links: the footer's addresses (the Japanese accounts for ja-JP), in a new tab. */
function socialLink(data: NavData, network: SocialNetwork): NavLink {
  return {
    kind: 'link',
    key: network,
    label: `header.brandNames.${network}`,
    href: socialHref(network, data.locale),
    newTab: true,
  };
}

function resolveItem(data: NavData, spec: NavSpec): NavItem {
  if (spec.kind === 'link') return resolveLink(data, spec);
  return {
    kind: 'dropdown',
    key: spec.key,
    label: spec.label,
    links: [
      ...spec.links.map((link) => resolveLink(data, link)),
      ...(spec.social ?? []).map((network) => socialLink(data, network)),
    ],
  };
}

/** §2 desktop navigation, in order; the reduced set for the Japan locale. */
export function desktopNav(data: NavData): readonly NavItem[] {
  if (isJapanHeader(data)) return JAPAN_NAV.map((spec) => resolveItem(data, spec));
  const first: NavSpec = data.features.includes(GETTING_STARTED_FEATURE)
    ? GETTING_STARTED
    : { kind: 'link', ...HOW_IT_WORKS };
  return [first, ...GRADING_NAV].map((spec) => resolveItem(data, spec));
}

/** `lang` by the §2 locale rule: the default language gets none. */
const langOf = (locale: Locale) => (locale === DEFAULT_LOCALE ? undefined : locale);

/**
 * §2 "Used for sign-out when the brand is known": our own origin's route, with the brand and the
 * collector's language, which the sign-out carries to its landing and on (issue 14 item 2).
 */
export function signOutHref(brand: Brand, locale: Locale = DEFAULT_LOCALE): string {
  return servicePath('logout', { b: brand, lang: langOf(locale) });
}

/**
 * §2: which account menu a shell shows. The collectors brand's shell shows the alternative menu in
 * every locale (its entries name that brand's pages); for every other brand the Japan locale gets
 * "submissions, orders, request center, account" and the others the full menu.
 */
export function accountMenuKind(data: Pick<NavData, 'brand' | 'locale'>): AccountMenuKind {
  if (ALTERNATIVE_ACCOUNT_MENU_BRANDS.has(data.brand)) return 'alternative';
  return isJapanHeader(data) ? 'japan' : 'full';
}

function signOutLink(data: NavData, label: HeaderKey): NavLink {
  return { kind: 'link', key: 'signOut', label, href: signOutHref(data.brand, data.locale) };
}

/** §2 account menu entries (accountMenuKind picks the set), then Sign Out. */
export function accountMenu(data: NavData): AccountMenu {
  return {
    links: ACCOUNT_MENUS[accountMenuKind(data)].map((spec) => resolveLink(data, spec)),
    signOut: signOutLink(data, 'header.actions.signOut'),
  };
}

/** §2 settings menu, the same in every locale (§2 gives it no Japan variant), ending with Sign Out. */
export function settingsMenu(data: NavData): SettingsMenu {
  return {
    title: SETTINGS_MENU_TITLE,
    links: SETTINGS_MENU.map((spec) => resolveLink(data, spec)),
    signOut: signOutLink(data, 'header.settingsMenu.signOut'),
  };
}

/** §2 shared header labels: the mobile panel's sections, the same in every locale. */
export function sharedSiteNav(data: NavData): readonly NavItem[] {
  return SHARED_SITE_NAV.map((spec) => resolveItem(data, spec));
}

/**
 * §2 "The mobile navigation is a toggle panel with expandable sections plus an account section"
 * (issue 16 item 1): the sections are the shared site sections, the account section the settings
 * menu. The desktop row keeps §2's desktop navigation and account menu.
 */
export function mobileNav(data: NavData): MobileNav {
  return { sections: sharedSiteNav(data), account: settingsMenu(data) };
}

/** §2: the start-submission button; its label is 'submit' for the Japan locale. */
export function startSubmissionLink(data: NavData): NavLink {
  return resolveLink(data, {
    key: 'startSubmission',
    label: isJapanHeader(data) ? 'header.actions.submit' : 'header.actions.startSubmission',
    path: START_SUBMISSION_PATH,
  });
}

/**
 * §2 "A logo linking to the brand home" (the logo is the session's brand, header-brand.ts): the PSA
 * logo goes to the grading site's home (the Japanese site's for ja-JP). The collectors brand's home is
 * this service (its brand table row says `self`): the account page in the collector's language. The
 * PCGS site is not among the configured services (§1), so its logo goes there too.
 */
export function homeHref(data: NavData): string {
  if (brandLogo(data.brand) !== 'psa') return localizedPath('collection', data.locale);
  return siteHref(data.services, siteOf(data), '/', data.locale);
}

/**
 * When nobody is signed in (the error page may show the shell): §2 "/signin", our own origin, in the
 * page's language.
 */
export function signInLink(locale: Locale): NavLink {
  return {
    kind: 'link',
    key: 'signIn',
    label: 'header.actions.signIn',
    href: servicePath('signin', { lang: langOf(locale) }),
  };
}
