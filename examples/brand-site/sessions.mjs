// This site's own sessions, in memory (a real brand keeps them in its own store). A session is keyed
// by a random id in this site's cookie and belongs to the collector's user id (`uid`), never to the
// login (`sub`), which changes when the collector changes their email. The `si` the sign-on service
// sent is kept beside it: a logout token names the session that ended by that `si` (its `sid`).
import { randomBytes } from 'node:crypto';

/**
 * @typedef {object} Session
 * @property {string} id This site's session id (its cookie's value).
 * @property {string} clientId The client the tokens were issued to (this brand's, or its app's).
 * @property {'tokens-in-url' | 'handoff-code' | 'app'} via How the session arrived.
 * @property {string} uid
 * @property {string} sub
 * @property {number | undefined} collectorsId
 * @property {string | undefined} si The sign-on service's session id, when it sent one.
 * @property {string} accessToken Kept on the server, never sent to the browser.
 * @property {string} accessTokenJti
 * @property {number} accessTokenExp
 * @property {string | undefined} refreshToken Kept on the server, never sent to the browser.
 * @property {string[]} verifiedBy
 * @property {string} createdAt
 * @property {string | undefined} endedAt
 * @property {string | undefined} endedBy Why it ended: sign-in-again, back-channel-logout, ...
 * @property {object[]} refreshes Each refresh's outcome: when, the status, the error or new jti.
 */

export class Sessions {
  /** @type {Map<string, Session>} */
  #byId = new Map();

  /**
   * A new session from verified claims and the tokens that came with them.
   * @returns {Session}
   */
  create({ clientId, via, claims, verifiedBy, accessToken, refreshToken, si }) {
    const session = {
      id: randomBytes(32).toString('base64url'),
      clientId,
      via,
      uid: claims.uid,
      sub: claims.sub,
      collectorsId: claims.collectorsId,
      si,
      accessToken,
      accessTokenJti: claims.jti,
      accessTokenExp: claims.exp,
      refreshToken,
      verifiedBy,
      createdAt: new Date().toISOString(),
      endedAt: undefined,
      endedBy: undefined,
      refreshes: [],
    };
    this.#byId.set(session.id, session);
    return session;
  }

  /** A live session by its id, or undefined. */
  live(id) {
    const session = typeof id === 'string' ? this.#byId.get(id) : undefined;
    return session && !session.endedAt ? session : undefined;
  }

  /** Any session by its id, ended or not. */
  get(id) {
    return this.#byId.get(id);
  }

  /** Ends one session (its tokens are dropped with it); returns whether it was live. */
  end(session, reason) {
    if (session.endedAt) return false;
    session.endedAt = new Date().toISOString();
    session.endedBy = reason;
    session.accessToken = '';
    session.refreshToken = undefined;
    return true;
  }

  /**
   * OpenID Connect Back-Channel Logout 1.0 §2.7: the sessions a logout token names, of the client it
   * was addressed to: the one with its `sid` (and, if it names one, its `sub`), or, without a `sid`,
   * every session of its `sub`.
   * @returns {Session[]}
   */
  named({ aud, sub, sid }) {
    return [...this.#byId.values()].filter(
      (s) =>
        !s.endedAt &&
        s.clientId === aud &&
        (sid ? s.si === sid && (!sub || s.uid === sub) : s.uid === sub),
    );
  }

  /** Every session, without its tokens (the test hook's view). */
  list() {
    return [...this.#byId.values()].map(({ accessToken: _a, refreshToken: refresh, ...rest }) => ({
      ...rest,
      hasRefreshToken: Boolean(refresh),
    }));
  }
}
