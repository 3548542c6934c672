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
/**
 * docs/security.md, unauthenticated writes: what a sign-out carries is kept for the IdP's round
 * trip (10 minutes) by anyone who asks, signed in or not: 1,100 parameters were 18 kB stored a
 * request. At most this many parameters, and this many bytes as stored (the carried query's JSON,
 * UTF-8), are kept.
 */
export const MAX_CARRIED_PARAMS = 16;
export const MAX_CARRIED_BYTES = 4096;
/** The parameters the landing reads (§5: r, the brand, the language), kept before any other. */
const CARRIED_FIRST = ['r', 'b', 'l', 'lang'] as const;

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

/**
 * /logout/collectorsid: the brand (collectors when unknown), the query to carry back, and how many of
 * its parameters were not carried (for the log).
 */
export function parseLogoutQuery(raw: RawQuery): {
  brand: Brand;
  carried: Record<string, string>;
  dropped: number;
} {
  const b = parseBrandParam(raw.b);
  return { brand: b.ok ? b.brand : DEFAULT_BRAND, ...carriedQuery(raw) };
}

/**
 * The query minus `t` (§4 Sign-out step 5): single string values of at most MAX_CARRIED_PARAM
 * characters; r, b, l and lang first, then the rest in the order sent, each kept while the carried
 * query stays within MAX_CARRIED_PARAMS parameters and MAX_CARRIED_BYTES as stored. The rest is
 * dropped, never refused: a sign-out always signs out (docs/security.md, unauthenticated writes).
 */
function carriedQuery(raw: RawQuery): { carried: Record<string, string>; dropped: number } {
  const carried: Record<string, string> = {};
  let bytes = 2; // {}
  let dropped = 0;
  const order = [
    ...CARRIED_FIRST.filter((key) => Object.hasOwn(raw, key)),
    ...Object.keys(raw).filter((key) => !(CARRIED_FIRST as readonly string[]).includes(key)),
  ];
  for (const key of order) {
    const value = raw[key];
    if (key === 't') continue;
    if (typeof value !== 'string' || value.length > MAX_CARRIED_PARAM) {
      dropped++;
      continue;
    }
    // "key":"value", and a comma before every member but the first.
    const size =
      Buffer.byteLength(JSON.stringify(key)) +
      Buffer.byteLength(JSON.stringify(value)) +
      1 +
      (bytes > 2 ? 1 : 0);
    if (Object.keys(carried).length >= MAX_CARRIED_PARAMS || bytes + size > MAX_CARRIED_BYTES) {
      dropped++;
      continue;
    }
    carried[key] = value;
    bytes += size;
  }
  return { carried, dropped };
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
