import { pooledRandomBytes } from '../common/random-bytes';
import { Inject, Injectable } from '@nestjs/common';
import { AppLogger } from '../logging/app-logger';
import { IdpError, OidcClient } from '../oidc/oidc-client';
import { AppMetrics } from '../metrics';
import { SESSION_STORE, SessionStore } from '../store/session-store';
import { SessionRecord, SessionTokens, Sessions, TokenSet } from './sessions';
import {
  StatedClaims,
  decodedClaims,
  statedClaimsOf,
  tokensStateEveryClaim,
} from '../oidc/account-claims';

/** An access token this close to expiry is refreshed rather than handed out. */
export const REFRESH_MARGIN_SECONDS = 30;
const LOCK_TTL_SECONDS = 15;
const WAIT_STEP_MS = 50;

export function isFresh(tokens: TokenSet, nowSeconds = Date.now() / 1000): boolean {
  return tokens.expiresAt - REFRESH_MARGIN_SECONDS > nowSeconds;
}

/** §4 Token handling: "its expiry has passed". */
function hasExpired(tokens: TokenSet, nowSeconds = Date.now() / 1000): boolean {
  return tokens.expiresAt <= nowSeconds;
}

/**
 * §4 Token handling: an expired or unreadable access token is replaced using the refresh token; with
 * none, or when the IdP refuses it, there are no tokens (the collector is signed out), never a 500.
 *
 * Single flight (docs/design.md flow 5): concurrent requests of one session refresh once. In this process a
 * shared promise does it; across instances a lock in the session store does, and the other instances
 * wait for the session record to change. Refresh tokens rotate, so a second refresh with the same
 * token would be refused by the IdP and, by reuse detection, revoke the new one.
 */
@Injectable()
export class TokenRefresher {
  private readonly inFlight = new Map<string, Promise<SessionRecord | undefined>>();

  constructor(
    private readonly oidc: OidcClient,
    private readonly sessions: Sessions,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    private readonly logger: AppLogger,
    private readonly metrics: AppMetrics,
  ) {
    this.logger.setContext(TokenRefresher.name);
  }

  /** The session with usable tokens, refreshing them if needed; undefined when signed out. */
  async ensureFresh(sessionId: string, record: SessionRecord): Promise<SessionRecord | undefined> {
    if (isFresh(record.tokens)) return record;
    // With no refresh token nothing can replace the access token, so the margin buys nothing: the
    // session lasts until the token itself expires (issue 14 item 7: a sign-in from a handed-over
    // `t` lasts that token's lifetime), and only then ends below.
    if (!record.tokens.refreshToken && !hasExpired(record.tokens)) return record;
    const existing = this.inFlight.get(sessionId);
    if (existing) return existing;
    const work = this.refreshOnce(sessionId, record).finally(() => this.inFlight.delete(sessionId));
    this.inFlight.set(sessionId, work);
    return work;
  }

  private async refreshOnce(
    sessionId: string,
    record: SessionRecord,
    mayWaitAgain = true,
  ): Promise<SessionRecord | undefined> {
    const lockKey = `refresh-lock:${await this.sessions.keyOf(sessionId)}`;
    // The lock holds a value of this attempt's own, so only this attempt releases it: one that ran
    // past LOCK_TTL_SECONDS must not delete the lock another instance has taken since (issue 15
    // item 10, compare-and-delete).
    const holder = pooledRandomBytes(16).toString('base64url');
    if (!(await this.store.setIfAbsent(lockKey, holder, LOCK_TTL_SECONDS)))
      return this.waitForOtherInstance(sessionId, record, lockKey, mayWaitAgain);
    try {
      // Another instance may have refreshed between our read and the lock.
      const current = await this.sessions.get(sessionId);
      if (!current) return undefined;
      if (isFresh(current.tokens) || current.tokens.accessToken !== record.tokens.accessToken)
        return current;
      if (!current.tokens.refreshToken) {
        this.metrics.tokenRefresh('no_refresh_token');
        return this.signOut(sessionId, 'no refresh token');
      }
      try {
        const tokens = await this.oidc.refresh(current.tokens.refreshToken);
        const next: SessionTokens = {
          // What the session handed to brands stays (handedOver, handedAs).
          ...current.tokens,
          accessToken: tokens.accessToken,
          refreshToken: tokens.refreshToken ?? current.tokens.refreshToken,
          ...((tokens.idToken ?? current.tokens.idToken)
            ? { idToken: tokens.idToken ?? current.tokens.idToken }
            : {}),
          expiresAt: tokens.expiresAt,
        };
        const updated = await this.sessions.updateTokens(
          sessionId,
          next,
          Date.now(),
          await this.userinfoAfter(current, next),
        );
        this.metrics.tokenRefresh('success');
        return updated;
      } catch (error) {
        // The IdP's rate limit (docs/okta.md "Rate limits") never signs anyone out: the session
        // goes on with the access token it holds while that is valid; once it has expired the
        // request gets the 429 page (or TOO_MANY_REQUESTS) saying when to try again, and the
        // session stays. No call is made while the token endpoint is held back (IdpCalls), so a
        // collector's page views cost the IdP nothing until then.
        if (error instanceof IdpError && error.rateLimit) {
          this.metrics.tokenRefresh('rate_limited');
          if (!hasExpired(current.tokens)) return current;
          throw error;
        }
        // The IdP refused the refresh token: signed out (§4). The IdP is down: the session stays and
        // the request gets the 502 page, so the collector is still signed in once it is back.
        if (error instanceof IdpError && !error.outage) {
          this.metrics.tokenRefresh('refused');
          return this.signOut(sessionId, error.oauthError ?? error.message);
        }
        this.metrics.tokenRefresh('error');
        throw error;
      }
    } finally {
      await this.store.deleteIfEquals(lockKey, holder);
    }
  }

  /**
   * Another instance holds the lock: its result is the session record with a different access token
   * (fresh or not: short-lived tokens may already be inside the refresh margin). If the lock goes
   * away with nothing changed, that refresh failed or its instance died: try once ourselves.
   */
  private async waitForOtherInstance(
    sessionId: string,
    record: SessionRecord,
    lockKey: string,
    mayRetry = true,
  ): Promise<SessionRecord | undefined> {
    const deadline = Date.now() + LOCK_TTL_SECONDS * 1000;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
      const current = await this.sessions.get(sessionId);
      if (!current) return undefined;
      if (current.tokens.accessToken !== record.tokens.accessToken) return current;
      if (mayRetry && (await this.store.get(lockKey)) === undefined) {
        return this.refreshOnce(sessionId, current, false);
      }
    }
    return undefined;
  }

  /**
   * The §3 claims of a session whose IdP states some of them in userinfo only (issue 31 item 1):
   * read again with the new access token, so a flag the IdP cleared stops applying. Only for such a
   * session, and only when the new tokens do not state them all. A failure keeps the last snapshot:
   * the refresh itself succeeded (the old refresh token is spent), so it must be kept.
   */
  private async userinfoAfter(
    record: SessionRecord,
    tokens: TokenSet,
  ): Promise<StatedClaims | undefined> {
    if (!record.userinfoClaims) return undefined;
    const sources = {
      idToken: decodedClaims(tokens.idToken),
      accessToken: decodedClaims(tokens.accessToken),
    };
    if (tokensStateEveryClaim(sources)) return undefined;
    try {
      return statedClaimsOf(await this.oidc.userinfo(tokens.accessToken, record.sub));
    } catch (error) {
      this.logger.warn(
        { err: error instanceof Error ? error.message : 'userinfo failed' },
        'userinfo could not be read after a refresh: the last claims stand',
      );
      return undefined;
    }
  }

  private async signOut(sessionId: string, reason: string): Promise<undefined> {
    this.logger.info({ reason }, 'refresh failed: session ended');
    await this.sessions.delete(sessionId);
    return undefined;
  }
}
