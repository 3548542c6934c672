import { Inject, Injectable } from '@nestjs/common';
import { JWTPayload, createRemoteJWKSet, customFetch, errors as joseErrors, jwtVerify } from 'jose';
import { collectorsIdOf } from '../oidc/account-claims';
import { OidcClient } from '../oidc/oidc-client';
import { APP_CONFIG, AppConfig } from '../config/app-config';

/** A token larger than this is refused before any parsing (a cookie could not carry it anyway). */
export const MAX_TOKEN_LENGTH = 8192;

/** §3 access-token claims. */
export interface AccessTokenClaims extends JWTPayload {
  /** §3 CollectorsId as a number (Okta may send a numeric string); absent when the token has none. */
  readonly CollectorsId?: number;
  readonly NavisionId?: string;
  readonly cid: string;
  readonly scp?: string[];
  readonly sub?: string;
  readonly exp: number;
}

/** Why an access token was refused. */
export type TokenProblem = 'missing' | 'too-large' | 'malformed' | 'expired' | 'invalid';

/**
 * The raw token: exactly three base64url segments (a JWS in compact form, RFC 7515 §7.1), nothing
 * around them: no whitespace, CR, LF, NUL, `Bearer ` prefix or comma (issue 15 item 1).
 */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** Seconds of clock difference with the IdP that are tolerated (expiry, issue time). */
const CLOCK_TOLERANCE_SECONDS = 5;

export type TokenCheck =
  | { readonly ok: true; readonly claims: AccessTokenClaims }
  | { readonly ok: false; readonly reason: TokenProblem };

/**
 * What each refusal says, in logs and answers: the one place a token problem becomes text. §8: "A
 * missing token gives the message 'access token must be specified'"; the others are ours (§8 shows
 * none). None of them quotes the token.
 */
export const TOKEN_PROBLEM_MESSAGES: Readonly<Record<TokenProblem, string>> = {
  missing: 'access token must be specified',
  'too-large': 'access token is too large',
  malformed: 'access token is not a compact JWS',
  expired: 'access token has expired',
  invalid: 'access token is invalid',
};

/**
 * The JOSE `typ` of an access token: none at all (Okta's access tokens carry only `kid` and `alg`), or
 * RFC 9068's `at+jwt`, with or without `application/`, in any case (RFC 7515 §4.1.9).
 */
export function isAccessTokenType(typ: unknown): boolean {
  if (typ === undefined) return true;
  if (typeof typ !== 'string') return false;
  const t = typ.toLowerCase();
  return t === 'at+jwt' || t === 'application/at+jwt';
}

/**
 * Claims that only another kind of token of the same IdP carries (issue 31 item 1): with no `typ` to
 * go by, an ID token (OIDC Core §2, §3.1.3.6: `nonce`, `at_hash`, `c_hash`, `auth_time` with a client
 * audience) or a logout token (Back-Channel Logout 1.0 §2.4: `events`) is told from an access token by
 * these, and by its audience, which is a client id rather than the authorization server's.
 */
export const NOT_ACCESS_TOKEN_CLAIMS = ['nonce', 'at_hash', 'c_hash', 'events'] as const;

/**
 * Verifies access tokens before any use (§5, docs/design.md flow 5, ASVS 5.0 9.1-9.2): the compact shape
 * and size before parsing, signature against the issuer's JWKS, RS256 only (no `none`, no key
 * confusion), a `typ` that is absent or `at+jwt`, no claim only an ID or logout token carries, issuer,
 * audience (IDP_AUDIENCE), expiry, `sub`, an `iat` not in the future and a lifetime within
 * ACCESS_TOKEN_MAX_LIFETIME_SECONDS (RFC 9068 §4), and Okta's `cid` and `scp`.
 */
@Injectable()
export class TokenVerifier {
  private jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly oidc: OidcClient,
  ) {}

  /**
   * A logout token from the IdP (OIDC Back-Channel Logout 1.0 §2.6 steps 3-5): signed with the IdP's
   * key (RS256), issued by it, for this service's client; its claims, or undefined when not valid.
   * The event, nonce, sub/sid and iat rules are checked by the caller (logoutTokenProblem).
   */
  async verifyLogoutToken(token: string): Promise<JWTPayload | undefined> {
    if (token.length > MAX_TOKEN_LENGTH || !COMPACT_JWS.test(token)) return undefined;
    try {
      const { payload } = await jwtVerify(token, await this.keySet(), {
        algorithms: ['RS256'],
        issuer: this.config.idp.issuer,
        audience: this.config.idp.clientId,
        // Back-Channel Logout 1.0 §2.4 and RFC 8725 §3.11: explicit typing, so no other token of
        // the IdP's (an ID or access token for this client) passes as a logout token.
        typ: 'logout+jwt',
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      return payload;
    } catch {
      return undefined;
    }
  }

  private async keySet(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    this.jwks ??= createRemoteJWKSet(new URL(await this.oidc.jwksUri()), {
      timeoutDuration: 5000,
      cooldownDuration: 30_000,
      // Issue 17 item 2: the key set is fetched from the IdP too, traced like its other calls.
      ...(this.oidc.fetch ? { [customFetch]: this.oidc.fetch } : {}),
    });
    return this.jwks;
  }

  async verify(token: unknown): Promise<TokenCheck> {
    if (typeof token !== 'string' || token === '') return { ok: false, reason: 'missing' };
    // Size first, then shape, both before any parsing (issue 15 item 1).
    if (token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'too-large' };
    if (!COMPACT_JWS.test(token)) return { ok: false, reason: 'malformed' };
    const maxLifetime = this.config.idp.accessTokenMaxLifetimeSeconds;
    try {
      const { payload, protectedHeader } = await jwtVerify(token, await this.keySet(), {
        algorithms: ['RS256'],
        issuer: this.config.idp.issuer,
        // The authorization server's audience, never a client id (an ID or logout token's `aud`).
        audience: this.config.idp.audience,
        requiredClaims: ['exp', 'iat', 'sub', 'cid'],
        // An iat in the future (beyond the tolerance) is refused; so is one older than the longest
        // lifetime allowed.
        maxTokenAge: maxLifetime,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      const collectorsId = collectorsIdOf(payload.CollectorsId);
      if (
        // RFC 9068 §4 and RFC 8725 §3.11 where the IdP types its tokens; Okta does not, so the
        // claims below tell an ID or logout token of the same IdP apart.
        !isAccessTokenType(protectedHeader.typ) ||
        NOT_ACCESS_TOKEN_CLAIMS.some((claim) => payload[claim] !== undefined) ||
        typeof payload.cid !== 'string' ||
        typeof payload.sub !== 'string' ||
        payload.sub === '' ||
        // §3: a collector number, or a numeric string of one (Okta's expression language); a token
        // may also leave it to the ID token or userinfo (src/oidc/account-claims.ts).
        (payload.CollectorsId !== undefined && collectorsId === undefined) ||
        (payload.scp !== undefined && !Array.isArray(payload.scp)) ||
        // A lifetime no longer than configured: an absurd exp (1e308) is no token of our IdP's.
        typeof payload.exp !== 'number' ||
        typeof payload.iat !== 'number' ||
        payload.exp - payload.iat > maxLifetime
      ) {
        return { ok: false, reason: 'invalid' };
      }
      const { CollectorsId: _stated, ...rest } = payload;
      const claims = {
        ...rest,
        ...(collectorsId !== undefined ? { CollectorsId: collectorsId } : {}),
      };
      return { ok: true, claims: claims as AccessTokenClaims };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired' };
      return { ok: false, reason: 'invalid' };
    }
  }
}
