import { decodeJwt } from 'jose';
import type { SessionRecord, TokenSet } from './sessions';
import { AuthUserState, SIGNED_OUT, shellGuard } from '../shared/shell-guard';
import type { Brand } from '../shared/brand';
import type { ShellPendingStep } from '../shared/pending-step';

/** The ID token's claims, by the token set they came in. */
const claimsOfTokens = new WeakMap<TokenSet, Readonly<Record<string, unknown>>>();

/**
 * The claims of a token set's ID token (none when it has none or it cannot be read), decoded once per
 * set: Sessions keeps a session's opened record, tokens frozen, from request to request until they
 * change (a refresh brings a new set, so new claims are read), and every /signin, shell page and
 * account.status call asks for them (an API batch of three asked three times: issue 18 item 2).
 */
function idTokenClaims(tokens: TokenSet): Readonly<Record<string, unknown>> {
  let claims = claimsOfTokens.get(tokens);
  if (claims === undefined) {
    try {
      claims = tokens.idToken ? Object.freeze(decodeJwt(tokens.idToken)) : {};
    } catch {
      claims = {};
    }
    claimsOfTokens.set(tokens, claims);
  }
  return claims;
}

/**
 * §3 Auth user state from a live session: the flags come from the ID token's `customer` claims. The
 * token reached us from the IdP's token endpoint and was validated at the landing (or at the last
 * refresh), and it is kept server-side, so reading it here needs no second verification.
 */
export function accountStatus(record: SessionRecord | undefined): AuthUserState {
  if (!record) return SIGNED_OUT;
  const claims = idTokenClaims(record.tokens);
  const collectorsId =
    record.collectorsId ??
    (typeof claims.CollectorsId === 'number' ? claims.CollectorsId : undefined);
  // The flags as the IdP states them. What the collector put off is the IdP's to say (a skipped
  // survey is no longer to be shown; "Not now" is promptMfaSignin, applied by the §2 rule), so no step
  // is hidden here: a step still pending after a trip to the IdP is shown as pending (issue 14 item 10).
  return {
    isSignedIn: true,
    isMigrating: claims.isMigrating === true,
    setupMfa: claims.setupMfa === true,
    showSurvey: claims.showSurvey === true,
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
