// The two OAuth calls a brand's back end makes, with openid-client and the brand's own credentials:
// refreshing `rt` at the IdP's token endpoint (RFC 6749 §6), and redeeming a one-time handoff code at
// the sign-on service's token endpoint (RFC 6749 §4.1.3).
import * as client from 'openid-client';

/**
 * @typedef {object} TokenSet
 * @property {string} accessToken
 * @property {string | undefined} refreshToken
 * @property {string | undefined} sessionId The `si` the service also sent, when it sent one.
 */

/**
 * @typedef {object} OAuthRefusal
 * @property {number | undefined} status The endpoint's HTTP status, when it answered.
 * @property {string} error The RFC 6749 §5.2 error code (`invalid_grant`), or what went wrong.
 */

/** `allowInsecureRequests` only for an http URL: a developer's machine, never Okta. */
const execute = (url) => (url.startsWith('http:') ? [client.allowInsecureRequests] : []);

/**
 * @param {{ idpIssuer: string, signonUrl: string }} config
 */
export function oauthCalls(config) {
  /** @type {Map<string, Promise<client.Configuration>>} IdP configurations by client id */
  const discovered = new Map();

  /**
   * The IdP as this client sees it, from its discovery document (read once, again after a failure).
   * Okta's and the embedded IdP's app integrations authenticate clients with HTTP Basic
   * (client_secret_basic).
   */
  function idpFor(credentials) {
    let found = discovered.get(credentials.clientId);
    if (!found) {
      found = client.discovery(
        new URL(config.idpIssuer),
        credentials.clientId,
        undefined,
        client.ClientSecretBasic(credentials.clientSecret),
        { execute: execute(config.idpIssuer) },
      );
      found.catch(() => discovered.delete(credentials.clientId));
      discovered.set(credentials.clientId, found);
    }
    return found;
  }

  /**
   * The handoff exchange as an ordinary token endpoint: the tokens are the IdP's (so the issuer an ID
   * token in the answer must name is the IdP's), the endpoint that hands them over is the service's.
   */
  function handoffEndpoint(credentials) {
    const configuration = new client.Configuration(
      { issuer: config.idpIssuer, token_endpoint: `${config.signonUrl}/api/handoff/token` },
      credentials.clientId,
      undefined,
      client.ClientSecretBasic(credentials.clientSecret),
    );
    for (const step of execute(config.signonUrl)) step(configuration);
    return configuration;
  }

  return {
    /**
     * grant_type=refresh_token at the IdP with this brand's own client: the `rt` was issued to it.
     * The IdP rotates refresh tokens: keep the new one.
     * @returns {Promise<{ ok: true, tokens: TokenSet } | ({ ok: false } & OAuthRefusal)>}
     */
    async refresh(credentials, refreshToken) {
      try {
        const answer = await client.refreshTokenGrant(await idpFor(credentials), refreshToken);
        return { ok: true, tokens: tokenSetOf(answer, refreshToken) };
      } catch (error) {
        return { ok: false, ...refusalOf(error) };
      }
    },

    /**
     * grant_type=authorization_code with the one-time code, at `{SIGNON_URL}/api/handoff/token`.
     * @returns {Promise<{ ok: true, tokens: TokenSet } | ({ ok: false } & OAuthRefusal)>}
     */
    async redeem(credentials, code) {
      try {
        const answer = await client.genericGrantRequest(
          handoffEndpoint(credentials),
          'authorization_code',
          { code },
        );
        return { ok: true, tokens: tokenSetOf(answer, undefined) };
      } catch (error) {
        return { ok: false, ...refusalOf(error) };
      }
    },
  };
}

function tokenSetOf(answer, previousRefreshToken) {
  return {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token ?? previousRefreshToken,
    sessionId: typeof answer.session_id === 'string' ? answer.session_id : undefined,
  };
}

/** openid-client's error as the OAuth answer it stands for. */
function refusalOf(error) {
  if (error instanceof client.ResponseBodyError)
    return { status: error.status, error: error.error };
  return { status: undefined, error: error instanceof Error ? error.message : String(error) };
}
