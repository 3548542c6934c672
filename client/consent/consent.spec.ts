import type { CookieConsentConfig } from 'vanilla-cookieconsent';
import enCA from '../../locales/en-CA/consent.json';
import enUS from '../../locales/en-US/consent.json';
import frCA from '../../locales/fr-CA/consent.json';
import jaJP from '../../locales/ja-JP/consent.json';
import { LOCALES, type Locale } from '../../src/shared/locale';
import { createConsentOpener, consentGiven, type ConsentModules } from './consent';
import { consentConfig } from './consent-config';
import { acceptedCategories, isCategoryAccepted } from './consent-cookie';
import {
  CONSENT_NAMESPACE,
  CONSENT_TEXT_KEYS,
  isConsentMessages,
  loadConsentTexts,
  toConsentTranslation,
  type ConsentMessages,
} from './consent-texts';

/** The locale files as the server serves them (the browser fetches them, nothing bundles them). */
const MESSAGES: Readonly<Record<Locale, ConsentMessages>> = {
  'en-US': enUS,
  'en-CA': enCA,
  'fr-CA': frCA,
  'ja-JP': jaJP,
};
const consentTexts = (locale: Locale) => toConsentTranslation(MESSAGES[locale]);

/** The cookie the consent manager writes: cc_cookie=<encodeURIComponent(JSON)>. */
const consentCookie = (value: unknown) => `cc_cookie=${encodeURIComponent(JSON.stringify(value))}`;

describe(acceptedCategories.name, () => {
  it.each([
    ['', []],
    ['theme=dark', []],
    [consentCookie({ categories: ['necessary'] }), ['necessary']],
    [
      `theme=dark; ${consentCookie({ categories: ['necessary', 'analytics'] })}; sessionId=x`,
      ['necessary', 'analytics'],
    ],
    [consentCookie({ categories: 'analytics' }), []],
    [consentCookie({ categories: ['analytics', 7] }), ['analytics']],
    [consentCookie(null), []],
    ['cc_cookie=%7Bnot-json', []],
    ['cc_cookie=%E0%A4%A', []],
    ['xcc_cookie=' + encodeURIComponent('{"categories":["analytics"]}'), []],
  ])('%s → %j', (cookie, categories) => {
    expect(acceptedCategories(cookie)).toEqual(categories);
  });
});

describe(isCategoryAccepted.name, () => {
  it('always allows necessary, and analytics only once accepted (opt-in)', () => {
    expect(isCategoryAccepted('necessary', '')).toBe(true);
    expect(isCategoryAccepted('analytics', '')).toBe(false);
    expect(isCategoryAccepted('analytics', consentCookie({ categories: ['necessary'] }))).toBe(
      false,
    );
    expect(
      isCategoryAccepted('analytics', consentCookie({ categories: ['necessary', 'analytics'] })),
    ).toBe(true);
  });
});

describe(consentGiven.name, () => {
  it('is false for analytics outside a browser, true for necessary', () => {
    expect(consentGiven('analytics')).toBe(false);
    expect(consentGiven('necessary')).toBe(true);
  });
});

describe(consentConfig.name, () => {
  it.each(LOCALES)('configures the two categories and the %s texts', (locale) => {
    const config = consentConfig(locale, consentTexts(locale));
    expect(config.categories).toEqual({
      necessary: { enabled: true, readOnly: true },
      analytics: { enabled: false, autoClear: expect.any(Object) },
    });
    expect(config.language).toEqual({
      default: locale,
      translations: { [locale]: consentTexts(locale) },
    });
    expect(config).toMatchObject({
      mode: 'opt-in',
      autoShow: false,
      hideFromBots: false,
      manageScriptTags: false,
      cookie: { name: 'cc_cookie', sameSite: 'Lax', path: '/' },
    });
  });

  it('reports the first choice and later changes to the listener', () => {
    const seen: (readonly string[])[] = [];
    const config = consentConfig('en-US', consentTexts('en-US'), (categories) =>
      seen.push(categories),
    );
    const cookie = { categories: ['necessary', 'analytics'] } as never;
    config.onFirstConsent?.({ cookie });
    config.onChange?.({ cookie, changedCategories: ['analytics'], changedServices: {} });
    expect(seen).toEqual([
      ['necessary', 'analytics'],
      ['necessary', 'analytics'],
    ]);
  });
});

describe('the consent texts of each locale file', () => {
  const shape = (locale: Locale) => {
    const t = consentTexts(locale);
    return {
      consentModal: Object.keys(t.consentModal).sort(),
      preferencesModal: Object.keys(t.preferencesModal).sort(),
      sections: t.preferencesModal.sections.map((s) => s.linkedCategory ?? null),
    };
  };

  it.each(LOCALES)('%s has the texts of en-US, one section per category', (locale) => {
    expect(shape(locale)).toEqual(shape('en-US'));
    expect(shape(locale).sections).toEqual([null, 'necessary', 'analytics']);
  });

  it.each(LOCALES)(
    '%s texts are non-empty plain text (the library inserts them as HTML)',
    (locale) => {
      const strings = JSON.stringify(consentTexts(locale)).match(/"(?:[^"\\]|\\.)*"/g) ?? [];
      for (const s of strings) {
        expect(s).not.toBe('""');
        expect(s).not.toMatch(/[<>]/);
      }
    },
  );

  it('fr-CA and ja-JP are translated', () => {
    expect(consentTexts('fr-CA').preferencesModal.title).toBe('Préférences en matière de témoins');
    expect(consentTexts('ja-JP').preferencesModal.title).toBe('クッキー設定');
  });
});

describe(toConsentTranslation.name, () => {
  it('maps locales/{locale}/consent.json to the library: shared buttons, one section per category', () => {
    expect(toConsentTranslation(enUS)).toEqual({
      consentModal: {
        title: enUS.consentModal.title,
        description: enUS.consentModal.description,
        acceptAllBtn: 'Accept all',
        acceptNecessaryBtn: 'Reject all',
        showPreferencesBtn: 'Manage preferences',
      },
      preferencesModal: {
        title: 'Cookie preferences',
        acceptAllBtn: 'Accept all',
        acceptNecessaryBtn: 'Reject all',
        savePreferencesBtn: 'Save preferences',
        closeIconLabel: 'Close',
        serviceCounterLabel: 'Service|Services',
        sections: [
          enUS.preferencesModal.sections.privacyChoices,
          { ...enUS.preferencesModal.sections.necessary, linkedCategory: 'necessary' },
          { ...enUS.preferencesModal.sections.analytics, linkedCategory: 'analytics' },
        ],
      },
    });
  });
});

describe(loadConsentTexts.name, () => {
  const flatKeys = (tree: object, prefix = ''): string[] =>
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string'
        ? [`${prefix}${key}`]
        : flatKeys(value as object, `${prefix}${key}.`),
    );

  it('reads every text of the namespace, and only those', () => {
    expect([...CONSENT_TEXT_KEYS].sort()).toEqual(flatKeys(enUS).sort());
  });

  it.each(LOCALES)(
    '§9: asks the loader for the %s consent namespace, and maps it for the library',
    async (locale) => {
      const load = jest.fn((_locale: Locale, _namespace: string) =>
        Promise.resolve(MESSAGES[locale] as unknown as Record<string, unknown>),
      );
      await expect(loadConsentTexts(locale, load)).resolves.toEqual(consentTexts(locale));
      expect(load.mock.calls).toEqual([[locale, CONSENT_NAMESPACE]]);
      expect(CONSENT_NAMESPACE).toBe('consent');
    },
  );

  it.each([
    ['an empty object', {}],
    ['a missing button', { ...enUS, buttons: { ...enUS.buttons, close: undefined } }],
    ['an empty title', { ...enUS, consentModal: { ...enUS.consentModal, title: '' } }],
    ['a number for a text', { ...enUS, preferencesModal: { ...enUS.preferencesModal, title: 7 } }],
    ['no sections', { ...enUS, preferencesModal: { ...enUS.preferencesModal, sections: null } }],
  ])('refuses a file with %s (never a half-empty dialog)', async (_name, file) => {
    expect(isConsentMessages(file)).toBe(false);
    await expect(
      loadConsentTexts('en-US', () => Promise.resolve(file as Record<string, unknown>)),
    ).rejects.toThrow('en-US/consent.json lacks some of the consent dialog');
  });

  it('passes on a load that failed for good (the loader has retried it already)', async () => {
    await expect(
      loadConsentTexts('fr-CA', () => Promise.reject(new Error('HTTP 503'))),
    ).rejects.toThrow('HTTP 503');
  });
});

describe(createConsentOpener.name, () => {
  /** A stand-in for vanilla-cookieconsent (a third-party library that needs a DOM). */
  function fakeModules(locale: Locale = 'en-US') {
    const calls: string[] = [];
    const modules: ConsentModules = {
      manager: {
        run: (config: CookieConsentConfig) => {
          calls.push(`run:${config.language.default}`);
          return Promise.resolve();
        },
        showPreferences: () => calls.push('showPreferences'),
      },
      config: (onChange) => consentConfig(locale, consentTexts(locale), onChange),
    };
    return { calls, modules };
  }

  it('loads and runs the manager once, then shows the preferences on every call', async () => {
    const { calls, modules } = fakeModules('fr-CA');
    const loaded: Locale[] = [];
    const open = createConsentOpener((locale) => {
      loaded.push(locale);
      return Promise.resolve(modules);
    });
    await Promise.all([open('fr-CA'), open('fr-CA')]);
    await open('fr-CA');
    // Loaded once, for the page's locale: the texts' namespace too (issue 16 item 3).
    expect(loaded).toEqual(['fr-CA']);
    expect(calls).toEqual(['run:fr-CA', 'showPreferences', 'showPreferences', 'showPreferences']);
  });

  it('does not load anything until it is called', () => {
    const load = jest.fn(() => Promise.resolve(fakeModules().modules));
    createConsentOpener(load);
    expect(load).not.toHaveBeenCalled();
  });

  it('retries a failed load on the next call', async () => {
    const { calls, modules } = fakeModules();
    const load = jest
      .fn<Promise<ConsentModules>, [Locale]>()
      .mockRejectedValueOnce(new Error('chunk failed to load'))
      .mockResolvedValue(modules);
    const open = createConsentOpener(load);
    await expect(open('en-US')).rejects.toThrow('The consent manager could not be loaded');
    await open('en-US');
    expect(load).toHaveBeenCalledTimes(2);
    expect(calls).toEqual(['run:en-US', 'showPreferences']);
  });
});
