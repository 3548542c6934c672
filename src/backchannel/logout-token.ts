import { randomUUID } from 'node:crypto';

/** OpenID Connect Back-Channel Logout 1.0 §2.4: the event a logout token carries. */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** §2.4.1 (RFC 8725 explicit typing): the JWT type of a logout token. */
export const LOGOUT_TOKEN_TYPE = 'logout+jwt';
/** How long a logout token is accepted after it was issued (ours and the IdP's). */
export const LOGOUT_TOKEN_LIFETIME_SECONDS = 120;
/**
 * The clock skew allowed between the IdP and this service (Back-Channel Logout 1.0 §2.6 leaves it to
 * the receiver; a minute, as for `iat` in the past before): an `iat` up to this far ahead is taken.
 */
export const LOGOUT_TOKEN_CLOCK_SKEW_SECONDS = 60;

export interface LogoutTokenSubject {
  /** The collector's user id: the `uid` of the access tokens the brand received. */
  readonly sub: string;
  /**
   * The `si` the brand received for the session that ended, when it received one
   * (docs/brand-contract.md §7).
   */
  readonly sid?: string;
}

/** The claims of a logout token to one brand (§2.4): iss, aud, iat, exp, jti, events, sub and sid. */
export function logoutTokenClaims(
  issuer: string,
  audience: string,
  subject: LogoutTokenSubject,
  nowSeconds: number,
  jti: string = randomUUID(),
): Record<string, unknown> {
  return {
    iss: issuer,
    aud: audience,
    iat: nowSeconds,
    exp: nowSeconds + LOGOUT_TOKEN_LIFETIME_SECONDS,
    jti,
    sub: subject.sub,
    ...(subject.sid ? { sid: subject.sid } : {}),
    events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
  };
}

export type LogoutTokenProblem =
  | 'no events claim'
  | 'has a nonce'
  | 'no sub or sid'
  | 'no jti'
  | 'no iat'
  | 'no exp'
  | 'issued in the future'
  | 'issued too long ago';

/**
 * §2.6 steps 4-6 on verified claims (signature, iss, aud and an `exp` already past are checked by
 * jose before): the events member, no nonce, a sub or sid, a jti for replay detection, an `iat` and
 * an `exp` (§2.4 REQUIRED), and an `iat` neither in the future beyond the clock skew nor too old
 * (OIDC Back-Channel Logout 1.0 §2.4: a token dated ahead was accepted long after its jti was
 * forgotten).
 */
export function logoutTokenProblem(
  claims: Record<string, unknown>,
  nowSeconds: number,
): LogoutTokenProblem | undefined {
  const events = claims.events;
  if (
    typeof events !== 'object' ||
    events === null ||
    typeof (events as Record<string, unknown>)[BACKCHANNEL_LOGOUT_EVENT] !== 'object'
  )
    return 'no events claim';
  if (claims.nonce !== undefined) return 'has a nonce';
  if (typeof claims.sub !== 'string' && typeof claims.sid !== 'string') return 'no sub or sid';
  if (typeof claims.jti !== 'string' || claims.jti.length === 0 || claims.jti.length > 256)
    return 'no jti';
  if (typeof claims.iat !== 'number' || !Number.isFinite(claims.iat)) return 'no iat';
  if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) return 'no exp';
  if (claims.iat > nowSeconds + LOGOUT_TOKEN_CLOCK_SKEW_SECONDS) return 'issued in the future';
  if (claims.iat < nowSeconds - LOGOUT_TOKEN_LIFETIME_SECONDS - LOGOUT_TOKEN_CLOCK_SKEW_SECONDS)
    return 'issued too long ago';
  return undefined;
}

/**
 * §2.6 step 7: how long a logout token's jti is remembered, so that the same token is refused for as
 * long as it could be accepted: until its `exp`, or until its `iat` makes it too old, whichever comes
 * first, plus the clock skew. For claims logoutTokenProblem accepted (`iat` and `exp` numbers).
 */
export function jtiMemorySeconds(
  claims: { readonly iat: number; readonly exp: number },
  nowSeconds: number,
): number {
  const tooOldAt = claims.iat + LOGOUT_TOKEN_LIFETIME_SECONDS + LOGOUT_TOKEN_CLOCK_SKEW_SECONDS;
  const acceptedUntil = Math.min(claims.exp, tooOldAt) + LOGOUT_TOKEN_CLOCK_SKEW_SECONDS;
  return Math.max(1, Math.ceil(acceptedUntil - nowSeconds));
}
