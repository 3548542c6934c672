import { Brand, DEFAULT_BRAND, isBrand } from '../../shared/brand';
import { BRAND_DEFINITIONS } from '../../shared/brand-definitions';
import { DEFAULT_LOCALE, type Locale, normalizeLocale } from '../../shared/locale';

/**
 * The authorization request's parameter that names the brand the collector came from: this
 * service's sign-in adds it to every authorization request (issue 14 item 3), registered with
 * oidc-provider as an extra parameter (embedded-idp.ts). An external IdP ignores it.
 */
export const BRAND_PARAM = 'brand';

/**
 * The brand whose logo, favicon and footer the IdP's pages show: the request's `brand` when it names
 * one of ours, exactly; otherwise (absent, unknown, repeated, no request at all) collectors. It is
 * untrusted input and only ever picks a row of the brand tables.
 */
export function journeyBrand(params: Readonly<Record<string, unknown>> | undefined): Brand {
  const value = params?.[BRAND_PARAM];
  return typeof value === 'string' && isBrand(value) ? value : DEFAULT_BRAND;
}

/**
 * The name of the site the sign-in leads to ("to continue to PSA", as Google's and Auth0's hosted
 * pages say), from the brand table: only when the request names one of ours other than this
 * product's own, collectors, which is also what a request that names none is shown as.
 */
export function journeyDestination(
  params: Readonly<Record<string, unknown>> | undefined,
): string | undefined {
  const value = params?.[BRAND_PARAM];
  if (typeof value !== 'string' || !isBrand(value) || value === DEFAULT_BRAND) return undefined;
  return BRAND_DEFINITIONS[value].companyName;
}

/**
 * The language of the IdP's own pages (its error page, the logout confirmation): the first supported
 * tag of the request's `ui_locales` (OIDC Core §3.1.2.1; RP-Initiated Logout 1.0 §2 defines it for
 * logout too), which this service sends in the collector's language (issue 14 item 2); else en-US.
 */
export function journeyLocale(params: Readonly<Record<string, unknown>> | undefined): Locale {
  const value = params?.ui_locales;
  if (typeof value !== 'string') return DEFAULT_LOCALE;
  return (
    value
      .split(' ')
      .slice(0, 8)
      .map(normalizeLocale)
      .find((l): l is Locale => l !== undefined) ?? DEFAULT_LOCALE
  );
}
