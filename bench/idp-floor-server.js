// The embedded IdP's protocol floor for `npm run bench:journeys` (issue 35 item 4): oidc-provider
// alone, doing the protocol work of an embedded sign-in in Okta's shape and nothing else. Two
// confidential clients (this service's and a brand's, client_secret_basic), RS256 ID tokens and RS256
// JWT access tokens for one API audience with Okta's `cid` and `scp` claims, rotating refresh tokens
// (offline_access, kept by prompt=consent as src/idp does), one grant per authorization, its
// artefacts kept in SQLite (WAL, one commit per write) so that they would survive a restart as the
// service's do. What it leaves out is the service's own: the sign-in pages, the password check, the
// account and factor tables, the request pipeline (ids, metrics, logs, security headers, limits).
// The login interaction answers at once with an account. Consent is granted as src/idp grants it
// (src/idp/provider/first-party-consent.ts): no interaction for it, each authorization's grant made
// with every scope when the authorization resumes.
//
// With FLOOR_PASSWORD_HASHER (the built src/idp/accounts/password-hasher.js), the login also checks a
// password with the product's own scrypt at its production parameters, in libuv's pool, while the
// other sign-ins' protocol work runs beside it, as it does in the service: the least an embedded
// password sign-in can cost on this machine, whatever its pages and pipeline cost.
//
// Started by bench/journeys.js with PORT and FLOOR_DB; sends 'ready' over IPC once it listens.
'use strict';
const http = require('node:http');
const { generateKeyPairSync, randomBytes } = require('node:crypto');
const Database = require(process.env.BENCH_SQLITE_MODULE ?? 'better-sqlite3');

const PORT = Number(process.env.PORT);
const ISSUER = `http://127.0.0.1:${PORT}`;
const AUDIENCE = 'api://default';
const RESOURCE_SCOPES = 'collectors:read';
const OIDC_SCOPES = 'openid profile email offline_access';
/** Where the clients' codes go: nothing listens there, the driver reads the code off the redirect. */
const REDIRECT_URI = 'http://127.0.0.1:9/cb';
const CLIENTS = ['service', 'brand'].map((id) => ({
  client_id: id,
  client_secret: `${id}-secret-${'0'.repeat(32)}`,
  redirect_uris: [REDIRECT_URI],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'client_secret_basic',
}));

/** oidc-provider's storage contract on one SQLite table (the service's: src/idp/provider). */
function sqliteAdapter(db) {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE IF NOT EXISTS artefacts (model TEXT, id TEXT, payload TEXT, uid TEXT, ' +
      'grant_id TEXT, expires_at INTEGER, PRIMARY KEY (model, id))',
  );
  db.exec('CREATE INDEX IF NOT EXISTS by_uid ON artefacts (model, uid)');
  db.exec('CREATE INDEX IF NOT EXISTS by_grant ON artefacts (grant_id)');
  const q = {
    upsert: db.prepare('INSERT OR REPLACE INTO artefacts VALUES (?, ?, ?, ?, ?, ?)'),
    find: db.prepare('SELECT payload FROM artefacts WHERE model = ? AND id = ? AND expires_at > ?'),
    byUid: db.prepare(
      'SELECT payload FROM artefacts WHERE model = ? AND uid = ? AND expires_at > ?',
    ),
    consume: db.prepare(
      "UPDATE artefacts SET payload = json_set(payload, '$.consumed', ?) WHERE model = ? AND id = ?",
    ),
    destroy: db.prepare('DELETE FROM artefacts WHERE model = ? AND id = ?'),
    revoke: db.prepare('DELETE FROM artefacts WHERE grant_id = ?'),
  };
  const parsed = (row) => (row ? JSON.parse(row.payload) : undefined);
  return class SqliteAdapter {
    constructor(model) {
      this.model = model;
    }
    async upsert(id, payload, expiresIn) {
      const expiresAt = Date.now() + (expiresIn ?? 86_400) * 1000;
      const { uid = null, grantId = null } = payload;
      q.upsert.run(this.model, id, JSON.stringify(payload), uid, grantId, expiresAt);
    }
    async find(id) {
      return parsed(q.find.get(this.model, id, Date.now()));
    }
    async findByUid(uid) {
      return parsed(q.byUid.get(this.model, uid, Date.now()));
    }
    async findByUserCode() {
      return undefined;
    }
    async consume(id) {
      q.consume.run(Math.floor(Date.now() / 1000), this.model, id);
    }
    async destroy(id) {
      q.destroy.run(this.model, id);
    }
    async revokeByGrantId(grantId) {
      q.revoke.run(grantId);
    }
  };
}

function signingKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: 'floor', alg: 'RS256', use: 'sig' };
}

async function grantEverything(provider, accountId, clientId) {
  const grant = new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(OIDC_SCOPES);
  grant.addResourceScope(AUDIENCE, RESOURCE_SCOPES);
  await grant.save();
  return grant;
}

/** The password check of the login, when asked for: the product's hasher and one stored hash. */
async function passwordCheck() {
  if (!process.env.FLOOR_PASSWORD_HASHER) return undefined;
  const hasher = require(process.env.FLOOR_PASSWORD_HASHER);
  const password = randomBytes(12).toString('base64url');
  const encoded = await hasher.hashPassword(password);
  return async () => {
    if (!(await hasher.verifyPassword(password, encoded)))
      throw new Error('the password check failed');
  };
}

async function main() {
  const { default: Provider, interactionPolicy } = await import('oidc-provider');
  const checkPassword = await passwordCheck();
  // A requested consent is not an interaction of its own (see the top of this file).
  const policy = interactionPolicy.base();
  policy.get('consent').checks.remove('consent_prompt');
  const provider = new Provider(ISSUER, {
    adapter: sqliteAdapter(new Database(process.env.FLOOR_DB)),
    clients: CLIENTS,
    jwks: { keys: [signingKey()] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({
        sub,
        email: `${sub}@example.com`,
        email_verified: true,
        name: 'Floor Collector',
        locale: 'en-US',
      }),
    }),
    scopes: OIDC_SCOPES.split(' '),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'locale'] },
    conformIdTokenClaims: false,
    rotateRefreshToken: true,
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      Grant: 86_400,
      IdToken: 3600,
      Interaction: 600,
      RefreshToken: 30 * 86_400,
      Session: 86_400,
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}`, policy },
    loadExistingGrant: async (ctx) => {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      return grantEverything(ctx.oidc.provider, session.accountId, client.clientId);
    },
    extraTokenClaims: async (_ctx, token) =>
      token.kind === 'AccessToken'
        ? { cid: token.clientId, scp: [...OIDC_SCOPES.split(' '), RESOURCE_SCOPES] }
        : undefined,
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => AUDIENCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: RESOURCE_SCOPES,
          audience: AUDIENCE,
          accessTokenTTL: 3600,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
  });
  const answer = provider.callback();
  const server = http.createServer(async (req, res) => {
    if (!req.url.startsWith('/interaction/')) return answer(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name !== 'login')
        throw new Error(`an interaction for ${details.prompt.name}`);
      await checkPassword?.();
      const result = { login: { accountId: `collector-${randomBytes(4).toString('hex')}` } };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  });
  server.listen(PORT, '127.0.0.1', () => process.send?.('ready'));
}

if (require.main === module)
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });

module.exports = { CLIENTS, REDIRECT_URI, OIDC_SCOPES };
