import type { Translation } from 'vanilla-cookieconsent';
import type enUS from '../../locales/en-US/consent.json';
import type { BROWSER_NAMESPACES, Locale } from '../../src/shared/locale';
import { loadPageNamespace } from '../i18n/namespace-loader';
import { CONSENT_CATEGORIES } from './consent-cookie';

/**
 * The consent namespace, locales/{locale}/consent.json (§7), which no page embeds: the browser
 * fetches it the first time the dialog opens (§9, issue 16 item 3). Every locale has the keys of
 * en-US (src/locale/locale-files.spec.ts). `preferencesModal.serviceCounter` is the library's
 * `singular|plural` label.
 */
export const CONSENT_NAMESPACE: (typeof BROWSER_NAMESPACES)[number] = 'consent';

/** The shape of the namespace (a type only: no locale's texts are bundled). */
export type ConsentMessages = typeof enUS;

/** Loads a namespace of a locale (§9: client/i18n/namespace-loader.ts). */
export type LoadNamespace = (locale: Locale, namespace: string) => Promise<Record<string, unknown>>;

/** Every text toConsentTranslation reads, by its path in the namespace. */
export const CONSENT_TEXT_KEYS = [
  'consentModal.title',
  'consentModal.description',
  'preferencesModal.title',
  'preferencesModal.serviceCounter',
  ...['privacyChoices', ...CONSENT_CATEGORIES].flatMap((section) => [
    `preferencesModal.sections.${section}.title`,
    `preferencesModal.sections.${section}.description`,
  ]),
  'buttons.acceptAll',
  'buttons.rejectAll',
  'buttons.managePreferences',
  'buttons.savePreferences',
  'buttons.close',
] as const;

function textAt(tree: unknown, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>(
      (node, part) =>
        node !== null && typeof node === 'object'
          ? (node as Record<string, unknown>)[part]
          : undefined,
      tree,
    );
}

/** Whether a loaded file holds every text of the dialog, each a non-empty string. */
export function isConsentMessages(value: unknown): value is ConsentMessages {
  return CONSENT_TEXT_KEYS.every((key) => {
    const text = textAt(value, key);
    return typeof text === 'string' && text.length > 0;
  });
}

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

/**
 * The consent dialog's texts in this locale, fetched through the page's namespace loader (§9: up to
 * 5 retries from 350 ms, doubling). A file without every text is refused rather than shown half
 * empty; the opener then forgets the attempt, so the next click loads again.
 */
export async function loadConsentTexts(
  locale: Locale,
  load: LoadNamespace = loadPageNamespace,
): Promise<Translation> {
  const messages = await load(locale, CONSENT_NAMESPACE);
  if (!isConsentMessages(messages))
    throw new Error(`${locale}/${CONSENT_NAMESPACE}.json lacks some of the consent dialog's texts`);
  return toConsentTranslation(messages);
}
