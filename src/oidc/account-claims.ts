import { decodeJwt } from 'jose';

/**
 * The §3 account claims this service acts on, read the same way whatever IdP issued them (issue 31
 * item 1). Okta lets an org put a custom claim in the ID token, the access token or both, and serves
 * userinfo from the ID token's claims; the embedded IdP puts them in the ID token. So no one token is
 * assumed: each claim is taken from the first source that states it, in this order.
 *
 * | order | source       | why it comes there                                                        |
 * | ----- | ------------ | ------------------------------------------------------------------------- |
 * | 1     | ID token     | the statement about the collector (OIDC Core §2), validated at the landing |
 * |       |              | and replaced at every refresh                                             |
 * | 2     | access token | signed by the IdP, replaced at every refresh; the only token a `t` brings |
 * | 3     | userinfo     | read at sign-in (and at a refresh that brings no claim): a snapshot       |
 *
 * A value of the wrong type counts as not stated, so a later source may still state it.
 */
export const ACCOUNT_CLAIM_SOURCES = ['idToken', 'accessToken', 'userinfo'] as const;
export type AccountClaimSource = (typeof ACCOUNT_CLAIM_SOURCES)[number];

/** The §3 claims of the collector, as every part of this service reads them. */
export interface AccountClaims {
  readonly collectorsId?: number;
  readonly isMigrating: boolean;
  readonly setupMfa: boolean;
  readonly showSurvey: boolean;
  /** §3 promptMfaSignin: only `false` means anything (the collector chose "Not now"). */
  readonly promptMfaSignin?: boolean;
}

/** The claims a source may state, by their names in the tokens. */
export const ACCOUNT_CLAIM_NAMES = [
  'CollectorsId',
  'isMigrating',
  'setupMfa',
  'showSurvey',
  'promptMfaSignin',
] as const;

export type StatedClaims = Partial<Record<(typeof ACCOUNT_CLAIM_NAMES)[number], unknown>>;

/**
 * §3 CollectorsId: a positive safe integer. Okta's expression language yields a string when the
 * profile attribute is one (`"123"`), so a string of digits is taken as the same number; anything
 * else (a float, "12a", an empty string, a number past 2^53) states nothing.
 */
export function collectorsIdOf(value: unknown): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^[0-9]{1,16}$/.test(value)
        ? Number(value)
        : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** A flag the IdP states: a JSON boolean, or Okta's string form of one ("true" / "false"). */
export function flagOf(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

type Sources = Partial<Record<AccountClaimSource, Readonly<Record<string, unknown>> | undefined>>;

/** The first source, in ACCOUNT_CLAIM_SOURCES order, whose value `read` accepts. */
function first<T>(
  sources: Sources,
  name: string,
  read: (v: unknown) => T | undefined,
): T | undefined {
  for (const source of ACCOUNT_CLAIM_SOURCES) {
    const value = read(sources[source]?.[name]);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The §3 account claims from the sources an IdP filled (any may be missing). */
export function accountClaimsFrom(sources: Sources): AccountClaims {
  const collectorsId = first(sources, 'CollectorsId', collectorsIdOf);
  const promptMfaSignin = first(sources, 'promptMfaSignin', flagOf);
  return {
    ...(collectorsId !== undefined ? { collectorsId } : {}),
    isMigrating: first(sources, 'isMigrating', flagOf) ?? false,
    setupMfa: first(sources, 'setupMfa', flagOf) ?? false,
    showSurvey: first(sources, 'showSurvey', flagOf) ?? false,
    ...(promptMfaSignin !== undefined ? { promptMfaSignin } : {}),
  };
}

/** Only the §3 claims of a userinfo answer: what a session keeps of it (a few bytes, no PII). */
export function statedClaimsOf(claims: Readonly<Record<string, unknown>>): StatedClaims {
  const stated: Record<string, unknown> = {};
  for (const name of ACCOUNT_CLAIM_NAMES) {
    const value = claims[name];
    if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string')
      stated[name] = typeof value === 'string' ? value.slice(0, 32) : value;
  }
  return stated;
}

/** Whether a token set's own tokens state every §3 claim (then userinfo has nothing to add). */
export function tokensStateEveryClaim(sources: Pick<Sources, 'idToken' | 'accessToken'>): boolean {
  return ACCOUNT_CLAIM_NAMES.filter((n) => n !== 'promptMfaSignin').every(
    (name) => sources.idToken?.[name] !== undefined || sources.accessToken?.[name] !== undefined,
  );
}

/** The decoded claims of a JWT this service received from the IdP's token endpoint, or {} when opaque. */
export function decodedClaims(token: string | undefined): Readonly<Record<string, unknown>> {
  if (!token) return {};
  try {
    return Object.freeze(decodeJwt(token));
  } catch {
    return {};
  }
}
