/** The consent categories the shell asks about (§2 Footer, consent manager). */
export const CONSENT_CATEGORIES = ['necessary', 'analytics'] as const;
export type ConsentCategory = (typeof CONSENT_CATEGORIES)[number];

/** The consent manager's own cookie (vanilla-cookieconsent's default name, set in consent-config). */
export const CONSENT_COOKIE_NAME = 'cc_cookie';

/**
 * The categories a consent cookie records, read from a `document.cookie` string. The consent manager
 * writes `cc_cookie=<encodeURIComponent(JSON)>` with a `categories` array; anything unreadable counts
 * as no consent, so analytics stays off until the collector has chosen (opt-in).
 */
export function acceptedCategories(cookieString: string): readonly string[] {
  for (const pair of cookieString.split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0 || pair.slice(0, separator).trim() !== CONSENT_COOKIE_NAME) continue;
    try {
      const value: unknown = JSON.parse(decodeURIComponent(pair.slice(separator + 1).trim()));
      const categories =
        value !== null && typeof value === 'object'
          ? (value as { categories?: unknown }).categories
          : undefined;
      return Array.isArray(categories)
        ? categories.filter((c): c is string => typeof c === 'string')
        : [];
    } catch {
      return [];
    }
  }
  return [];
}

/** Whether a category may run: necessary always; the others only with a recorded consent. */
export function isCategoryAccepted(category: ConsentCategory, cookieString: string): boolean {
  return category === 'necessary' || acceptedCategories(cookieString).includes(category);
}
