import type * as CookieConsent from 'vanilla-cookieconsent';
import type { Locale } from '../../src/shared/locale';
import type { ConsentListener } from './consent-config';
import { isCategoryAccepted, type ConsentCategory } from './consent-cookie';

export { CONSENT_CATEGORIES, CONSENT_COOKIE_NAME, type ConsentCategory } from './consent-cookie';

/** The part of vanilla-cookieconsent this module drives. */
export type ConsentManager = Pick<typeof CookieConsent, 'run' | 'showPreferences'>;

/** The lazily loaded pieces: the library, and its configuration with the texts of the locale. */
export interface ConsentModules {
  readonly manager: ConsentManager;
  readonly config: (onChange: ConsentListener) => CookieConsent.CookieConsentConfig;
}

/**
 * The consent manager, its texts and its styles load only when a footer button asks for them, so
 * none of it is in the first-load bundle (esbuild splits each dynamic import into its own chunk).
 * The texts are the consent namespace of the page's locale, fetched through the §9 namespace loader
 * while the code loads (issue 16 item 3).
 */
async function loadConsentModules(locale: Locale): Promise<ConsentModules> {
  const [manager, { consentConfig }, texts] = await Promise.all([
    import('vanilla-cookieconsent'),
    import('./consent-config'),
    import('./consent-texts').then(({ loadConsentTexts }) => loadConsentTexts(locale)),
    import('./consent-styles').then(({ loadConsentStyles }) => loadConsentStyles()),
  ]);
  return { manager, config: (onChange) => consentConfig(locale, texts, onChange) };
}

const listeners = new Set<ConsentListener>();

/**
 * Subscribes to consent changes (the first choice, and later changes from the dialog), e.g. to start
 * analytics without a reload. Returns the unsubscribe function.
 */
export function onConsentChange(listener: ConsentListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(categories: readonly string[]): void {
  for (const listener of listeners) listener(categories);
}

/**
 * Builds the opener: the manager is loaded and run once (the library allows one run per page), then
 * every call shows the preference dialog. A failed load is forgotten so that a later click retries.
 * Exported for tests, which pass a fake manager; the page uses openConsentPreferences.
 */
export function createConsentOpener(
  load: (locale: Locale) => Promise<ConsentModules> = loadConsentModules,
): (locale: Locale) => Promise<void> {
  let ready: Promise<ConsentManager> | undefined;
  return async (locale) => {
    ready ??= load(locale)
      .then(async ({ manager, config }) => {
        await manager.run(config(notify));
        return manager;
      })
      .catch((error: unknown) => {
        ready = undefined;
        throw new Error('The consent manager could not be loaded', { cause: error });
      });
    (await ready).showPreferences();
  };
}

/**
 * §2 Footer: opens the consent manager's preference dialog ('your privacy choices', 'cookie
 * preferences'), loading and starting the manager on the first call. The page's locale is fixed, so
 * the locale of the first call is the dialog's language.
 */
export const openConsentPreferences: (locale: Locale) => Promise<void> = createConsentOpener();

/**
 * Whether a consent category may run, for the analytics code: necessary always; analytics only once
 * the collector has accepted it. Reads the consent cookie, so it works before (and without) the
 * consent manager being loaded, and is false outside a browser.
 */
export function consentGiven(category: ConsentCategory): boolean {
  if (category === 'necessary') return true;
  return typeof document !== 'undefined' && isCategoryAccepted(category, document.cookie);
}
