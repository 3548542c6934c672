import { AccountClaims, accountClaimsFrom, decodedClaims } from '../oidc/account-claims';
import type { SessionRecord, TokenSet } from './sessions';
import { AuthUserState, SIGNED_OUT, shellGuard } from '../shared/shell-guard';
import type { Brand } from '../shared/brand';
import type { ShellPendingStep } from '../shared/pending-step';

/** The §3 claims of a session, by the token set they came from and the userinfo snapshot. */
const claimsOfTokens = new WeakMap<TokenSet, AccountClaims>();

/**
 * The §3 claims of a session (src/oidc/account-claims.ts: ID token, then access token, then the
 * userinfo read at sign-in), worked out once per token set: Sessions keeps a session's opened record,
 * tokens frozen, from request to request until they change (a refresh brings a new set, so the claims
 * are read again), and every /signin, shell page and account.status call asks for them (an API batch
 * of three asked three times: issue 18 item 2).
 */
export function accountClaimsOf(record: SessionRecord): AccountClaims {
  let claims = claimsOfTokens.get(record.tokens);
  if (claims === undefined) {
    claims = accountClaimsFrom({
      idToken: decodedClaims(record.tokens.idToken),
      accessToken: decodedClaims(record.tokens.accessToken),
      userinfo: record.userinfoClaims,
    });
    claimsOfTokens.set(record.tokens, claims);
  }
  return claims;
}

/**
 * §3 Auth user state from a live session. The tokens reached us from the IdP's token endpoint (or a
 * verified `t`) and are kept server-side, so reading them here needs no second verification.
 */
export function accountStatus(record: SessionRecord | undefined): AuthUserState {
  if (!record) return SIGNED_OUT;
  const claims = accountClaimsOf(record);
  const collectorsId = record.collectorsId ?? claims.collectorsId;
  // The flags as the IdP states them. What the collector put off is the IdP's to say (a skipped
  // survey is no longer to be shown; "Not now" is promptMfaSignin, applied by the §2 rule), so no step
  // is hidden here: a step still pending after a trip to the IdP is shown as pending (issue 14 item 10).
  return {
    isSignedIn: true,
    isMigrating: claims.isMigrating,
    setupMfa: claims.setupMfa,
    showSurvey: claims.showSurvey,
    ...(collectorsId !== undefined ? { collectorsId } : {}),
  };
}

/**
 * §3 promptMfaSignin as the §2 rule takes it: 'false' when the session holds the collector's "Not
 * now" (issue 14 item 6), else unset (the set-up is prompted).
 */
export function promptMfaSigninOf(record: SessionRecord | undefined): 'false' | undefined {
  return record?.promptMfaSignin === false ? 'false' : undefined;
}

/**
 * The §2 step this session's collector is sent to /signin for, if any: the shell rule with the
 * session's promptMfaSignin, for the brand the visit came from.
 */
export function pendingStepOf(
  record: SessionRecord,
  brand: Brand | undefined,
): ShellPendingStep | undefined {
  const reason = shellGuard(accountStatus(record), {
    ...(brand ? { brand } : {}),
    ...(promptMfaSigninOf(record) ? { promptMfaSignin: 'false' } : {}),
  });
  return reason === 'not-signed-in' ? undefined : reason;
}
