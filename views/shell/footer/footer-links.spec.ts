import { LOCALES, type Locale } from '../../../src/shared/locale';
import { SERVICE_NAMES, type AppEnv } from '../../../src/shared/environment';
import {
  EXTERNAL_SITES,
  FOOTER_VARIANTS,
  footerModel,
  type FooterItem,
  type FooterItemId,
  type FooterModel,
  type FooterSectionId,
  type FooterVariant,
} from './footer-links';
import { APP_ENVS, TEST_SERVICE_BASES, shellData } from '../../../test/fixtures/footer-test-data';

const ids = (items: readonly FooterItem[]) => items.map((i) => i.id);
const allItems = (m: FooterModel) => [...m.sections.flatMap((s) => s.items), ...m.bottomLinks];
const hrefOf = (m: FooterModel, id: FooterItemId) => {
  const item = allItems(m).find((i) => i.id === id);
  if (item?.kind !== 'link') throw new Error(`${id} is not a link of this footer`);
  return item.href;
};

const GRID: readonly FooterSectionId[] = [
  'company',
  'resources',
  'affiliates',
  'privacyAndTerms',
  'support',
];

interface Expected {
  readonly sections: readonly FooterSectionId[];
  readonly bottomLinks: readonly FooterItemId[];
  readonly social: boolean;
  readonly brandLogo: boolean;
  readonly copyright: 'copyright' | 'powerpacksCopyright';
}

/** §2 Footer, read as a table: what each variant shows, for the Japanese locale and the others. */
const SPEC: Readonly<Record<'ja-JP' | 'other', Record<FooterVariant, Expected>>> = {
  other: {
    default: {
      sections: GRID,
      bottomLinks: [],
      social: true,
      brandLogo: true,
      copyright: 'copyright',
    },
    legal: {
      sections: [],
      bottomLinks: ['termsAndConditions', 'privacy', 'helpAndSupport', 'yourPrivacyChoices'],
      social: false,
      brandLogo: true,
      copyright: 'copyright',
    },
    powerpacks: {
      sections: [],
      bottomLinks: ['userAgreement', 'privacy', 'powerpacksSupport', 'yourPrivacyChoices'],
      social: false,
      brandLogo: false,
      copyright: 'powerpacksCopyright',
    },
  },
  'ja-JP': {
    default: {
      sections: [],
      bottomLinks: ['japanTermsAndDisclosure', 'japanPrivacy', 'japanCareers', 'cookiePreferences'],
      social: true,
      brandLogo: true,
      copyright: 'copyright',
    },
    legal: {
      sections: [],
      bottomLinks: ['japanTermsAndDisclosure', 'japanPrivacy', 'cookiePreferences'],
      social: false,
      brandLogo: true,
      copyright: 'copyright',
    },
    powerpacks: {
      sections: [],
      bottomLinks: ['userAgreement', 'privacy', 'powerpacksSupport', 'yourPrivacyChoices'],
      social: false,
      brandLogo: false,
      copyright: 'powerpacksCopyright',
    },
  },
};

const CASES = FOOTER_VARIANTS.flatMap((variant) =>
  LOCALES.flatMap((locale) => APP_ENVS.map((env) => [variant, locale, env] as const)),
);

describe(footerModel.name, () => {
  describe.each(CASES)('%s footer, %s, %s', (variant, locale, env) => {
    const expected = SPEC[locale === 'ja-JP' ? 'ja-JP' : 'other'][variant];
    const model = footerModel(shellData({ locale, env }), variant);

    it('shows the sections, bottom links, social icons, logo and copyright of §2', () => {
      expect({
        sections: model.sections.map((s) => s.id),
        bottomLinks: ids(model.bottomLinks),
        social: model.showSocial,
        socialNetworks: model.social.map((s) => s.network),
        brandLogo: model.showBrandLogo,
        logo: model.logo?.logo,
        copyright: model.copyrightKey,
      }).toEqual({
        sections: expected.sections,
        bottomLinks: expected.bottomLinks,
        social: expected.social,
        socialNetworks: expected.social ? ['facebook', 'x', 'instagram', 'youtube'] : [],
        brandLogo: expected.brandLogo,
        logo: expected.brandLogo ? 'psa' : undefined,
        copyright: `footer.bottomBar.${expected.copyright}`,
      });
    });

    it('links only to this environment’s services and external sites, over https', () => {
      const tier = env === 'local' || env === 'dev' ? 'developer' : env;
      const allowed = new Set(
        [
          ...SERVICE_NAMES.map((name) => TEST_SERVICE_BASES[env][name]),
          ...Object.values(EXTERNAL_SITES[tier]),
        ].map((base) => new URL(base).origin),
      );
      for (const item of allItems(model)) {
        if (item.kind !== 'link') continue;
        const url = new URL(item.href);
        expect({ id: item.id, protocol: url.protocol, allowed: allowed.has(url.origin) }).toEqual({
          id: item.id,
          protocol: 'https:',
          allowed: true,
        });
      }
    });

    it('makes the privacy choices and cookie preferences buttons, never links', () => {
      for (const item of allItems(model)) {
        const isConsent = item.id === 'yourPrivacyChoices' || item.id === 'cookiePreferences';
        expect({ id: item.id, kind: item.kind }).toEqual({
          id: item.id,
          kind: isConsent ? 'consent' : 'link',
        });
      }
    });
  });

  it('gives the default grid the entries of §2 in order', () => {
    const model = footerModel(shellData(), 'default');
    expect(Object.fromEntries(model.sections.map((s) => [s.id, ids(s.items)]))).toEqual({
      company: ['aboutUs', 'careers', 'pressAndMedia', 'apps'],
      resources: ['sales', 'advertiseWithUs', 'forums', 'articles'],
      affiliates: ['collectorsSite', 'cardPriceTool', 'tradeShow', 'japanSite'],
      privacyAndTerms: ['privacy', 'yourPrivacyChoices', 'guarantee', 'termsAndConditions'],
      support: ['helpAndSupport', 'customerRequestCenter', 'findMyPackage', 'faq'],
    });
  });

  it('matches site home pages never, sections by prefix, other pages exactly', () => {
    const match = Object.fromEntries(
      allItems(footerModel(shellData(), 'default')).flatMap((i) =>
        i.kind === 'link' ? [[i.id, i.match]] : [],
      ),
    );
    expect(match).toMatchObject({
      collectorsSite: 'never',
      cardPriceTool: 'never',
      tradeShow: 'never',
      japanSite: 'never',
      privacy: 'never',
      articles: 'prefix',
      helpAndSupport: 'prefix',
      aboutUs: 'exact',
      faq: 'exact',
    });
  });

  it('shows find my package through my orders, with its hint', () => {
    const item = allItems(footerModel(shellData(), 'default')).find(
      (i) => i.id === 'findMyPackage',
    );
    expect(item).toMatchObject({
      kind: 'link',
      href: 'https://cid.collectors.example/myorders',
      hintKey: 'footer.support.findMyPackageHint',
    });
  });

  it('gives local and dev the same footer (§1: they share addresses)', () => {
    for (const variant of FOOTER_VARIANTS)
      for (const locale of LOCALES)
        expect(footerModel(shellData({ env: 'local', locale }), variant)).toEqual(
          footerModel(shellData({ env: 'dev', locale }), variant),
        );
  });

  // [environment, locale, item, address]: which links carry the language, and how.
  const ADDRESSES: ReadonlyArray<readonly [AppEnv, Locale, FooterVariant, FooterItemId, string]> = [
    // en-US, the default language, is never marked
    ['prod', 'en-US', 'default', 'aboutUs', 'https://www.psacard.example/about'],
    ['prod', 'en-US', 'default', 'privacy', 'https://privacy.collectors.com/'],
    [
      'prod',
      'en-US',
      'default',
      'customerRequestCenter',
      'https://cid.collectors.example/requestcenter',
    ],
    // grading site: the locale as a path prefix
    ['prod', 'fr-CA', 'default', 'aboutUs', 'https://www.psacard.example/fr-CA/about'],
    ['prod', 'en-CA', 'default', 'faq', 'https://www.psacard.example/en-CA/faq'],
    ['qa', 'fr-CA', 'legal', 'termsAndConditions', 'https://qa.psacard.example/fr-CA/terms'],
    ['dev', 'fr-CA', 'default', 'helpAndSupport', 'https://dev.psacard.com/fr-CA/support'],
    // privacy site, identity router, power-pack site: the lang query
    ['prod', 'fr-CA', 'default', 'privacy', 'https://privacy.collectors.com/?lang=fr-CA'],
    ['qa', 'en-CA', 'legal', 'privacy', 'https://qa-privacy.collectors.com/?lang=en-CA'],
    ['dev', 'fr-CA', 'default', 'privacy', 'https://dev-privacy.collectors.com/?lang=fr-CA'],
    [
      'prod',
      'fr-CA',
      'default',
      'findMyPackage',
      'https://cid.collectors.example/myorders?lang=fr-CA',
    ],
    [
      'prod',
      'fr-CA',
      'powerpacks',
      'userAgreement',
      'https://www.powerpacks.example/user-agreement?lang=fr-CA',
    ],
    [
      'prod',
      'ja-JP',
      'powerpacks',
      'powerpacksSupport',
      'https://www.powerpacks.example/support?lang=ja-JP',
    ],
    [
      'prod',
      'en-US',
      'powerpacks',
      'userAgreement',
      'https://www.powerpacks.example/user-agreement',
    ],
    // unlocalized sister sites, per environment
    ['prod', 'fr-CA', 'default', 'collectorsSite', 'https://www.collectors.com/'],
    ['qa', 'fr-CA', 'default', 'collectorsSite', 'https://qa.collectors.com/'],
    ['local', 'fr-CA', 'default', 'forums', 'https://dev.collectors.com/forums'],
    ['prod', 'fr-CA', 'default', 'careers', 'https://www.collectors.com/careers'],
    ['qa', 'fr-CA', 'default', 'cardPriceTool', 'https://www.cardladder.com/'],
    ['dev', 'en-CA', 'default', 'tradeShow', 'https://www.longbeachexpo.com/'],
    ['prod', 'fr-CA', 'default', 'japanSite', 'https://www.psacard-jp.example/'],
    ['dev', 'en-US', 'default', 'japanSite', 'https://dev.psacard.co.jp/'],
    // Japan site: Japanese only, never marked
    ['prod', 'ja-JP', 'default', 'japanTermsAndDisclosure', 'https://www.psacard-jp.example/terms'],
    ['prod', 'ja-JP', 'legal', 'japanPrivacy', 'https://www.psacard-jp.example/privacy'],
    ['dev', 'ja-JP', 'default', 'japanCareers', 'https://dev.psacard.co.jp/careers'],
  ];

  it.each(ADDRESSES)('%s %s %s footer: %s is %s', (env, locale, variant, id, href) => {
    expect(hrefOf(footerModel(shellData({ env, locale }), variant), id)).toBe(href);
  });

  it('uses the Japanese X and Instagram accounts for ja-JP only', () => {
    const social = (locale: Locale) =>
      Object.fromEntries(
        footerModel(shellData({ locale }), 'default').social.map((s) => [s.network, s.href]),
      );
    expect(social('ja-JP')).toEqual({
      facebook: 'https://www.facebook.com/PSAcard',
      x: 'https://x.com/PSAJapan',
      instagram: 'https://www.instagram.com/psa_japan/',
      youtube: 'https://www.youtube.com/@PSAcard',
    });
    for (const locale of ['en-US', 'en-CA', 'fr-CA'] as const)
      expect(social(locale)).toEqual({
        facebook: 'https://www.facebook.com/PSAcard',
        x: 'https://x.com/PSAcard',
        instagram: 'https://www.instagram.com/psacard/',
        youtube: 'https://www.youtube.com/@PSAcard',
      });
  });

  it('shows the collector’s brand logo', () => {
    expect(footerModel(shellData({ brand: 'pcgs' }), 'legal').logo).toEqual({
      logo: 'pcgs',
      altKey: 'footer.brandNames.pcgs',
    });
    expect(footerModel(shellData({ brand: 'collectors' }), 'default').logo?.logo).toBe(
      'collectors',
    );
    expect(footerModel(shellData({ brand: 'powerpacks' }), 'powerpacks').logo).toBeUndefined();
  });

  it('defaults to the default variant', () => {
    expect(footerModel(shellData())).toEqual(footerModel(shellData(), 'default'));
  });
});
