import type { Brand } from './brand';

/** §1: supported locales; en-US is the default. */
export const LOCALES = ['en-US', 'en-CA', 'fr-CA', 'ja-JP'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-US';

/**
 * §7: translation namespaces a page renders with; common is the default one. The shell serialises
 * these into every page (src/render/shell-renderer.ts), so a namespace the first paint does not need
 * belongs in BROWSER_NAMESPACES instead.
 */
export const NAMESPACES = ['common', 'footer', 'header'] as const;
export type Namespace = (typeof NAMESPACES)[number];

/**
 * Namespaces only the browser reads, after the first paint, and no page embeds: the consent dialog's
 * texts (client/consent/consent-texts.ts), fetched from /static/locales/ through the §9 namespace
 * loader (client/i18n/namespace-loader.ts) the first time a footer button opens the dialog.
 */
export const BROWSER_NAMESPACES = ['consent'] as const;

const BY_LOWER_CASE = new Map<string, Locale>(LOCALES.map((l) => [l.toLowerCase(), l]));
/** A bare language picks the one region we serve it in (our choice; the spec names only full tags). */
const BY_LANGUAGE: Readonly<Record<string, Locale>> = { en: 'en-US', fr: 'fr-CA', ja: 'ja-JP' };

/** Accepts `fr-CA`, `fr-ca`, `fr_CA` and a bare `fr`; anything else is not a locale. */
export function normalizeLocale(value: unknown): Locale | undefined {
  if (typeof value !== 'string' || value.length > 16) return undefined;
  const key = value.replace('_', '-').toLowerCase();
  return BY_LOWER_CASE.get(key) ?? BY_LANGUAGE[key];
}

export interface LocaleHints {
  /** `l`: a locale, or the local flag 'true' (then it is not a locale and is skipped). */
  readonly l?: unknown;
  readonly lang?: unknown;
  readonly brand?: Brand;
}

/**
 * §5: locale from `l`, then `lang`, then the brand (the Japan grading brand gives ja-JP), else en-US.
 * The browser's Accept-Language is deliberately not consulted (§1: detection is off).
 */
export function resolveLocale(hints: LocaleHints): Locale {
  return (
    normalizeLocale(hints.l) ??
    normalizeLocale(hints.lang) ??
    (hints.brand === 'psajapan' ? 'ja-JP' : undefined) ??
    DEFAULT_LOCALE
  );
}

export type LocaleStyle = 'path' | 'query';

/**
 * §2 "Locale path rule": the language goes in as a path prefix (`/fr-CA/...`) or a `lang` query value.
 * The default language gets neither unless `force` is set. Works on absolute URLs and on paths.
 */
export function localizeUrl(
  target: string,
  locale: Locale,
  options: { readonly style: LocaleStyle; readonly force?: boolean },
): string {
  if (locale === DEFAULT_LOCALE && !options.force) return target;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(target);
  const url = new URL(target, 'http://relative.invalid');
  if (options.style === 'query') {
    url.searchParams.set('lang', locale);
  } else {
    url.pathname = `/${locale}${url.pathname === '/' ? '' : url.pathname}`;
  }
  return absolute ? url.href : `${url.pathname}${url.search}${url.hash}`;
}

/**
 * §5: the legal agreement URL carries the locale path for non-en-US locales and an optional `b`.
 */
export function legalAgreementUrl(base: string, locale: Locale, brand?: Brand): string {
  const url = new URL(
    localizeUrl(`${base.replace(/\/$/, '')}/legal-agreement`, locale, { style: 'path' }),
  );
  if (brand) url.searchParams.set('b', brand);
  return url.href;
}

/**
 * §2 "Locale path rule", read back: `/fr-CA/collection` is /collection in fr-CA. Only a supported
 * tag (any case) followed by `/` or the end counts, so `/fr-CAx` or `/fr/x` are ordinary paths.
 * Returns the locale and the path without it, or undefined.
 */
export function splitLocalePath(
  path: string,
): { readonly locale: Locale; readonly rest: string } | undefined {
  // `/xx-XX` then `/`, `?` or the end: checked by position first, as every request passes here.
  if (path.charCodeAt(3) !== 45 /* - */) return undefined;
  const end = path.charCodeAt(6);
  if (path.length > 6 && end !== 47 /* / */ && end !== 63 /* ? */) return undefined;
  const locale = BY_LOWER_CASE.get(path.slice(1, 6).toLowerCase());
  if (!locale) return undefined;
  const rest = path.slice(6);
  return { locale, rest: rest === '' || rest.startsWith('?') ? `/${rest}` : rest };
}
