// The consent dialog's styles (consent-styles.css: vanilla-cookieconsent's and the shell's mapping),
// loaded only from the lazily loaded consent chunk (consent.ts). A stylesheet imported from code would
// be bundled beside the entry script and so block every page's first paint (issue 18 item 5); it is
// its own file instead, whose hashed URL the build gives this module (scripts/build-client.js).

/**
 * The stylesheet's URL: a constant the build writes into the bundle (esbuild `define`,
 * scripts/build-client.js), not configuration read at run time. Absent outside the bundle.
 */
declare const __CONSENT_STYLESHEET__: string | undefined;
const HREF = typeof __CONSENT_STYLESHEET__ === 'string' ? __CONSENT_STYLESHEET__ : undefined;

let loaded: Promise<void> | undefined;

/**
 * Adds the dialog's stylesheet to the page once and resolves when it has loaded (so the dialog never
 * shows unstyled). A failed load rejects and is forgotten, so that a later opening retries.
 */
export function loadConsentStyles(): Promise<void> {
  loaded ??= new Promise<void>((resolve, reject) => {
    if (!HREF) {
      reject(new Error('the consent stylesheet is not part of this build'));
      return;
    }
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = HREF;
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => {
      link.remove();
      reject(new Error(`the consent stylesheet did not load: ${HREF}`));
    });
    document.head.appendChild(link);
  }).catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}
