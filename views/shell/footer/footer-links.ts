import type { Brand, Logo } from '../../../src/shared/brand';
import type { AppEnv, ServiceBases } from '../../../src/shared/environment';
import { localizeUrl, type Locale } from '../../../src/shared/locale';
import { brandLogo } from '../header/header-brand';
import type { ShellData } from '../shell-data';

/** §2 Footer: the three variants. */
export const FOOTER_VARIANTS = ['default', 'legal', 'powerpacks'] as const;
export type FooterVariant = (typeof FOOTER_VARIANTS)[number];

/**
 * Brands whose pages have a legal footer of their own (issue 14 item 3: "Powerpacks' pages use the
 * powerpacks footer"). The power-pack footer is that brand's legal footer: the same bottom bar with
 * its user agreement and support instead of the grading site's terms and support.
 */
const OWN_LEGAL_FOOTER: Readonly<Partial<Record<Brand, FooterVariant>>> = {
  powerpacks: 'powerpacks',
};

/** The variant a page of `brand` shows when it asks for `variant` (only `legal` varies by brand). */
export function footerVariantFor(variant: FooterVariant, brand: Brand): FooterVariant {
  return variant === 'legal' ? (OWN_LEGAL_FOOTER[brand] ?? 'legal') : variant;
}

/**
 * Sites the footer links to that the configuration does not name (it has only the four §1 service
 * bases). Exact hosts are "not shown" in the spec: the addresses below are this project's choice.
 */
export type ExternalSite = 'collectors' | 'privacy' | 'cardPriceTool' | 'tradeShow';
/** Where a footer link lives: one of the four configured services, or an external site. */
export type LinkHost = keyof ServiceBases | ExternalSite;

/**
 * How a link carries the collector's language (§2 "Locale path rule", via localizeUrl):
 * - `path`: a `/fr-CA` prefix: the grading site serves its pages under locale prefixes, like the
 *   §5 legal agreement URL on a brand base.
 * - `query`: `?lang=fr-CA`: the privacy site, the collector-identity router and the power-pack site
 *   take the language as a parameter.
 * - `none`: unlocalized: sites published in one language (the Japan site, Card Ladder, the trade
 *   show, the Collectors site and its forums).
 * en-US, the default language, gets neither a prefix nor a parameter.
 */
export type LinkLocalization = 'path' | 'query' | 'none';

/** Environment tiers of the external hosts: §1 "local and dev share the same addresses". */
type HostTier = 'developer' | 'qa' | 'prod';

/**
 * External hosts by environment (our choice; see ExternalSite). The Collectors site and the privacy
 * site have pre-production copies, so non-prod shells never send testers to production accounts.
 * Card Ladder and the Long Beach Expo are public marketing sites with no test copy: every
 * environment links to production.
 */
export const EXTERNAL_SITES: Readonly<Record<HostTier, Readonly<Record<ExternalSite, string>>>> = {
  developer: {
    collectors: 'https://dev.collectors.com',
    privacy: 'https://dev-privacy.collectors.com',
    cardPriceTool: 'https://www.cardladder.com',
    tradeShow: 'https://www.longbeachexpo.com',
  },
  qa: {
    collectors: 'https://qa.collectors.com',
    privacy: 'https://qa-privacy.collectors.com',
    cardPriceTool: 'https://www.cardladder.com',
    tradeShow: 'https://www.longbeachexpo.com',
  },
  prod: {
    collectors: 'https://www.collectors.com',
    privacy: 'https://privacy.collectors.com',
    cardPriceTool: 'https://www.cardladder.com',
    tradeShow: 'https://www.longbeachexpo.com',
  },
};

const HOST_TIERS: Readonly<Record<AppEnv, HostTier>> = {
  local: 'developer',
  dev: 'developer',
  qa: 'qa',
  prod: 'prod',
};

/** Every entry the footer can show. */
export type FooterItemId =
  | 'aboutUs'
  | 'careers'
  | 'pressAndMedia'
  | 'apps'
  | 'sales'
  | 'advertiseWithUs'
  | 'forums'
  | 'articles'
  | 'collectorsSite'
  | 'cardPriceTool'
  | 'tradeShow'
  | 'japanSite'
  | 'privacy'
  | 'yourPrivacyChoices'
  | 'guarantee'
  | 'termsAndConditions'
  | 'helpAndSupport'
  | 'customerRequestCenter'
  | 'findMyPackage'
  | 'faq'
  | 'userAgreement'
  | 'powerpacksSupport'
  | 'japanTermsAndDisclosure'
  | 'japanPrivacy'
  | 'japanCareers'
  | 'cookiePreferences';

interface LinkDefinition {
  readonly kind: 'link';
  readonly labelKey: string;
  readonly host: LinkHost;
  readonly path: string;
  readonly localization: LinkLocalization;
  /** Active on the pages below it too (isActiveLink's prefix match). */
  readonly prefix?: boolean;
  /** A short description read after the label (aria-describedby). */
  readonly hintKey?: string;
}

/** §2: 'your privacy choices' and 'cookie preferences' are buttons that open the consent dialog. */
interface ConsentDefinition {
  readonly kind: 'consent';
  readonly labelKey: string;
  /** What the button does, read after its visible name (aria-describedby). */
  readonly descriptionKey: string;
}

type ItemDefinition = LinkDefinition | ConsentDefinition;

const link = (
  labelKey: string,
  host: LinkHost,
  path: string,
  localization: LinkLocalization,
  extra: Pick<LinkDefinition, 'prefix' | 'hintKey'> = {},
): LinkDefinition => ({ kind: 'link', labelKey, host, path, localization, ...extra });

/**
 * The footer's entries: label, host, path and how each carries the language. Paths on the sister
 * sites are "not shown" in the spec and are our reading of their public sites. Account pages
 * (request center, orders) go through the collector-identity router, which sends a signed-in
 * collector to the account area of the right brand.
 */
export const FOOTER_ITEMS: Readonly<Record<FooterItemId, ItemDefinition>> = {
  // Company
  aboutUs: link('footer.company.aboutUs', 'grading', '/about', 'path'),
  careers: link('footer.company.careers', 'collectors', '/careers', 'none'),
  pressAndMedia: link('footer.company.pressAndMedia', 'grading', '/press', 'path', {
    prefix: true,
  }),
  apps: link('footer.company.apps', 'grading', '/apps', 'path'),
  // Resources
  sales: link('footer.resources.sales', 'grading', '/sales', 'path'),
  advertiseWithUs: link('footer.resources.advertiseWithUs', 'grading', '/advertise', 'path'),
  forums: link('footer.resources.forums', 'collectors', '/forums', 'none', { prefix: true }),
  articles: link('footer.resources.articles', 'grading', '/articles', 'path', { prefix: true }),
  // Affiliates
  collectorsSite: link('footer.brandNames.collectors', 'collectors', '/', 'none'),
  cardPriceTool: link('footer.brandNames.cardPriceTool', 'cardPriceTool', '/', 'none'),
  tradeShow: link('footer.brandNames.tradeShow', 'tradeShow', '/', 'none'),
  japanSite: link('footer.brandNames.japanSite', 'gradingJapan', '/', 'none'),
  // Privacy and terms
  privacy: link('footer.privacyAndTerms.privacy', 'privacy', '/', 'query'),
  yourPrivacyChoices: {
    kind: 'consent',
    labelKey: 'footer.privacyAndTerms.yourPrivacyChoices',
    descriptionKey: 'footer.a11y.privacyChoicesButton',
  },
  guarantee: link('footer.privacyAndTerms.guarantee', 'grading', '/guarantee', 'path'),
  termsAndConditions: link(
    'footer.privacyAndTerms.termsAndConditions',
    'grading',
    '/terms',
    'path',
  ),
  // Support
  helpAndSupport: link('footer.support.helpAndSupport', 'grading', '/support', 'path', {
    prefix: true,
  }),
  customerRequestCenter: link(
    'footer.support.customerRequestCenter',
    'cidRouter',
    '/requestcenter',
    'query',
  ),
  findMyPackage: link('footer.support.findMyPackage', 'cidRouter', '/myorders', 'query', {
    hintKey: 'footer.support.findMyPackageHint',
  }),
  faq: link('footer.support.faq', 'grading', '/faq', 'path'),
  // Power-pack site
  userAgreement: link(
    'footer.privacyAndTerms.userAgreement',
    'powerpacks',
    '/user-agreement',
    'query',
  ),
  powerpacksSupport: link('footer.support.helpAndSupport', 'powerpacks', '/support', 'query', {
    prefix: true,
  }),
  // Japan site: published in Japanese only
  japanTermsAndDisclosure: link(
    'footer.privacyAndTerms.termsAndDisclosure',
    'gradingJapan',
    '/terms',
    'none',
  ),
  japanPrivacy: link('footer.privacyAndTerms.privacy', 'gradingJapan', '/privacy', 'none'),
  japanCareers: link('footer.company.careers', 'gradingJapan', '/careers', 'none'),
  cookiePreferences: {
    kind: 'consent',
    labelKey: 'footer.privacyAndTerms.cookiePreferences',
    descriptionKey: 'footer.a11y.cookiePreferencesButton',
  },
};

export type FooterSectionId =
  'company' | 'resources' | 'affiliates' | 'privacyAndTerms' | 'support';

interface SectionDefinition {
  readonly id: FooterSectionId;
  readonly headingKey: string;
  readonly items: readonly FooterItemId[];
}

/** §2 Footer, default variant: the link grid. */
export const FOOTER_GRID: readonly SectionDefinition[] = [
  {
    id: 'company',
    headingKey: 'footer.company.heading',
    items: ['aboutUs', 'careers', 'pressAndMedia', 'apps'],
  },
  {
    id: 'resources',
    headingKey: 'footer.resources.heading',
    items: ['sales', 'advertiseWithUs', 'forums', 'articles'],
  },
  {
    id: 'affiliates',
    headingKey: 'footer.affiliates.heading',
    items: ['collectorsSite', 'cardPriceTool', 'tradeShow', 'japanSite'],
  },
  {
    id: 'privacyAndTerms',
    headingKey: 'footer.privacyAndTerms.heading',
    items: ['privacy', 'yourPrivacyChoices', 'guarantee', 'termsAndConditions'],
  },
  {
    id: 'support',
    headingKey: 'footer.support.heading',
    items: ['helpAndSupport', 'customerRequestCenter', 'findMyPackage', 'faq'],
  },
];

export const SOCIAL_NETWORKS = ['facebook', 'x', 'instagram', 'youtube'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** The Japanese locale shows the Japan site's footer (§2 Footer, "Japanese locale"). */
type FooterRegion = 'global' | 'japan';

/**
 * §2: social addresses; X and Instagram have Japanese accounts. Social pages have no test copies, so
 * unlike EXTERNAL_SITES this table does not vary by environment. The Japanese handles are our
 * reading of the public accounts (the spec does not show them).
 */
export const SOCIAL_LINKS: Readonly<
  Record<SocialNetwork, { readonly labelKey: string; readonly href: Record<FooterRegion, string> }>
> = {
  facebook: {
    labelKey: 'footer.bottomBar.facebookLabel',
    href: { global: 'https://www.facebook.com/PSAcard', japan: 'https://www.facebook.com/PSAcard' },
  },
  x: {
    labelKey: 'footer.bottomBar.xLabel',
    href: { global: 'https://x.com/PSAcard', japan: 'https://x.com/PSAJapan' },
  },
  instagram: {
    labelKey: 'footer.bottomBar.instagramLabel',
    href: {
      global: 'https://www.instagram.com/psacard/',
      japan: 'https://www.instagram.com/psa_japan/',
    },
  },
  youtube: {
    labelKey: 'footer.bottomBar.youtubeLabel',
    href: {
      global: 'https://www.youtube.com/@PSAcard',
      japan: 'https://www.youtube.com/@PSAcard',
    },
  },
};

export type CopyrightKey = 'footer.bottomBar.copyright' | 'footer.bottomBar.powerpacksCopyright';

interface FooterLayout {
  readonly grid: readonly SectionDefinition[];
  readonly bottomLinks: readonly FooterItemId[];
  readonly social: boolean;
  readonly brandLogo: boolean;
  readonly copyrightKey: CopyrightKey;
}

const POWERPACKS_LAYOUT: FooterLayout = {
  grid: [],
  bottomLinks: ['userAgreement', 'privacy', 'powerpacksSupport', 'yourPrivacyChoices'],
  social: false,
  brandLogo: false,
  copyrightKey: 'footer.bottomBar.powerpacksCopyright',
};

/**
 * §2 Footer, one row per region and variant. The spec gives the Japanese locale its own default and
 * legal footers only; the power-pack footer is the same in every locale (its links carry `lang`).
 */
export const FOOTER_LAYOUTS: Readonly<Record<FooterRegion, Record<FooterVariant, FooterLayout>>> = {
  global: {
    default: {
      grid: FOOTER_GRID,
      bottomLinks: [],
      social: true,
      brandLogo: true,
      copyrightKey: 'footer.bottomBar.copyright',
    },
    legal: {
      grid: [],
      bottomLinks: ['termsAndConditions', 'privacy', 'helpAndSupport', 'yourPrivacyChoices'],
      social: false,
      brandLogo: true,
      copyrightKey: 'footer.bottomBar.copyright',
    },
    powerpacks: POWERPACKS_LAYOUT,
  },
  japan: {
    default: {
      grid: [],
      bottomLinks: ['japanTermsAndDisclosure', 'japanPrivacy', 'japanCareers', 'cookiePreferences'],
      social: true,
      brandLogo: true,
      copyrightKey: 'footer.bottomBar.copyright',
    },
    legal: {
      grid: [],
      bottomLinks: ['japanTermsAndDisclosure', 'japanPrivacy', 'cookiePreferences'],
      social: false,
      brandLogo: true,
      copyrightKey: 'footer.bottomBar.copyright',
    },
    powerpacks: POWERPACKS_LAYOUT,
  },
};

/** A footer entry ready to render: a link with its final address, or a consent button. */
export type FooterItem =
  | {
      readonly kind: 'link';
      readonly id: FooterItemId;
      readonly labelKey: string;
      readonly href: string;
      /** How Footer matches it against the current page for aria-current (isActiveLink). */
      readonly match: ActiveMatch;
      readonly hintKey?: string;
    }
  | {
      readonly kind: 'consent';
      readonly id: FooterItemId;
      readonly labelKey: string;
      readonly descriptionKey: string;
    };

export interface FooterSection {
  readonly id: FooterSectionId;
  readonly headingKey: string;
  readonly items: readonly FooterItem[];
}

export interface SocialLink {
  readonly network: SocialNetwork;
  readonly labelKey: string;
  readonly href: string;
}

export interface FooterModel {
  readonly variant: FooterVariant;
  /** The link grid; empty for the legal and power-pack variants and for the Japanese locale. */
  readonly sections: readonly FooterSection[];
  /** Links and buttons of the bottom bar. */
  readonly bottomLinks: readonly FooterItem[];
  /** Social icons (they open in a new tab); empty when the variant shows none. */
  readonly social: readonly SocialLink[];
  readonly showSocial: boolean;
  /** The brand logo of the bottom bar: the collector's brand, absent in the power-pack footer. */
  readonly logo?: { readonly logo: Logo; readonly altKey: string };
  readonly showBrandLogo: boolean;
  readonly copyrightKey: CopyrightKey;
}

/** What footerModel reads from the shell data. */
export type FooterData = Pick<ShellData, 'locale' | 'env' | 'services' | 'brand'>;

/** The base address of a host in this environment: the configured service, or EXTERNAL_SITES. */
export function hostBase(host: LinkHost, env: AppEnv, services: ServiceBases): string {
  switch (host) {
    case 'grading':
    case 'gradingJapan':
    case 'cidRouter':
    case 'powerpacks':
      return services[host];
    case 'collectors':
    case 'privacy':
    case 'cardPriceTool':
    case 'tradeShow':
      return EXTERNAL_SITES[HOST_TIERS[env]][host];
  }
}

/** The address of a footer link in this environment and locale. */
export function footerHref(definition: LinkDefinition, data: FooterData): string {
  const base = hostBase(definition.host, data.env, data.services).replace(/\/+$/, '');
  const url = `${base}${definition.path === '/' ? '/' : definition.path}`;
  return definition.localization === 'none'
    ? url
    : localizeUrl(url, data.locale, { style: definition.localization });
}

/** `exact` or `prefix` path match (§2), or `never` for a link that cannot be this page. */
export type ActiveMatch = 'exact' | 'prefix' | 'never';

/**
 * The home page of another site (the affiliates, the privacy site) is never a page of this shell,
 * but compared by path alone (§2) it would be "current" on every root page: it is never marked.
 */
function activeMatch(definition: LinkDefinition): ActiveMatch {
  if (definition.path === '/') return 'never';
  return definition.prefix === true ? 'prefix' : 'exact';
}

function footerItem(id: FooterItemId, data: FooterData): FooterItem {
  const definition = FOOTER_ITEMS[id];
  if (definition.kind === 'consent') {
    const { labelKey, descriptionKey } = definition;
    return { kind: 'consent', id, labelKey, descriptionKey };
  }
  return {
    kind: 'link',
    id,
    labelKey: definition.labelKey,
    href: footerHref(definition, data),
    match: activeMatch(definition),
    ...(definition.hintKey ? { hintKey: definition.hintKey } : {}),
  };
}

function footerRegion(locale: Locale): FooterRegion {
  return locale === 'ja-JP' ? 'japan' : 'global';
}

/** §2: a social network's address in this locale (X and Instagram differ for Japanese). */
export function socialHref(network: SocialNetwork, locale: Locale): string {
  return SOCIAL_LINKS[network].href[footerRegion(locale)];
}

/** Proper nouns of the logos, read as the image's text alternative. */
const LOGO_ALT_KEYS: Readonly<Record<Logo, string>> = {
  collectors: 'footer.brandNames.collectors',
  pcgs: 'footer.brandNames.pcgs',
  psa: 'footer.brandNames.psa',
  psavault: 'footer.brandNames.psavault',
  wata: 'footer.brandNames.wata',
};

/** §2 Footer: what a footer of this variant shows for this shell's locale, environment and brand. */
export function footerModel(data: FooterData, variant: FooterVariant = 'default'): FooterModel {
  const region = footerRegion(data.locale);
  const layout = FOOTER_LAYOUTS[region][variant];
  // Issue 33: the same brand mark as the page's header and favicon (one table, header-brand.ts).
  const logo = brandLogo(data.brand);
  return {
    variant,
    sections: layout.grid.map((section) => ({
      id: section.id,
      headingKey: section.headingKey,
      items: section.items.map((id) => footerItem(id, data)),
    })),
    bottomLinks: layout.bottomLinks.map((id) => footerItem(id, data)),
    social: layout.social
      ? SOCIAL_NETWORKS.map((network) => ({
          network,
          labelKey: SOCIAL_LINKS[network].labelKey,
          href: socialHref(network, data.locale),
        }))
      : [],
    showSocial: layout.social,
    ...(layout.brandLogo ? { logo: { logo, altKey: LOGO_ALT_KEYS[logo] } } : {}),
    showBrandLogo: layout.brandLogo,
    copyrightKey: layout.copyrightKey,
  };
}
