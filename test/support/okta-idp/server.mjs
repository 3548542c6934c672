// An OpenID Connect server that issues tokens the way Okta's default authorization server does, for
// the tests (and benches) that prove this service against an IdP it did not write (issue 31 item 2).
// It shares no code with src/idp/: it is oidc-provider configured here, on its own, in a process of
// its own, and nothing of the product is imported.
//
// Okta's shapes it copies (Okta's "Validate access tokens" and "Tokens and claims" pages):
// - access tokens: header {kid, alg} only (no `typ`); claims ver, jti, iss, aud (api://default),
//   iat, exp, cid, uid, scp (a list), auth_time, sub (the login email) and the org's custom claims;
// - ID tokens: sub is the user id (uid), aud the client id, with nonce, at_hash and auth_time;
// - no RFC 9207 `iss` on the authorization response, and none announced in discovery;
// - Okta's paths: /oauth2/default/v1/{authorize,token,keys,userinfo,logout,revoke,introspect};
// - offline_access granted to a first-party app without a consent screen; refresh tokens rotate;
// - userinfo answers its JWT access tokens (oidc-provider alone refuses a token with an audience).
// - each app authenticates with its one registered method, and /v1/logout needs id_token_hint
//   (okta-rules.mjs).
//
// Configuration comes as JSON in OKTA_IDP_CONFIG (see test/support/okta-idp.ts); it prints one line
// `listening <port>` when ready. Faults are switched by IPC messages {fault: 'none'|'down'|'503'|
// 'hang'|'429'}, answered {fault} once in effect: 'down' stops listening (connections are refused),
// '503' answers every request with 503, 'hang' never answers, '429' answers as Okta's rate limit
// does (see okta429 below). {report: 'requests'} answers every request so far, faulted ones too.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import Provider from 'oidc-provider';
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import {
  endpointAudienceOnly,
  logoutNeedsIdTokenHint,
  registeredMethodOnly,
} from './okta-rules.mjs';

const config = JSON.parse(process.env.OKTA_IDP_CONFIG ?? '{}');
const MOUNT = '/oauth2/default';
const AUDIENCE = config.audience ?? 'api://default';
const port = Number(config.port);
const scheme = config.tls ? 'https' : 'http';
const issuer = `${scheme}://localhost:${port}${MOUNT}`;

/** @type {Map<string, any>} users by uid */
const users = new Map(config.users.map((u) => [u.uid, u]));
const usersByEmail = new Map(config.users.map((u) => [u.email.toLowerCase(), u]));

/** The custom claims of the org's `customer` scope, and the token each goes in for this user. */
function customClaims(user) {
  return {
    CollectorsId: user.collectorsId,
    ...(user.flags ?? {}),
  };
}

const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const signingKey = {
  ...(await exportJWK(privateKey)),
  kid: crypto.randomUUID(),
  alg: 'RS256',
  use: 'sig',
};
const publicJwk = Object.fromEntries(
  Object.entries(signingKey).filter(([k]) => !['d', 'p', 'q', 'dp', 'dq', 'qi'].includes(k)),
);
const verifyKeys = createLocalJWKSet({ keys: [publicJwk] });

/** An in-memory adapter (this IdP keeps nothing on disk; each test starts its own). */
const stores = new Map();
class MemoryAdapter {
  constructor(name) {
    this.name = name;
    if (!stores.has(name)) stores.set(name, new Map());
    this.items = stores.get(name);
  }
  key(id) {
    return id;
  }
  async upsert(id, payload, expiresIn) {
    this.items.set(id, {
      payload,
      expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined,
    });
    if (payload.grantId) {
      const grants = stores.get('__grants') ?? new Map();
      stores.set('__grants', grants);
      const list = grants.get(payload.grantId) ?? [];
      list.push([this.name, id]);
      grants.set(payload.grantId, list);
    }
    if (payload.userCode) this.userCodes?.set(payload.userCode, id);
    if (payload.uid) {
      const uids = stores.get('__uids') ?? new Map();
      stores.set('__uids', uids);
      uids.set(`${this.name}:${payload.uid}`, id);
    }
  }
  async find(id) {
    const item = this.items.get(id);
    if (!item) return undefined;
    if (item.expiresAt !== undefined && item.expiresAt < Date.now()) return undefined;
    return item.payload;
  }
  async findByUid(uid) {
    const id = stores.get('__uids')?.get(`${this.name}:${uid}`);
    return id ? this.find(id) : undefined;
  }
  async findByUserCode() {
    return undefined;
  }
  async consume(id) {
    const item = this.items.get(id);
    if (item) item.payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id) {
    this.items.delete(id);
  }
  async revokeByGrantId(grantId) {
    for (const [name, id] of stores.get('__grants')?.get(grantId) ?? [])
      stores.get(name)?.delete(id);
  }
}

/** An account as oidc-provider's findAccount returns it. */
async function accountOf(sub) {
  const user = users.get(sub);
  if (!user) return undefined;
  return {
    accountId: user.uid,
    async claims(use) {
      const base = {
        sub: user.uid,
        name: user.name,
        preferred_username: user.email,
        email: user.email,
        email_verified: true,
        locale: 'en-US',
      };
      const inThisOne =
        (use === 'id_token' && user.claimsIn === 'idToken') ||
        (use === 'userinfo' && (user.claimsIn === 'idToken' || user.claimsIn === 'userinfo'));
      return inThisOne ? { ...base, ...customClaims(user) } : base;
    },
  };
}

const SCOPES = ['openid', 'profile', 'email', 'customer', 'offline_access'];
const RESOURCE_SCOPES = 'customer profile email';

// Each app with exactly one client authentication method, Okta's default unless it names another;
// a private_key_jwt app holds the public keys it was given, and no secret.
const authMethodOf = (c) => c.tokenEndpointAuthMethod ?? 'client_secret_basic';
/** What each client authenticated with at the token, revocation and introspection endpoints. */
const clientAuthentications = [];
const provider = new Provider(issuer, {
  adapter: MemoryAdapter,
  clients: config.clients.map((c) => ({
    client_id: c.clientId,
    ...(authMethodOf(c) === 'private_key_jwt'
      ? { jwks: c.jwks }
      : { client_secret: c.clientSecret }),
    redirect_uris: c.redirectUris,
    post_logout_redirect_uris: c.postLogoutRedirectUris ?? [],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: authMethodOf(c),
  })),
  clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
  assertJwtClientAuthClaimsAndHeader: endpointAudienceOnly(issuer),
  jwks: { keys: [signingKey] },
  routes: {
    authorization: '/v1/authorize',
    token: '/v1/token',
    jwks: '/v1/keys',
    userinfo: '/v1/userinfo',
    end_session: '/v1/logout',
    revocation: '/v1/revoke',
    introspection: '/v1/introspect',
  },
  scopes: SCOPES,
  claims: {
    openid: ['sub'],
    profile: ['name', 'preferred_username', 'locale'],
    email: ['email', 'email_verified'],
    customer: ['CollectorsId', 'isMigrating', 'setupMfa', 'showSurvey', 'promptMfaSignin'],
  },
  conformIdTokenClaims: false,
  rotateRefreshToken: true,
  pkce: { required: () => false },
  ttl: {
    AccessToken: config.accessTokenTtlSeconds ?? 3600,
    IdToken: 3600,
    AuthorizationCode: 60,
    RefreshToken: 86_400,
    Interaction: 600,
    Session: 86_400,
    Grant: 86_400,
  },
  cookies: { keys: [crypto.randomBytes(32).toString('base64url')] },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  // Each user's custom claims go in the token its row names, as an Okta org's claim settings put
  // them: 'idToken' (ID token and userinfo), 'accessToken' (access token only) or 'userinfo'.
  findAccount: (_ctx, sub) => accountOf(sub),
  async extraTokenClaims(_ctx, token) {
    if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
    const user = users.get(token.accountId);
    if (!user) return undefined;
    if (user.claimsIn === 'accessToken') return customClaims(user);
    // The usual org: the collector number in both tokens, the flags in the ID token.
    if (user.claimsIn === 'idToken') return { CollectorsId: user.collectorsId };
    return undefined;
  },
  formats: {
    customizers: {
      // Okta's access-token shape: no `typ` in the header; sub is the login, uid the user id.
      async jwt(_ctx, token, jwt) {
        const user = users.get(token.accountId);
        jwt.header = { typ: undefined };
        const { client_id: clientId, scope, ...rest } = jwt.payload;
        jwt.payload = {
          ver: 1,
          ...rest,
          jti: rest.jti,
          cid: clientId,
          uid: token.accountId,
          scp: (scope ?? '').split(' ').filter(Boolean),
          auth_time: Math.floor(Date.now() / 1000),
          sub: user?.email ?? token.accountId,
        };
      },
    },
  },
  features: {
    devInteractions: { enabled: false },
    revocation: { enabled: true },
    introspection: { enabled: true },
    userinfo: { enabled: true },
    rpInitiatedLogout: {
      enabled: true,
      // Okta signs out on the GET itself; oidc-provider asks to confirm. The form submits itself
      // in a browser; test/support/okta-idp.ts submits it for the cookie-jar browser.
      logoutSource(ctx, form) {
        const yes = '<input type="hidden" name="logout" value="yes" form="op.logoutForm">';
        ctx.body = `<!doctype html><title>Signing out</title>${form}${yes}<script>document.forms[0].submit()</script>`;
      },
    },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => AUDIENCE,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, resource) => {
        if (resource !== AUDIENCE) throw new Error('unknown resource');
        return {
          scope: RESOURCE_SCOPES,
          audience: AUDIENCE,
          accessTokenTTL: config.accessTokenTtlSeconds ?? 3600,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  },
  extraParams: ['x_silent'],
  // Okta asks no consent of a first-party app: what it asked for is granted.
  async loadExistingGrant(ctx) {
    const { client, session } = ctx.oidc;
    if (!client || !session?.accountId) return undefined;
    const grant = new ctx.oidc.provider.Grant({
      clientId: client.clientId,
      accountId: session.accountId,
    });
    grant.addOIDCScope(SCOPES.join(' '));
    grant.addResourceScope(AUDIENCE, RESOURCE_SCOPES);
    await grant.save();
    return grant;
  },
  enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
});

provider.use(
  registeredMethodOnly(
    new Map(config.clients.map((c) => [c.clientId, authMethodOf(c)])),
    clientAuthentications,
  ),
);
provider.use(logoutNeedsIdTokenHint());

provider.use(async (ctx, next) => {
  // Where the provider is mounted, for the URLs it builds (rewriting the query below changes the
  // request URL, from which oidc-provider would otherwise work the mount out).
  ctx.mountPath = MOUNT;
  // Okta grants offline_access to its own apps without prompt=consent, which oidc-provider requires
  // (OIDC Core §11); prompt=none cannot carry consent, so it travels as x_silent.
  if (ctx.path === '/v1/authorize' && ctx.method === 'GET') {
    const query = { ...ctx.query };
    const scopes = String(query.scope ?? '').split(' ');
    if (scopes.includes('offline_access')) {
      const prompts = new Set(
        String(query.prompt ?? '')
          .split(' ')
          .filter(Boolean),
      );
      if (prompts.delete('none')) query.x_silent = '1';
      prompts.add('consent');
      query.prompt = [...prompts].join(' ');
      ctx.query = query;
    }
  }
  // Okta's userinfo takes its JWT access tokens.
  if (ctx.path === '/v1/userinfo') {
    const match = /^Bearer (\S+)$/i.exec(ctx.get('authorization'));
    if (match) {
      try {
        const { payload } = await jwtVerify(match[1], verifyKeys, { issuer, audience: AUDIENCE });
        const user = users.get(payload.uid);
        if (!user) throw new Error('no such user');
        const account = await accountOf(user.uid);
        ctx.body = await account.claims('userinfo', payload.scp.join(' '), {}, []);
      } catch (error) {
        process.stderr.write(`okta-idp userinfo: ${error}\n`);
        ctx.status = 401;
        ctx.set('WWW-Authenticate', 'Bearer error="invalid_token"');
        ctx.body = { error: 'invalid_token' };
      }
      return;
    }
  }
  await next();
  // What the token endpoint was asked (for the tests: §7's refresh scope).
  if (ctx.path === '/v1/token' && ctx.oidc?.params) {
    tokenRequests.push({
      grant_type: ctx.oidc.params.grant_type,
      scope: ctx.oidc.params.scope,
      client_id: ctx.oidc.client?.clientId,
      status: ctx.status,
    });
  }
  // No RFC 9207 `iss` on the authorization response, as Okta sends none.
  const location = ctx.response.get('location');
  if (location && ctx.status >= 300 && ctx.status < 400) {
    const url = new URL(location, issuer);
    if (url.searchParams.has('iss') && url.searchParams.has('state')) {
      url.searchParams.delete('iss');
      ctx.set('location', url.href);
    }
  }
  if (
    ctx.path === '/.well-known/openid-configuration' &&
    ctx.body &&
    typeof ctx.body === 'object'
  ) {
    delete ctx.body.authorization_response_iss_parameter_supported;
  }
});

/** The sign-in page: email and password, as Okta's hosted widget asks them. */
function loginPage(uid, error) {
  return `<!doctype html><html><head><title>Okta sign-in</title></head><body>
<form method="post" action="/interaction/${uid}">
${error ? `<p role="alert">${error}</p>` : ''}
<label>Email <input name="username" type="email"></label>
<label>Password <input name="password" type="password"></label>
<button type="submit">Sign in</button>
</form></body></html>`;
}

async function readForm(req) {
  let body = '';
  for await (const chunk of req) body += chunk;
  return Object.fromEntries(new URLSearchParams(body));
}

async function interaction(req, res, uid) {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) throw new Error('interaction mismatch');
  const { prompt, params, session } = details;
  if (prompt.name === 'login') {
    if (params.x_silent) {
      return provider.interactionFinished(req, res, {
        error: 'login_required',
        error_description: 'the user is not signed in',
      });
    }
    if (req.method === 'GET') {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
      });
      return res.end(loginPage(uid));
    }
    const form = await readForm(req);
    const user = usersByEmail.get(String(form.username ?? '').toLowerCase());
    if (!user || form.password !== user.password) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(loginPage(uid, 'Unable to sign in'));
    }
    return provider.interactionFinished(
      req,
      res,
      { login: { accountId: user.uid } },
      {
        mergeWithLastSubmission: false,
      },
    );
  }
  // consent: granted without a screen (see loadExistingGrant), for the signed-in account.
  const grant = new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  grant.addOIDCScope(SCOPES.join(' '));
  grant.addResourceScope(AUDIENCE, RESOURCE_SCOPES);
  const grantId = await grant.save();
  return provider.interactionFinished(
    req,
    res,
    { consent: { grantId } },
    { mergeWithLastSubmission: true },
  );
}

/** The token endpoint's requests, in order. */
const tokenRequests = [];
/** Every request's method, path and answer status, in order (faulted ones too). */
const requests = [];
let fault = 'none';
/** The path a fault is limited to (e.g. /oauth2/default/v1/userinfo), or every path. */
let faultPath;
/** A '429' fault's window: how long it lasts, and when the current one ends (epoch seconds). */
let rateLimitWindowSeconds = 3;
let rateLimitResetAt = 0;
const callback = provider.callback();

/**
 * Okta's answer to a request over its rate limit ("Rate limits" in Okta's developer docs): 429, the
 * bucket's limit, nothing remaining, the window's end in epoch seconds, and error E0000047 as JSON.
 * A request after the window's end opens a new window (the fault is still on).
 */
function okta429(res) {
  const now = Math.floor(Date.now() / 1000);
  if (rateLimitResetAt <= now) rateLimitResetAt = now + rateLimitWindowSeconds;
  res.writeHead(429, {
    'content-type': 'application/json',
    'x-rate-limit-limit': '600',
    'x-rate-limit-remaining': '0',
    'x-rate-limit-reset': String(rateLimitResetAt),
  });
  res.end(
    JSON.stringify({
      errorCode: 'E0000047',
      errorSummary: 'API call exceeded rate limit due to too many requests.',
      errorLink: 'E0000047',
      errorId: `oae${crypto.randomBytes(11).toString('base64url')}`,
      errorCauses: [],
    }),
  );
}

async function handle(req, res) {
  const path = new URL(req.url, issuer).pathname;
  res.on('finish', () => requests.push({ method: req.method, path, status: res.statusCode }));
  const faulty = !faultPath || path === faultPath;
  if (faulty && fault === 'hang') return; // never answers
  if (faulty && fault === '503') {
    res.writeHead(503, { 'content-type': 'text/html' });
    return res.end('<h1>Service Unavailable</h1>');
  }
  if (faulty && fault === '429') return okta429(res);
  try {
    const url = new URL(req.url, issuer);
    const step = /^\/interaction\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (step) return await interaction(req, res, step[1]);
    if (url.pathname === MOUNT || url.pathname.startsWith(`${MOUNT}/`)) {
      req.originalUrl = req.url;
      req.url = req.url.slice(MOUNT.length) || '/';
      return callback(req, res);
    }
    res.writeHead(404).end();
  } catch (error) {
    process.stderr.write(`okta-idp: ${error?.stack ?? error}\n`);
    if (!res.headersSent) res.writeHead(500).end();
  }
}

const server = config.tls
  ? https.createServer(
      { key: fs.readFileSync(config.tls.key), cert: fs.readFileSync(config.tls.cert) },
      (req, res) => void handle(req, res),
    )
  : http.createServer((req, res) => void handle(req, res));
const sockets = new Set();
server.on('connection', (socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});

function listen() {
  return new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
}

process.on('message', async (message) => {
  if (message?.report === 'token-requests') {
    process.send?.({ tokenRequests });
    return;
  }
  if (message?.report === 'requests') {
    process.send?.({ requests });
    return;
  }
  if (message?.report === 'client-authentications') {
    process.send?.({ clientAuthentications });
    return;
  }
  const next = message?.fault;
  if (!['none', 'down', '503', 'hang', '429'].includes(next)) return;
  if (next === '429') {
    rateLimitWindowSeconds = message.resetSeconds ?? 3;
    rateLimitResetAt = 0;
  }
  if (next === 'down' && fault !== 'down') {
    await new Promise((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  } else if (fault === 'down' && next !== 'down') {
    await listen();
  }
  if (next === 'hang' || next === '503') for (const socket of sockets) socket.destroy();
  fault = next;
  faultPath = message.path;
  process.send?.({ fault });
});
process.on('disconnect', () => process.exit(0));

await listen();
process.stdout.write(`listening ${port}\n`);
