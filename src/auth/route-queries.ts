import { RedirectPolicy, SafeRedirectUrl } from '../brand/redirect-policy';
import { selectReturnTarget } from '../brand/return-target';
import { Brand, DEFAULT_BRAND } from '../shared/brand';
import { parseBrandParam } from '../shared/brand-query';
import { Locale, resolveLocale } from '../shared/locale';

/**
 * The query parsers of the sign-in routes other than /signin (journey.ts parses that one): each
 * takes the query as Express parsed it (a value may be a string, an array or an object) and returns
 * typed input for the service, so no service reads req.query.
 */
type RawQuery = Readonly<Record<string, unknown>>;

/** Longest query value carried back after sign-out (§4 Sign-out step 5). */
const MAX_CARRIED_PARAM = 2048;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** /handleloginredirect and the landing of /handlebrandtokenredirect: the IdP's answer. */
export interface IdpAnswer {
  readonly state: string;
  readonly error?: string;
}

export function parseIdpAnswer(raw: RawQuery): IdpAnswer {
  const error = text(raw.error);
  return { state: text(raw.state) ?? '', ...(error ? { error } : {}) };
}

/** /logout/collectorsid: the brand (collectors when unknown) and the query to carry back. */
export function parseLogoutQuery(raw: RawQuery): {
  brand: Brand;
  carried: Record<string, string>;
} {
  const b = parseBrandParam(raw.b);
  return { brand: b.ok ? b.brand : DEFAULT_BRAND, carried: carriedQuery(raw) };
}

/** The query minus `t` (§4 Sign-out step 5), single string values only, each bounded. */
function carriedQuery(raw: RawQuery): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === 't' || typeof value !== 'string' || value.length > MAX_CARRIED_PARAM) continue;
    out[key] = value;
  }
  return out;
}

/** /handlelogoutredirect: the state of our own logout round trip, and `b` for a visit without one. */
export function parseLogoutLanding(raw: RawQuery): { state?: string; brand?: Brand } {
  const state = text(raw.state);
  const brand = parseBrandParam(raw.b);
  return { ...(state ? { state } : {}), ...(brand.ok ? { brand: brand.brand } : {}) };
}

/** /handlebrandtokenredirect without code/state/error: a brand asks for its own code flow. */
export interface BrandTokenStart {
  /** Undefined when b is missing or not a brand. */
  readonly brand?: Brand;
  /** r, when given and it passed the policy. */
  readonly r?: SafeRedirectUrl;
  /** r was given but did not pass the policy. */
  readonly badReturnUrl: boolean;
  readonly l?: string;
  readonly locale: Locale;
}

export type BrandTokenQuery =
  ({ readonly kind: 'start' } & BrandTokenStart) | ({ readonly kind: 'land' } & IdpAnswer);

/** The brand code redirect is a landing when the IdP answered (state, code or error present). */
export function parseBrandTokenQuery(raw: RawQuery, policy: RedirectPolicy): BrandTokenQuery {
  if (raw.state !== undefined || raw.code !== undefined || raw.error !== undefined) {
    return { kind: 'land', ...parseIdpAnswer(raw) };
  }
  const b = parseBrandParam(raw.b);
  const target =
    raw.r === undefined
      ? { kind: 'none' as const }
      : selectReturnTarget({ r: raw.r }, policy, { allowForced: false });
  const l = text(raw.l);
  return {
    kind: 'start',
    ...(b.ok ? { brand: b.brand } : {}),
    ...(target.kind === 'url' ? { r: target.url } : {}),
    badReturnUrl: target.kind === 'rejected',
    ...(l ? { l } : {}),
    locale: resolveLocale({ l, lang: raw.lang, ...(b.ok ? { brand: b.brand } : {}) }),
  };
}

/** §2, §8: the two values /unauthredirect takes. */
export const UNAUTH_ERRORS = ['Unauthorized', 'GoldinInvalidOktaSession'] as const;
export type UnauthError = (typeof UNAUTH_ERRORS)[number];

/** /unauthredirect: which error, for which brand, in which language. */
export function parseUnauthQuery(
  raw: RawQuery,
  /** The locale of a `/fr-CA/unauthredirect` path (§2 locale path rule), which comes first. */
  pathLocale?: Locale,
): { ok: true; error: UnauthError; brand: Brand; locale: Locale } | { ok: false; message: string } {
  const error = raw.error ?? 'Unauthorized';
  if (typeof error !== 'string' || !(UNAUTH_ERRORS as readonly string[]).includes(error)) {
    return { ok: false, message: `error must be one of ${UNAUTH_ERRORS.join(', ')}` };
  }
  const b = parseBrandParam(raw.b);
  // The Goldin error names the auction brand; anything else keeps the brand asked for.
  const brand: Brand =
    error === 'GoldinInvalidOktaSession' ? 'goldin' : b.ok ? b.brand : DEFAULT_BRAND;
  return {
    ok: true,
    error: error as UnauthError,
    brand,
    locale: pathLocale ?? resolveLocale({ l: raw.l, lang: raw.lang, brand }),
  };
}
