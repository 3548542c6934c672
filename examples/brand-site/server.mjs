// A reference brand site for the Collectors sign-on service: what a brand team copies to receive the
// collector's session (README.md beside this file is the brand's quickstart). Plain node:http, no
// framework: every step of the contract is visible in a few lines.
//
//   GET  /                       home: a Sign in link to the service, or who is signed in
//   GET  /auth/signin-callback   the brand's tokenURL: si + t + rt (or si + code), then r or /account
//   GET  /account                who is signed in (uid, CollectorsId, sub), refresh, sign out
//   POST /refresh                refreshes rt at the IdP with this brand's own client
//   GET  /signout                ends this site's session, then signs out at the service
//   POST /app/redeem             the brand's app back end: redeems the app's one-time code
//   POST /backchannel-logout     logout tokens from the service (OIDC Back-Channel Logout 1.0)
//   GET  /healthz                200 once listening
//   GET  /__state                (BRAND_SITE_TEST=1 only) sessions and logout tokens, as JSON
import { createServer } from 'node:http';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { accessTokenVerifier } from './access-token.mjs';
import { readConfig } from './config.mjs';
import { LogoutTokenRefused, logoutTokenVerifier } from './logout-token.mjs';
import { oauthCalls } from './oauth.mjs';
import { accountPage, homePage, problemPage } from './pages.mjs';
import { Sessions } from './sessions.mjs';

const config = readConfig();
const SITE_ORIGIN = new URL(config.siteUrl).origin;
const COOKIE = 'brand_site_session';
const MAX_BODY_BYTES = 16 * 1024;

const accessTokens = accessTokenVerifier(config);
const verifyLogoutToken = logoutTokenVerifier(
  config,
  [config.client.clientId, config.app?.clientId].filter(Boolean),
);
const oauth = oauthCalls(config);
const sessions = new Sessions();

/** What the test hook reports (BRAND_SITE_TEST=1): logout tokens received and redemptions. */
const received = { logoutTokens: [], redemptions: [] };
/** Keeps `entry` for the test hook, only when it is on (nothing piles up otherwise). */
const remember = (list, entry) => {
  if (config.testHooks) list.push(entry);
  return entry;
};
/** Test hook only: the refresh token a session held when a new sign-in replaced it. */
const earlierRefreshTokens = new Map();

// The service's links: sign in and come back to /account; sign out and come back home.
const serviceLink = (path, params) => `${config.signonUrl}${path}?${new URLSearchParams(params)}`;
const signInUrl = serviceLink('/signin', { b: config.brand, r: `${config.siteUrl}/account` });
const signOutUrl = serviceLink('/logout/collectorsid', {
  b: config.brand,
  r: `${config.siteUrl}/`,
});

const routes = {
  'GET /': home,
  'GET /auth/signin-callback': signinCallback,
  'GET /account': account,
  'POST /refresh': refresh,
  'GET /signout': signOut,
  'POST /app/redeem': appRedeem,
  'POST /backchannel-logout': backchannelLogout,
  'GET /healthz': (_req, res) => send(res, 200, 'text/plain', 'ok'),
  ...(config.testHooks ? { 'GET /__state': state } : {}),
};

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', SITE_ORIGIN);
  const testRefresh = /^\/__test\/sessions\/([\w-]+)\/refresh$/.exec(url.pathname);
  const handler =
    config.testHooks && testRefresh && req.method === 'POST'
      ? (rq, rs) => testRefreshSession(rq, rs, testRefresh[1])
      : routes[`${req.method} ${url.pathname}`];
  if (!handler) return send(res, 404, 'text/plain', 'not found');
  Promise.resolve(handler(req, res, url)).catch((error) => {
    console.error(`brand-site: ${req.method} ${url.pathname} failed: ${error?.message ?? error}`);
    if (!res.headersSent) send(res, 500, 'text/plain', 'something went wrong');
  });
});
server.listen(config.port, config.host, () => {
  console.log(`brand site ${config.brand} listening on ${config.siteUrl}`);
});
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    server.close();
    server.closeAllConnections();
  });

// ---------------------------------------------------------------------------------------------
// The pages.

function home(req, res) {
  const session = currentSession(req);
  send(res, 200, 'text/html', homePage({ brand: config.brand, signInUrl, session }));
}

function account(req, res) {
  const session = currentSession(req);
  if (!session) return redirect(res, '/');
  send(res, 200, 'text/html', accountPage({ brand: config.brand, session }));
}

/**
 * Sign-out: this site's own session first, then the service's sign-out link, which ends the
 * collector's session there (and at the IdP) and comes back to this site's home page. Sign-outs that
 * start elsewhere reach this site as logout tokens (POST /backchannel-logout).
 */
function signOut(req, res) {
  const session = currentSession(req);
  if (session) sessions.end(session, 'signed-out');
  res.setHeader('Set-Cookie', `${COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
  // The service signs out at once only when it can tell the sign-out is this brand's: the redirected
  // navigation must carry this site's origin as its Referer (docs/brand-contract.md §7). This site's
  // pages send none to other origins (same-origin), so this redirect says which to send.
  redirect(res, signOutUrl, { 'referrer-policy': 'origin' });
}

/**
 * The tokenURL (BRAND_URLS[brand].tokenURL at the service). The service appends `si` and either `t`
 * and `rt`, or a one-time `code` (`"handoff": "handoff-code"`), and `r`, the return URL this site
 * gave /signin. The tokens arrive in the URL: the answer is a redirect that takes them out of the
 * address bar and sends no Referer.
 */
async function signinCallback(req, res, url) {
  const query = url.searchParams;
  const code = query.get('code');
  let tokens = { accessToken: query.get('t'), refreshToken: query.get('rt') ?? undefined };
  let si = query.get('si') ?? undefined;
  if (code) {
    const redeemed = await oauth.redeem(config.client, code);
    remember(received.redemptions, {
      at: new Date().toISOString(),
      via: 'handoff-code',
      ...outcome(redeemed),
    });
    if (!redeemed.ok) return refuse(res, `the handoff code was refused: ${redeemed.error}`);
    tokens = redeemed.tokens;
    si = si ?? redeemed.tokens.sessionId;
  }
  let verified;
  try {
    verified = await accessTokens.verify(tokens.accessToken, config.client.clientId);
  } catch (error) {
    return refuse(res, `the access token did not verify: ${error.message}`);
  }
  // A new sign-in in this browser replaces the session it had here. (The service has already
  // revoked the refresh token this brand received before in this browser.)
  const previous = currentSession(req);
  if (previous) {
    if (config.testHooks && previous.refreshToken)
      earlierRefreshTokens.set(previous.id, previous.refreshToken);
    sessions.end(previous, 'signed-in-again');
  }
  const session = sessions.create({
    clientId: config.client.clientId,
    via: code ? 'handoff-code' : 'tokens-in-url',
    claims: verified.claims,
    verifiedBy: verified.verifiedBy,
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    si,
  });
  res.setHeader('Set-Cookie', sessionCookie(session.id));
  redirect(res, returnUrl(query.get('r')), { 'referrer-policy': 'no-referrer' });
}

/** grant_type=refresh_token with this brand's client; a form post from this site's own pages. */
async function refresh(req, res) {
  if (!isSameOrigin(req)) return send(res, 403, 'text/plain', 'cross-origin request refused');
  const session = currentSession(req);
  if (!session) return redirect(res, '/');
  await refreshSession(session);
  redirect(res, session.endedAt ? '/' : '/account');
}

/** Refreshes one session's tokens; records and returns the outcome. */
async function refreshSession(session) {
  if (!session.refreshToken) {
    session.refreshes.push({
      at: new Date().toISOString(),
      status: undefined,
      error: 'no refresh token',
    });
    return session.refreshes.at(-1);
  }
  const answer = await oauth.refresh(credentialsOf(session), session.refreshToken);
  let entry;
  if (answer.ok) {
    try {
      const { claims } = await accessTokens.verify(answer.tokens.accessToken, session.clientId);
      entry = { status: 200, accessTokenJti: claims.jti, previousJti: session.accessTokenJti };
      Object.assign(session, {
        accessToken: answer.tokens.accessToken,
        refreshToken: answer.tokens.refreshToken,
        accessTokenJti: claims.jti,
        accessTokenExp: claims.exp,
        collectorsId: claims.collectorsId ?? session.collectorsId,
      });
    } catch (error) {
      entry = { status: 200, error: `the new access token did not verify: ${error.message}` };
    }
  } else {
    entry = { status: answer.status, error: answer.error };
    // The grant is gone (revoked, expired, or signed out): so is this session.
    if (answer.error === 'invalid_grant') sessions.end(session, 'refresh-refused');
  }
  session.refreshes.push({ at: new Date().toISOString(), ...entry });
  return entry;
}

/**
 * What the brand's mobile app back end does with the app's one-time code (the app received
 * `<scheme>://auth/callback?code=…`): an ordinary authorization_code grant at the service's token
 * endpoint, with the app's own client. Answers JSON: who signed in, and this back end's session.
 */
async function appRedeem(req, res) {
  if (!config.app) return sendJson(res, 404, { error: 'no app client configured' });
  const body = await readBody(req);
  if (body === undefined) return sendJson(res, 413, { error: 'request body too large' });
  const code = paramsOf(req, body).get('code');
  if (!code)
    return sendJson(res, 400, { error: 'invalid_request', error_description: 'code is required' });
  const redeemed = await oauth.redeem(config.app, code);
  remember(received.redemptions, {
    at: new Date().toISOString(),
    via: 'app',
    ...outcome(redeemed),
  });
  if (!redeemed.ok) return sendJson(res, 400, { error: redeemed.error });
  let verified;
  try {
    verified = await accessTokens.verify(redeemed.tokens.accessToken, config.app.clientId);
  } catch (error) {
    return sendJson(res, 400, { error: `the access token did not verify: ${error.message}` });
  }
  const session = sessions.create({
    clientId: config.app.clientId,
    via: 'app',
    claims: verified.claims,
    verifiedBy: verified.verifiedBy,
    accessToken: redeemed.tokens.accessToken,
    refreshToken: redeemed.tokens.refreshToken,
    si: redeemed.tokens.sessionId,
  });
  sendJson(res, 200, {
    app_session: session.id,
    uid: session.uid,
    sub: session.sub,
    CollectorsId: session.collectorsId,
    verified_by: session.verifiedBy,
  });
}

/**
 * OpenID Connect Back-Channel Logout 1.0 §2.5-§2.8: a form post with `logout_token`. A valid token
 * ends this site's sessions it names; the answer is 200, or 400 with the reason.
 */
async function backchannelLogout(req, res) {
  const body = await readBody(req);
  if (body === undefined) return sendJson(res, 413, { error: 'invalid_request' });
  const isForm = /^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '');
  const token = isForm ? new URLSearchParams(body).get('logout_token') : null;
  // For the test hook, once the outcome is known: the token as sent, and what became of it.
  const seen = (outcome) =>
    remember(received.logoutTokens, {
      receivedAt: new Date().toISOString(),
      ...decoded(token),
      ...outcome,
    });
  if (!token) {
    const error = 'no logout_token in a form body';
    seen({ ok: false, error });
    return sendJson(res, 400, { error: 'invalid_request', error_description: error });
  }
  try {
    const claims = await verifyLogoutToken(token);
    const named = sessions.named(claims);
    for (const session of named) sessions.end(session, 'back-channel-logout');
    seen({ ok: true, endedSessions: named.length });
    console.log(`brand-site: back-channel logout ended ${named.length} session(s)`);
    sendJson(res, 200, {});
  } catch (error) {
    seen({ ok: false, error: error.message });
    if (error instanceof LogoutTokenRefused)
      return sendJson(res, 400, { error: 'invalid_request', error_description: error.message });
    // Not the token's fault (the service's keys could not be read): the service retries a 5xx.
    console.error(`brand-site: back-channel logout failed: ${error.message}`);
    sendJson(res, 503, { error: 'temporarily_unavailable' });
  }
}

// ---------------------------------------------------------------------------------------------
// The test hooks (BRAND_SITE_TEST=1): what a test asserts without reaching into the process.

function state(_req, res) {
  sendJson(res, 200, {
    brand: config.brand,
    node: process.version,
    clientId: config.client.clientId,
    appClientId: config.app?.clientId,
    sessions: sessions.list(),
    ...received,
  });
}

/**
 * Refreshes a session's refresh token as POST /refresh does; for a session a new sign-in replaced,
 * the refresh token it held then (which the service should have had revoked).
 */
async function testRefreshSession(_req, res, id) {
  const session = sessions.get(id);
  if (!session) return sendJson(res, 404, { error: 'no such session' });
  if (session.endedAt) {
    const earlier = earlierRefreshTokens.get(id);
    if (!earlier) return sendJson(res, 409, { error: 'the session held no refresh token' });
    const answer = await oauth.refresh(credentialsOf(session), earlier);
    return sendJson(
      res,
      200,
      answer.ok ? { status: 200 } : { status: answer.status, error: answer.error },
    );
  }
  sendJson(res, 200, await refreshSession(session));
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers.

/** The credentials of the client a session's tokens were issued to: this brand's, or its app's. */
function credentialsOf(session) {
  return session.clientId === config.app?.clientId ? config.app : config.client;
}

function currentSession(req) {
  const cookie = (req.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([name]) => name === COOKIE);
  return sessions.live(cookie?.[1]);
}

function sessionCookie(id) {
  const secure = SITE_ORIGIN.startsWith('https:') ? '; Secure' : '';
  return `${COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax; Max-Age=86400${secure}`;
}

/**
 * A state-changing request from this site's own pages (CSRF): its Origin, or where a browser sends
 * none, its Fetch Metadata. The session cookie is SameSite=Lax as well.
 */
function isSameOrigin(req) {
  const origin = req.headers.origin;
  if (origin && origin !== 'null') return origin === SITE_ORIGIN;
  return req.headers['sec-fetch-site'] === 'same-origin';
}

/** `r` only when it is on this site (an open redirect otherwise); /account by default. */
function returnUrl(r) {
  if (!r) return '/account';
  try {
    const url = new URL(r);
    return url.origin === SITE_ORIGIN ? url.href : '/account';
  } catch {
    return '/account';
  }
}

/** The callback's refusal: a page on a URL that may hold tokens, so it sends no Referer. */
function refuse(res, message) {
  const page = problemPage('The sign-in could not be completed', message);
  send(res, 400, 'text/html', page, { 'referrer-policy': 'no-referrer' });
}

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  // Same-origin requests keep their Referer and Origin (the refresh form's CSRF check reads it);
  // other sites get neither. The sign-in callback sends none at all (it carried tokens).
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

function send(res, status, type, body, headers = {}) {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    ...headers,
    'content-type': `${type}; charset=utf-8`,
  });
  res.end(body);
}

function sendJson(res, status, value) {
  send(res, status, 'application/json', JSON.stringify(value));
}

function redirect(res, location, headers = {}) {
  res.writeHead(303, { ...SECURITY_HEADERS, ...headers, location });
  res.end();
}

/** The request body as text, or undefined past MAX_BODY_BYTES. */
async function readBody(req) {
  let size = 0;
  const chunks = [];
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A form or JSON body's parameters. */
function paramsOf(req, body) {
  if (/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    try {
      const value = JSON.parse(body);
      return new URLSearchParams(Object.entries(value).filter(([, v]) => typeof v === 'string'));
    } catch {
      return new URLSearchParams();
    }
  }
  return new URLSearchParams(body);
}

/** A redemption's outcome, for the test hook (never the tokens). */
function outcome(answer) {
  return answer.ok ? { ok: true } : { ok: false, status: answer.status, error: answer.error };
}

/** A logout token's header and claims as sent, for the test hook: decoded, not trusted. */
function decoded(token) {
  if (!token) return {};
  try {
    return { header: decodeProtectedHeader(token), claims: decodeJwt(token) };
  } catch {
    return {};
  }
}
