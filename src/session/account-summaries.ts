import { Injectable } from '@nestjs/common';
import { AppLogger } from '../logging/app-logger';
import { StatedClaims, collectorsIdOf, statedClaimsOf } from '../oidc/account-claims';
import { IdpError, OidcClient } from '../oidc/oidc-client';
import type { AccountSummary } from '../shared/landing';
import type { SessionRecord } from './sessions';

/**
 * Who is signed in, as the landing shows it (issue 16 item 4; the type is src/shared/landing.ts): from
 * the ID token's claims and the IdP's userinfo, both through the OIDC adapter, so any issuer that
 * sends these claims fills it; missing ones are simply not shown.
 */
export type { AccountSummary };

/** The second-factor types the landing knows how to name; anything else an issuer sends is left out. */
const KNOWN_FACTORS = ['totp', 'sms', 'email'] as const;

const text = (value: unknown, max = 200): string | undefined =>
  typeof value === 'string' && value.trim() !== '' && value.length <= max
    ? value.trim()
    : undefined;

/**
 * Claims from one or more sources (ID token, then userinfo, later ones winning) as a summary. Each
 * value is checked: only text of a sane length, a finite collector number, and known factor types.
 */
export function accountSummaryFrom(
  ...sources: readonly Readonly<Record<string, unknown>>[]
): AccountSummary {
  const claims = Object.assign({}, ...sources) as Record<string, unknown>;
  const name =
    text(claims.name) ??
    text([text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' '));
  const email = text(claims.email, 320);
  const collectorsId = collectorsIdOf(claims.CollectorsId);
  const factors = Array.isArray(claims.factors)
    ? KNOWN_FACTORS.filter((f) => (claims.factors as unknown[]).includes(f))
    : [];
  return {
    ...(name ? { name } : {}),
    ...(email ? { email } : {}),
    ...(collectorsId !== undefined ? { collectorsId } : {}),
    factors,
  };
}

/** The summary a session records, or what its record alone can tell (sessions from before it). */
export function accountSummaryOf(record: SessionRecord): AccountSummary {
  return (
    record.account ??
    (record.collectorsId !== undefined
      ? { collectorsId: record.collectorsId, factors: [] }
      : { factors: [] })
  );
}

/** What a sign-in learns of the collector besides its tokens. */
export interface SigninFacts {
  /** Who signed in, for the landing. */
  readonly account: AccountSummary;
  /** The §3 claims userinfo stated (src/oidc/account-claims.ts: the last source in precedence). */
  readonly userinfoClaims: StatedClaims;
}

/**
 * Reads what a new session records at its sign-in: the token's claims, then the IdP's userinfo
 * through the OIDC adapter (issue 31 item 1: an IdP may state the §3 claims there only).
 * - The IdP is down (unreachable, 5xx, timing out): an outage, thrown as the §8 OktaError; or its
 *   rate limit holds userinfo back: thrown as IdpRateLimited (docs/okta.md "Rate limits"). Going on
 *   without userinfo would silently drop the §2 steps of an IdP that states them there, and the
 *   collector can simply try again.
 * - The IdP answered but refused or sent something invalid: logged, and the landing shows what the
 *   token said; the sign-in stands (it was proven by the code exchange).
 */
@Injectable()
export class AccountSummaries {
  constructor(
    private readonly oidc: OidcClient,
    private readonly logger: AppLogger,
  ) {
    this.logger.setContext(AccountSummaries.name);
  }

  async atSignin(
    claims: Readonly<Record<string, unknown>>,
    accessToken: string,
    sub: string,
  ): Promise<SigninFacts> {
    const userinfo = await this.userinfo(accessToken, sub);
    return {
      account: accountSummaryFrom(claims, userinfo),
      userinfoClaims: statedClaimsOf(userinfo),
    };
  }

  /** Userinfo's claims; {} when the IdP refused; an outage is thrown (see above). */
  async userinfo(accessToken: string, sub: string): Promise<Record<string, unknown>> {
    try {
      return await this.oidc.userinfo(accessToken, sub);
    } catch (error) {
      if (error instanceof IdpError && error.undecided) throw error;
      this.logger.warn(
        {
          err: error instanceof Error ? error.message : 'userinfo failed',
          ...(error instanceof IdpError && error.oauthError
            ? { oauthError: error.oauthError }
            : {}),
        },
        'userinfo could not be read: the landing shows what the token says',
      );
      return {};
    }
  }
}
