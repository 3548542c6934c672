// The platform floor of each benchmarked scenario: a bare NestJS 11 + platform-express app, built like
// the hello reference, whose handlers do only the work the issues require of that scenario, written
// by hand with nothing else around it (no metrics, no trace context, no Nest middleware, no input or
// cookie validation, no error pages, no abstractions). What the product does on top of this is what
// docs/design.md and the issues ask for; so a ratio this server cannot reach, the product cannot either.
//
// Every scenario reads the session as the issues now require it: the record under the HMAC of the
// cookie's id, its tokens sealed with AES-256-GCM (issue 15 item 9) and opened, and the browser
// binding (an HttpOnly cookie) checked against the record's hash (issue 14 item 4).
//
//   GET /signin      issue 4 item 13: security headers; two rate-limit counts (kept in memory and
//                    flushed to SQLite once a second, as the product does); the session read; the
//                    access and ID token payloads read; the return URL's origin checked; §4 step 5's
//                    fresh session written (its tokens sealed, indexed by collector and IdP session)
//                    and the one the sign-in handed the same brand before dropped (issue 18: one si
//                    per brand and sign-in, or the store grows with every hop); issue 31 item 4's
//                    brand grant: a login state sealed and written, a binding cookie, and a 302 to the
//                    IdP's authorization with PKCE and prompt=none; the sign-in event and the access
//                    line logged.
//   GET /collection  issue 6 item 9, issue 16 item 4: security headers; the session read; the access
//                    token read; the collector's sessions counted (their records read and opened); the
//                    real /collection page (views/, the product's own components and data) rendered
//                    with renderToString inside its document; the access line logged.
//   GET /trpc/...    issue 5 item 6: security headers; @trpc/server's request resolution with
//                    batching (its Node adapter's request and resolveResponse), the complete answer
//                    written in one piece with its length, as the product writes it (before
//                    2026-11-28 both went through the adapter's stream writer); account.status
//                    reading the session once per request and the ID token's payload; the access
//                    line logged.
//
// Environment: PORT; FLOOR_DB (a SQLite file to create); FLOOR_SESSION_ID, FLOOR_BINDING,
// FLOOR_ACCESS_TOKEN, FLOOR_REFRESH_TOKEN, FLOOR_ID_TOKEN (a real signed-in session's values, which
// bench/run.js takes from the product); FLOOR_PAGE_DATA (a file with the /collection page's ShellData,
// as the product serialised it).
'use strict';
require('reflect-metadata');
const { Controller, Get, Module, Req, Res } = require('@nestjs/common');
const { APP_GUARD, NestFactory } = require('@nestjs/core');
const { initTRPC } = require('@trpc/server');
const { incomingMessageToRequest } = require('@trpc/server/adapters/node-http');
const { resolveResponse } = require('@trpc/server/http');
// Under bench/on-node24.js, the build of the native module made for Node 24 (BENCH_SQLITE_MODULE).
const Database = require(process.env.BENCH_SQLITE_MODULE ?? 'better-sqlite3');
const helmet = require('helmet').default;
const { decodeJwt } = require('jose');
const {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  randomBytes,
  randomUUID,
  timingSafeEqual,
} = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const pino = require('pino');
const { createElement } = require('react');

const DIST = path.resolve(__dirname, '../dist');
const { renderPage } = require(path.join(DIST, 'src/render/render-page'));
const { pageCsp } = require(path.join(DIST, 'src/render/csp'));
const { loadClientAssets } = require(path.join(DIST, 'src/render/client-assets'));
const { PageRoot } = require(path.join(DIST, 'views/pages/PageRoot'));
const { scriptSafeJson } = require(path.join(DIST, 'views/Document'));

const env = process.env;
const log = pino(pino.destination({ dest: '/dev/null', sync: true }));
const db = new Database(env.FLOOR_DB);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT NOT NULL, exp INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS members (k TEXT NOT NULL, m TEXT NOT NULL, exp INTEGER NOT NULL,
    PRIMARY KEY (k, m));`);
const sql = {
  count: db.prepare(
    'INSERT INTO kv (k, v, exp) VALUES (?, ?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v',
  ),
  read: db.prepare('SELECT v FROM kv WHERE k = ? AND exp > ?'),
  write: db.prepare('INSERT OR REPLACE INTO kv (k, v, exp) VALUES (?, ?, ?)'),
  take: db.prepare('DELETE FROM kv WHERE k = ? RETURNING v'),
  add: db.prepare('INSERT OR REPLACE INTO members (k, m, exp) VALUES (?, ?, ?)'),
  remove: db.prepare('DELETE FROM members WHERE k = ? AND m = ?'),
  members: db.prepare('SELECT m FROM members WHERE k = ? AND exp > ?'),
};
const YEAR_MS = 31_536_000_000;
const hmacKey = createSecretKey(randomBytes(32));
const hmac = (value) => createHmac('sha256', hmacKey).update(value).digest('base64url');
const sealKey = randomBytes(32);
const sha256 = (value) => createHash('sha256').update(value).digest('base64url');

/** AES-256-GCM with the record's key as associated data (issue 15 item 9). */
function seal(plain, context) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, body, cipher.getAuthTag()].map((b) => b.toString('base64url')).join('.');
}
function open(sealed, context) {
  const [iv, body, tag] = sealed.split('.');
  const decipher = createDecipheriv('aes-256-gcm', sealKey, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(body, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}

const sessionKey = (id) => `session:${hmac(id)}`;
function writeSession(id, record) {
  const key = sessionKey(id);
  const stored = { ...record, tokens: seal(JSON.stringify(record.tokens), key) };
  sql.write.run(key, JSON.stringify(stored), Date.now() + YEAR_MS);
}
function readRecord(key) {
  const row = sql.read.get(key, Date.now());
  if (!row) return undefined;
  const stored = JSON.parse(row.v);
  return { ...stored, tokens: JSON.parse(open(stored.tokens, key)) };
}
/** The cookie's session, if the browser's binding matches the record's (issue 14 item 4). */
function session(req) {
  const jar = cookies(req.headers.cookie);
  if (jar.sessionId === undefined) return undefined;
  const record = readRecord(sessionKey(jar.sessionId));
  const expected = Buffer.from(record?.bindingHash ?? '');
  const actual = Buffer.from(sha256(jar.sessionBinding ?? ''));
  if (!record || expected.length !== actual.length || !timingSafeEqual(expected, actual))
    return undefined;
  return { id: jar.sessionId, ...record };
}
const subjectKey = (sub) => `sessions-of:${hmac(`sub:${sub}`)}`;
const idpSidKey = (sid) => `sessions-of-idp-sid:${hmac(`sid:${sid}`)}`;

/** §4 step 5: a fresh session; the one this sign-in handed the same brand before is dropped. */
function newSession(record, brand) {
  const id = randomBytes(32).toString('base64url');
  const handle = hmac(id);
  const until = Date.now() + YEAR_MS;
  sql.add.run(subjectKey(record.sub), handle, until);
  sql.add.run(idpSidKey(record.idpSid), handle, until);
  writeSession(id, { ...record, brand, createdAt: Date.now(), lastUsedAt: Date.now() });
  const familyKey = `sessions-of-family-brand:${hmac(`family:${record.family}:${brand}`)}`;
  const earlier = sql.members.all(familyKey, Date.now());
  sql.add.run(familyKey, handle, until);
  for (const { m } of earlier) {
    sql.take.get(`session:${m}`);
    sql.remove.run(subjectKey(record.sub), m);
    sql.remove.run(idpSidKey(record.idpSid), m);
    sql.remove.run(familyKey, m);
  }
  return id;
}

const claimsOf = decodeJwt(env.FLOOR_ID_TOKEN);
writeSession(env.FLOOR_SESSION_ID, {
  brand: 'pcgs',
  sub: claimsOf.sub,
  idpSid: claimsOf.sid ?? 'sid',
  family: randomBytes(16).toString('base64url'),
  bindingHash: sha256(env.FLOOR_BINDING),
  tokens: {
    accessToken: env.FLOOR_ACCESS_TOKEN,
    refreshToken: env.FLOOR_REFRESH_TOKEN,
    idToken: env.FLOOR_ID_TOKEN,
  },
  createdAt: Date.now(),
  lastUsedAt: Date.now(),
});
sql.add.run(subjectKey(claimsOf.sub), hmac(env.FLOOR_SESSION_ID), Date.now() + YEAR_MS);
const pageData = JSON.parse(fs.readFileSync(env.FLOOR_PAGE_DATA, 'utf8'));
const assets = loadClientAssets();
// Serialised once: the product, too, keeps each locale's (large) messages JSON ready-made.
const pageDataJson = scriptSafeJson(pageData);

function cookies(header) {
  const jar = {};
  for (const pair of (header ?? '').split('; ')) {
    const eq = pair.indexOf('=');
    if (eq > 0) jar[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return jar;
}

/** Rate-limit counts in memory, written to SQLite once a second (as the product's store does). */
const counters = new Map();
setInterval(() => {
  const until = Date.now() + 60_000;
  for (const [k, v] of counters) sql.count.run(k, String(v), until);
}, 1000).unref();
const countUp = (key) => counters.set(key, (counters.get(key) ?? 0) + 1);

class FloorController {
  signin(req, res) {
    const s = session(req);
    const access = decodeJwt(s.tokens.accessToken);
    const claims = decodeJwt(s.tokens.idToken);
    if (access.exp * 1000 < Date.now()) throw new Error('expired');
    if (new URL(req.query.r).origin !== 'https://dev.psacard.com') throw new Error('return URL');
    const { id: _id, createdAt: _c, lastUsedAt: _u, ...record } = s;
    const id = newSession(record, req.query.b);
    log.info({ event: 'signin', brand: req.query.b, sub: claims.sub }, 'sign-in');
    // Issue 31 item 4: the brand gets a grant of its own, never the session's refresh token. A login
    // state (fresh PKCE verifier and nonce, the hop to finish, bound to a new browser cookie) sealed
    // under its state's hash for 10 minutes, then the IdP's authorization with prompt=none.
    const verifier = randomBytes(32).toString('base64url');
    const nonce = randomBytes(32).toString('base64url');
    const state = randomBytes(32).toString('base64url');
    const binding = randomBytes(32).toString('base64url');
    const stateKey = `login-state:${sha256(state)}`;
    const pending = {
      kind: 'brand-grant',
      journey: { brand: req.query.b, r: req.query.r, locale: 'en-US' },
      verifier,
      nonce,
      brandHop: { sub: claims.sub, sessionId: id, recordIn: id, target: req.query.r },
      bindingHash: sha256(binding),
      createdAt: Date.now(),
    };
    sql.write.run(stateKey, seal(JSON.stringify(pending), stateKey), Date.now() + 600_000);
    const authorize = new URLSearchParams({
      client_id: 'collectors-signon',
      response_type: 'code',
      redirect_uri: 'https://signin.collectors.com/handleloginredirect',
      scope: 'openid profile email offline_access',
      state,
      nonce,
      code_challenge: sha256(verifier),
      code_challenge_method: 'S256',
      prompt: 'none',
      ui_locales: 'en-US',
      brand: req.query.b,
    });
    res.setHeader('Set-Cookie', [
      `sessionId=${id}; Max-Age=31536000; Path=/; HttpOnly; SameSite=Lax`,
      `loginBinding=${binding}; Max-Age=600; Path=/; HttpOnly; Secure; SameSite=Lax`,
    ]);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Location', `https://login.collectors.com/oauth2/v1/authorize?${authorize}`);
    res.status(302).end();
  }

  collection(req, res) {
    const s = session(req);
    if (decodeJwt(s.tokens.accessToken).exp * 1000 < Date.now()) throw new Error('expired');
    // Issue 16 item 4: the landing counts the collector's sessions.
    let sessionCount = 0;
    for (const { m } of sql.members.all(subjectKey(s.sub), Date.now()))
      if (readRecord(`session:${m}`)) sessionCount++;
    const nonce = randomBytes(16).toString('base64');
    const html = renderPage(
      createElement(PageRoot, {
        data: { ...pageData, props: { ...pageData.props, sessionCount } },
      }),
      // The same document as the product's (its critical CSS inline, the script and preloads after
      // the content), from the same build.
      {
        lang: pageData.locale,
        title: 'Collection',
        faviconHref: '/static/favicon.ico',
        criticalCss: { css: assets.criticalCss, nonce },
        htmlClass: `theme-${pageData.theme}`,
        hydration: { nonce, dataJson: pageDataJson, script: assets.script },
        preload: assets.preload,
        deferredStyles: assets.deferredStyles,
      },
    );
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', pageCsp(nonce, { https: false }));
    res.type('html').send(html);
  }
}
Controller()(FloorController);
for (const [name, route] of [
  ['signin', 'signin'],
  ['collection', 'collection'],
]) {
  Get(route)(
    FloorController.prototype,
    name,
    Object.getOwnPropertyDescriptor(FloorController.prototype, name),
  );
  Req()(FloorController.prototype, name, 0);
  Res()(FloorController.prototype, name, 1);
}

/** Item 10's two counters, on the sign-in route only. */
class RateLimit {
  canActivate(context) {
    const req = context.switchToHttp().getRequest();
    if (req.path !== '/signin') return true;
    countUp(`ratelimit:signin:${req.ip}`);
    countUp(`ratelimit:signin-session:${cookies(req.headers.cookie).sessionId}`);
    return true;
  }
}

class FloorModule {}
Module({
  controllers: [FloorController],
  providers: [{ provide: APP_GUARD, useClass: RateLimit }],
})(FloorModule);

const t = initTRPC.context().create();
const router = t.router({
  account: t.router({
    status: t.procedure.query(({ ctx }) => {
      const s = ctx.session();
      const claims = s ? decodeJwt(s.tokens.idToken) : undefined;
      return {
        isSignedIn: Boolean(s),
        isMigrating: claims?.isMigrating === true,
        setupMfa: claims?.setupMfa === true,
        showSurvey: claims?.showSurvey === true,
        collectorsId: claims?.sub ?? null,
      };
    }),
  }),
});

NestFactory.create(FloorModule, { logger: false, bodyParser: false })
  .then((app) => {
    app.use((req, res, next) => {
      const startedAt = performance.now();
      req.id = randomUUID();
      res.setHeader('x-request-id', req.id);
      res.on('finish', () =>
        log.info(
          {
            req: { id: req.id, method: req.method, url: req.path },
            res: { statusCode: res.statusCode },
            responseTime: Math.round(performance.now() - startedAt),
          },
          'request completed',
        ),
      );
      next();
    });
    app.use(helmet());
    app.use('/trpc', (req, res) => {
      const path = req.path.slice(1);
      let s;
      resolveResponse({
        router,
        req: incomingMessageToRequest(req, res, { maxBodySize: null }),
        path,
        error: null,
        createContext: () => ({ session: () => (s ??= session(req)) }),
        responseMeta: () => ({ headers: { 'cache-control': 'no-store' } }),
      })
        .then(async (response) => {
          res.statusCode = response.status;
          for (const [key, value] of response.headers) res.setHeader(key, value);
          const body = Buffer.from(await response.arrayBuffer());
          res.setHeader('content-length', body.length);
          res.end(body);
        })
        .catch(() => {
          res.statusCode = 500;
          res.end();
        });
    });
    return app.listen(Number(env.PORT), '127.0.0.1');
  })
  .then(() => process.send && process.send('ready'));
// An orderly exit on the bench's SIGTERM, so that BENCH_NODE_FLAGS=--cpu-prof writes the floor's
// profile too (bench/profile-summary.js compares it with the product's).
process.once('SIGTERM', () => process.exit(0));
