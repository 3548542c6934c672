import { decodeJwt } from 'jose';
import type { SessionRecord } from './sessions';
import { AuthUserState, SIGNED_OUT } from '../shared/shell-guard';

/**
 * §3 Auth user state from a live session: the flags come from the ID token's `customer` claims. The
 * token reached us from the IdP's token endpoint and was validated at the landing (or at the last
 * refresh), and it is kept server-side, so reading it here needs no second verification.
 */
export function accountStatus(record: SessionRecord | undefined): AuthUserState {
  if (!record) return SIGNED_OUT;
  let claims: Record<string, unknown> = {};
  try {
    claims = record.tokens.idToken ? decodeJwt(record.tokens.idToken) : {};
  } catch {
    claims = {};
  }
  const collectorsId =
    record.collectorsId ??
    (typeof claims.CollectorsId === 'number' ? claims.CollectorsId : undefined);
  // Steps the IdP has just offered in this session's sign-in and the collector put off are not
  // pending again for this session (otherwise §2's redirect to /signin would loop back here).
  const offered = record.stepsOffered === true;
  return {
    isSignedIn: true,
    isMigrating: claims.isMigrating === true,
    setupMfa: claims.setupMfa === true && !offered,
    showSurvey: claims.showSurvey === true && !offered,
    ...(collectorsId !== undefined ? { collectorsId } : {}),
  };
}
