// Verifying `t`, the access token the sign-on service hands this brand (docs/brand-contract.md in the
// sign-on repository). Two ways, each enough on its own: jose, which this site relies on, and Okta's
// own verifier for Node, which a brand already using Okta's SDKs may prefer. This site runs both and
// accepts a token only when both do, so that its tests prove each against both identity providers;
// a brand needs only one.
import OktaJwtVerifier from '@okta/jwt-verifier';
import { createRemoteJWKSet, jwtVerify } from 'jose';

/** The longest lifetime (exp - iat) accepted, as the service itself accepts (RFC 9068 §4). */
const MAX_LIFETIME_SECONDS = 86_400;

/**
 * @typedef {object} AccessClaims
 * @property {string} uid The collector's user id: key sessions and data on it.
 * @property {string} sub The collector's login (email): show it, never key on it.
 * @property {number | undefined} collectorsId The collector number, a number whichever way the IdP
 *   wrote it (Okta may send a string of digits).
 * @property {string} cid The client the token was issued to.
 * @property {string} jti
 * @property {number} exp
 */

/**
 * Both verifiers for one issuer and audience. `clientId` is the client a token must have been issued
 * to (`cid`): this brand's own, or its app's.
 * @param {{ idpIssuer: string, audience: string }} config
 */
export function accessTokenVerifier(config) {
  // The issuer's keys (`{issuer}/v1/keys` for Okta's and the embedded IdP's paths), fetched once and
  // again when a token names a key not yet seen (key rotation).
  const keys = createRemoteJWKSet(new URL(`${config.idpIssuer}/v1/keys`));
  /** @type {Map<string, OktaJwtVerifier>} */
  const oktaVerifiers = new Map();
  const oktaVerifier = (clientId) => {
    let verifier = oktaVerifiers.get(clientId);
    if (!verifier) {
      verifier = new OktaJwtVerifier({
        issuer: config.idpIssuer,
        assertClaims: { cid: clientId },
        // The embedded IdP of a developer's machine answers over plain http; Okta never does. The
        // option is off whenever the issuer is https.
        ...(config.idpIssuer.startsWith('http:') ? { testing: { disableHttpsCheck: true } } : {}),
      });
      oktaVerifiers.set(clientId, verifier);
    }
    return verifier;
  };

  /**
   * The primary check, with jose: RS256 only, the issuer's keys, `iss`, `aud`, `exp`, an `iat` not in
   * the future, a bounded lifetime. No `typ` is required: Okta's access tokens carry none and the
   * embedded IdP's say `at+jwt`.
   * @returns {Promise<AccessClaims>}
   */
  async function verifyWithJose(token, clientId) {
    const { payload } = await jwtVerify(token, keys, {
      algorithms: ['RS256'],
      issuer: config.idpIssuer,
      audience: config.audience,
      requiredClaims: ['exp', 'iat', 'sub', 'uid', 'cid', 'jti'],
      clockTolerance: 60,
    });
    if (payload.cid !== clientId) throw new Error(`issued to ${payload.cid}, not ${clientId}`);
    if (payload.iat > Date.now() / 1000 + 60) throw new Error('issued in the future');
    if (payload.exp - payload.iat > MAX_LIFETIME_SECONDS) throw new Error('lifetime too long');
    return claimsOf(payload);
  }

  /**
   * The same token through @okta/jwt-verifier: RS256 against `{issuer}/v1/keys`, `iss`, `aud`,
   * expiry, and the asserted `cid`.
   * @returns {Promise<AccessClaims>}
   */
  async function verifyWithOktaVerifier(token, clientId) {
    const jwt = await oktaVerifier(clientId).verifyAccessToken(token, config.audience);
    return claimsOf(jwt.claims);
  }

  return {
    verifyWithJose,
    verifyWithOktaVerifier,
    /**
     * Both, which must agree. Resolves with the claims and the names of the verifiers that passed;
     * rejects with the first refusal.
     */
    async verify(token, clientId) {
      if (typeof token !== 'string' || token.length === 0) throw new Error('no access token');
      const claims = await verifyWithJose(token, clientId);
      const okta = await verifyWithOktaVerifier(token, clientId);
      if (okta.uid !== claims.uid || okta.jti !== claims.jti)
        throw new Error('the verifiers disagree');
      return { claims, verifiedBy: ['jose', '@okta/jwt-verifier'] };
    },
  };
}

/** The claims this site uses, in the types it uses them (docs/brand-contract.md). */
function claimsOf(payload) {
  if (typeof payload.uid !== 'string' || payload.uid === '') throw new Error('no uid');
  if (typeof payload.sub !== 'string') throw new Error('no sub');
  const raw = payload.CollectorsId;
  const collectorsId =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && /^\d{1,15}$/.test(raw)
        ? Number(raw)
        : undefined;
  return {
    uid: payload.uid,
    sub: payload.sub,
    collectorsId,
    cid: String(payload.cid),
    jti: String(payload.jti),
    exp: Number(payload.exp),
  };
}
