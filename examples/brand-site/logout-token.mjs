// Verifying a logout token from the sign-on service (OpenID Connect Back-Channel Logout 1.0 §2.6).
// The service signs it with its own key (published at `{SIGNON_URL}/.well-known/jwks.json`), not the
// IdP's: `iss` is the service's PUBLIC_URL and `aud` this brand's client id.
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';

export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** The service's tokens live two minutes from `iat`; one more for clocks that disagree. */
const MAX_AGE_SECONDS = 180;

/**
 * A token this site refuses (answered 400). Any other error (the service's keys could not be
 * fetched) is this site's trouble: answered 5xx, so that the service tries again.
 */
export class LogoutTokenRefused extends Error {}

const refused = (reason) => new LogoutTokenRefused(reason);

/**
 * @typedef {object} LogoutClaims
 * @property {string} aud The client id it was addressed to (this brand's, or its app's).
 * @property {string | undefined} sub The collector's user id (the `uid` of their access tokens).
 * @property {string | undefined} sid The `si` this brand received for the session that ended.
 * @property {string} jti
 * @property {number} iat
 */

/**
 * A verifier for the logout tokens addressed to `clientIds`.
 * @param {{ signonUrl: string }} config
 * @param {readonly string[]} clientIds
 */
export function logoutTokenVerifier(config, clientIds) {
  const keys = createRemoteJWKSet(new URL(`${config.signonUrl}/.well-known/jwks.json`));
  /** Token ids already acted on, until their tokens could no longer be accepted anyway. */
  const seen = new Map();

  /**
   * Resolves with the claims of a valid token seen for the first time; rejects with the reason
   * otherwise. The jti is remembered only once the token passed every other check.
   * @returns {Promise<LogoutClaims>}
   */
  return async function verifyLogoutToken(token) {
    // §2.6 steps 3-5: signature (RS256, the service's keys), iss, aud, the explicit type, a recent
    // iat, and exp.
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        algorithms: ['RS256'],
        typ: 'logout+jwt',
        issuer: config.signonUrl,
        audience: [...clientIds],
        requiredClaims: ['iat', 'jti', 'events'],
        maxTokenAge: MAX_AGE_SECONDS,
        clockTolerance: 60,
      }));
    } catch (error) {
      if (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout))
        throw refused(error.message);
      throw error;
    }
    // §2.6 step 4: the events member names the back-channel logout event, as a JSON object.
    const event = payload.events?.[BACKCHANNEL_LOGOUT_EVENT];
    if (typeof event !== 'object' || event === null || Array.isArray(event))
      throw refused('no back-channel logout event');
    // §2.6 step 5: a logout token never carries a nonce (it would be an ID token).
    if (payload.nonce !== undefined) throw refused('a nonce claim');
    const sub = typeof payload.sub === 'string' ? payload.sub : undefined;
    const sid = typeof payload.sid === 'string' ? payload.sid : undefined;
    if (!sub && !sid) throw refused('neither sub nor sid');
    if (typeof payload.jti !== 'string' || payload.jti === '') throw refused('no jti');
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    const aud = String(audiences.find((candidate) => clientIds.includes(candidate)));
    // §2.6 step 6 (optional in the specification, done here): a token is acted on once. Remembered
    // per audience: a back end that serves two clients (a web brand and its app) is two relying
    // parties, each with its own record of the jti it has seen (the service gives every token a jti
    // of its own, kept across that token's retries).
    const now = Date.now();
    for (const [key, until] of seen) if (until < now) seen.delete(key);
    const key = `${aud} ${payload.jti}`;
    if (seen.has(key)) throw refused('replayed (jti seen before)');
    seen.set(key, now + (MAX_AGE_SECONDS + 60) * 1000);
    return {
      aud,
      sub,
      sid,
      jti: payload.jti,
      iat: Number(payload.iat),
    };
  };
}
