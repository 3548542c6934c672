import type { CookieConsentConfig } from 'vanilla-cookieconsent';
import enUS from '../../locales/en-US/consent.json';
import { LOCALES, type Locale } from '../../src/shared/locale';
import { createConsentOpener, consentGiven, type ConsentModules } from './consent';
import { consentConfig } from './consent-config';
import { acceptedCategories, isCategoryAccepted } from './consent-cookie';
import { consentTexts, toConsentTranslation } from './consent-texts';

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
    const config = consentConfig(locale);
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
    const config = consentConfig('en-US', (categories) => seen.push(categories));
    const cookie = { categories: ['necessary', 'analytics'] } as never;
    config.onFirstConsent?.({ cookie });
    config.onChange?.({ cookie, changedCategories: ['analytics'], changedServices: {} });
    expect(seen).toEqual([
      ['necessary', 'analytics'],
      ['necessary', 'analytics'],
    ]);
  });
});

describe(consentTexts.name, () => {
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

describe(createConsentOpener.name, () => {
  /** A stand-in for vanilla-cookieconsent (a third-party library that needs a DOM). */
  function fakeModules() {
    const calls: string[] = [];
    const modules: ConsentModules = {
      manager: {
        run: (config: CookieConsentConfig) => {
          calls.push(`run:${config.language.default}`);
          return Promise.resolve();
        },
        showPreferences: () => calls.push('showPreferences'),
      },
      config: (locale) => consentConfig(locale),
    };
    return { calls, modules };
  }

  it('loads and runs the manager once, then shows the preferences on every call', async () => {
    const { calls, modules } = fakeModules();
    let loads = 0;
    const open = createConsentOpener(() => {
      loads += 1;
      return Promise.resolve(modules);
    });
    await Promise.all([open('fr-CA'), open('fr-CA')]);
    await open('fr-CA');
    expect(loads).toBe(1);
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
      .fn<Promise<ConsentModules>, []>()
      .mockRejectedValueOnce(new Error('chunk failed to load'))
      .mockResolvedValue(modules);
    const open = createConsentOpener(load);
    await expect(open('en-US')).rejects.toThrow('The consent manager could not be loaded');
    await open('en-US');
    expect(load).toHaveBeenCalledTimes(2);
    expect(calls).toEqual(['run:en-US', 'showPreferences']);
  });
});
