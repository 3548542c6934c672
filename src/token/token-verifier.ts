import { Inject, Injectable } from '@nestjs/common';
import { JWTPayload, createRemoteJWKSet, customFetch, errors as joseErrors, jwtVerify } from 'jose';
import { OidcClient } from '../oidc/oidc-client';
import { APP_CONFIG, AppConfig } from '../config/app-config';

/** Okta's default authorization server issues access tokens for this audience. */
export const ACCESS_TOKEN_AUDIENCE = 'api://default';
/** A token larger than this is refused before any parsing (a cookie could not carry it anyway). */
export const MAX_TOKEN_LENGTH = 8192;

/** §3 access-token claims. */
export interface AccessTokenClaims extends JWTPayload {
  readonly CollectorsId: number;
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
 * Verifies access tokens before any use (§5, DESIGN.md flow 5, ASVS 5.0 9.1-9.2): the compact shape
 * and size before parsing, signature against the issuer's JWKS, RS256 only (no `none`, no key
 * confusion), the `at+jwt` type, issuer, audience, expiry, `sub`, an `iat` not in the future and a
 * lifetime within ACCESS_TOKEN_MAX_LIFETIME_SECONDS (RFC 9068 §4), and Okta's `cid` and `scp`.
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
      const { payload } = await jwtVerify(token, await this.keySet(), {
        algorithms: ['RS256'],
        issuer: this.config.idp.issuer,
        audience: ACCESS_TOKEN_AUDIENCE,
        // RFC 9068 §4 and RFC 8725 §3.11: an access token says so in its header (`at+jwt`, any
        // case, `application/` optional: jose normalises both), so a logout or ID token signed by
        // the same IdP is never taken for one.
        typ: 'at+jwt',
        requiredClaims: ['exp', 'iat', 'sub', 'cid'],
        // An iat in the future (beyond the tolerance) is refused; so is one older than the longest
        // lifetime allowed.
        maxTokenAge: maxLifetime,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      if (
        typeof payload.cid !== 'string' ||
        typeof payload.sub !== 'string' ||
        payload.sub === '' ||
        typeof payload.CollectorsId !== 'number' ||
        (payload.scp !== undefined && !Array.isArray(payload.scp)) ||
        // A lifetime no longer than configured: an absurd exp (1e308) is no token of our IdP's.
        typeof payload.exp !== 'number' ||
        typeof payload.iat !== 'number' ||
        payload.exp - payload.iat > maxLifetime
      ) {
        return { ok: false, reason: 'invalid' };
      }
      return { ok: true, claims: payload as AccessTokenClaims };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired' };
      return { ok: false, reason: 'invalid' };
    }
  }
}
