import type { CookieConsentConfig, Translation } from 'vanilla-cookieconsent';
import type { Locale } from '../../src/shared/locale';
import { CONSENT_COOKIE_NAME, type ConsentCategory } from './consent-cookie';

/** Called with the accepted categories when the collector first chooses and whenever they change. */
export type ConsentListener = (acceptedCategories: readonly string[]) => void;

/**
 * The consent manager's configuration for a page in this locale, with the dialog's texts in it
 * (loaded beforehand from the consent namespace, consent-texts.ts).
 *
 * - Categories: necessary (always on, read-only) and analytics (opt-in, off until accepted). On
 *   rejection the analytics cookies the §2 sign-in redirect forwards (QTM_SID, QTM_UID) are erased.
 * - autoShow off: the dialog opens only from the footer buttons (§2 Footer); this module is loaded
 *   on that click, never on page load.
 * - hideFromBots off: the library would otherwise refuse to start under automation
 *   (navigator.webdriver), which is how the browser tests drive it; a crawler never clicks the button,
 *   so nothing is indexed either way.
 * - manageScriptTags off: the library would re-create `<script data-category>` tags without the
 *   page's CSP nonce; the shell has none, and analytics asks consentGiven() instead.
 * - The cookie is Secure whenever the page is served over https (the library's own rule), SameSite
 *   Lax, path /, kept 182 days (the library's default).
 */
export function consentConfig(
  locale: Locale,
  texts: Translation,
  onChange?: ConsentListener,
): CookieConsentConfig {
  const categories: Record<ConsentCategory, CookieConsentConfig['categories'][string]> = {
    necessary: { enabled: true, readOnly: true },
    analytics: {
      enabled: false,
      autoClear: { cookies: [{ name: 'QTM_SID' }, { name: 'QTM_UID' }] },
    },
  };
  return {
    mode: 'opt-in',
    autoShow: false,
    hideFromBots: false,
    manageScriptTags: false,
    revision: 0,
    cookie: { name: CONSENT_COOKIE_NAME, path: '/', sameSite: 'Lax', expiresAfterDays: 182 },
    guiOptions: {
      consentModal: { layout: 'box', position: 'bottom right', equalWeightButtons: true },
      preferencesModal: { layout: 'box', equalWeightButtons: true },
    },
    categories,
    language: { default: locale, translations: { [locale]: texts } },
    ...(onChange
      ? {
          onFirstConsent: ({ cookie }) => onChange(cookie.categories),
          onChange: ({ cookie }) => onChange(cookie.categories),
        }
      : {}),
  };
}
