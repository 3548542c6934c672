import type { Translation } from 'vanilla-cookieconsent';
import enCA from '../../locales/en-CA/consent.json';
import enUS from '../../locales/en-US/consent.json';
import frCA from '../../locales/fr-CA/consent.json';
import jaJP from '../../locales/ja-JP/consent.json';
import type { Locale } from '../../src/shared/locale';
import { CONSENT_CATEGORIES } from './consent-cookie';

/**
 * The consent namespace, locales/{locale}/consent.json (§7). Every locale has the keys of en-US
 * (src/locale/locale-files.spec.ts); the table below also checks it when it compiles.
 * `preferencesModal.serviceCounter` is the library's `singular|plural` label.
 */
export type ConsentMessages = typeof enUS;

/**
 * For now each locale's file is bundled into the consent chunk by esbuild's JSON loader (it loads with
 * the consent manager, never on first paint). Only consentTexts reads this table, so a namespace
 * loader can take its place later.
 */
const CONSENT_MESSAGES: Readonly<Record<Locale, ConsentMessages>> = {
  'en-US': enUS,
  'en-CA': enCA,
  'fr-CA': frCA,
  'ja-JP': jaJP,
};

/**
 * The namespace in vanilla-cookieconsent's shape: the buttons both dialogs share, and one preference
 * section per consent category after the introduction. The library inserts these strings as HTML:
 * the locale files keep them plain text with no markup and no user data.
 */
export function toConsentTranslation(messages: ConsentMessages): Translation {
  const { consentModal, preferencesModal, buttons } = messages;
  const { sections } = preferencesModal;
  return {
    consentModal: {
      title: consentModal.title,
      description: consentModal.description,
      acceptAllBtn: buttons.acceptAll,
      acceptNecessaryBtn: buttons.rejectAll,
      showPreferencesBtn: buttons.managePreferences,
    },
    preferencesModal: {
      title: preferencesModal.title,
      acceptAllBtn: buttons.acceptAll,
      acceptNecessaryBtn: buttons.rejectAll,
      savePreferencesBtn: buttons.savePreferences,
      closeIconLabel: buttons.close,
      serviceCounterLabel: preferencesModal.serviceCounter,
      sections: [
        { ...sections.privacyChoices },
        ...CONSENT_CATEGORIES.map((category) => ({
          ...sections[category],
          linkedCategory: category,
        })),
      ],
    },
  };
}

/** The consent dialog's texts in this locale. */
export function consentTexts(locale: Locale): Translation {
  return toConsentTranslation(CONSENT_MESSAGES[locale]);
}
