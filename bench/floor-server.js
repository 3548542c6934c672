// The platform floor of each benchmarked scenario: a bare NestJS 11 + platform-express app, built like
// the hello reference, whose handlers do only the work the issues require of that scenario, written
// by hand with nothing else around it (no metrics, no trace context, no Nest middleware, no input or
// cookie validation, no error pages, no abstractions). What the product does on top of this is what
// DESIGN.md and the issues ask for; so a ratio this server cannot reach, the product cannot either.
//
//   GET /signin      issue 4 item 13: security headers; two rate-limit counters written in SQLite (per
//                    address, per session: item 10); the session read from SQLite; the access and ID
//                    token payloads read; the return URL's origin checked; the sign-in event and the
//                    access line logged; three cookies and a 302 carrying si, t and rt.
//   GET /collection  issue 6 item 9: security headers; the session read; the access token read; the
//                    real /collection page (views/, the product's own components and data) rendered
//                    with renderToString inside its document; the access line logged.
//   GET /trpc/...    issue 5 item 6: security headers; @trpc/server's Express adapter with batching;
//                    account.status reading the session once per request and the ID token's payload;
//                    the access line logged.
//
// Environment: PORT; FLOOR_DB (a SQLite file to create); FLOOR_SESSION_ID, FLOOR_ACCESS_TOKEN,
// FLOOR_REFRESH_TOKEN (a real signed-in session's values, which bench/run.js takes from the product);
// FLOOR_PAGE_DATA (a file with the /collection page's ShellData, as the product serialised it).
'use strict';
require('reflect-metadata');
const { Controller, Get, Module, Req, Res } = require('@nestjs/common');
const { APP_GUARD, NestFactory } = require('@nestjs/core');
const { initTRPC } = require('@trpc/server');
const { createExpressMiddleware } = require('@trpc/server/adapters/express');
const Database = require('better-sqlite3');
const helmet = require('helmet').default;
const { decodeJwt } = require('jose');
const { createHmac, createSecretKey, randomBytes, randomUUID } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const pino = require('pino');
const { createElement } = require('react');

const DIST = path.resolve(__dirname, '../dist');
const { renderPage } = require(path.join(DIST, 'src/render/render-page'));
const { pageCsp } = require(path.join(DIST, 'src/render/csp'));
const { PageRoot } = require(path.join(DIST, 'views/pages/PageRoot'));
const { scriptSafeJson } = require(path.join(DIST, 'views/Document'));

const env = process.env;
const log = pino(pino.destination({ dest: '/dev/null', sync: true }));
const db = new Database(env.FLOOR_DB);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(
  'CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT NOT NULL, exp INTEGER NOT NULL)',
);
const count = db.prepare(
  'INSERT INTO kv (k, v, exp) VALUES (?, 1, ?) ON CONFLICT(k) DO UPDATE SET v = v + 1 RETURNING v',
);
const read = db.prepare('SELECT v FROM kv WHERE k = ? AND exp > ?');
const sessionKey = createSecretKey(randomBytes(32));
const keyOf = (sessionId) =>
  `session:${createHmac('sha256', sessionKey).update(sessionId).digest('base64url')}`;
db.prepare('INSERT OR REPLACE INTO kv (k, v, exp) VALUES (?, ?, ?)').run(
  keyOf(env.FLOOR_SESSION_ID),
  JSON.stringify({
    brand: 'psa',
    accessToken: env.FLOOR_ACCESS_TOKEN,
    refreshToken: env.FLOOR_REFRESH_TOKEN,
    idToken: env.FLOOR_ACCESS_TOKEN,
    createdAt: Date.now(),
  }),
  Date.now() + 86_400_000,
);
const pageData = JSON.parse(fs.readFileSync(env.FLOOR_PAGE_DATA, 'utf8'));
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
function session(req) {
  const id = cookies(req.headers.cookie).sessionId;
  const row = id === undefined ? undefined : read.get(keyOf(id), Date.now());
  return row && { id, ...JSON.parse(row.v) };
}
const cookie = (name, value, maxAge) =>
  `${name}=${value}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax`;

class FloorController {
  signin(req, res) {
    const s = session(req);
    const access = decodeJwt(s.accessToken);
    const claims = decodeJwt(s.idToken);
    if (access.exp * 1000 < Date.now()) throw new Error('expired');
    if (new URL(req.query.r).origin !== 'https://dev.psacard.com') throw new Error('return URL');
    log.info({ event: 'signin', brand: req.query.b, sub: claims.sub }, 'sign-in');
    res.setHeader('Set-Cookie', [
      cookie('accessToken', s.accessToken, 8_640_000),
      cookie('refreshToken', s.refreshToken, 8_640_000),
      cookie('sessionId', s.id, 31_536_000),
    ]);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader(
      'Location',
      `https://dev.psacard.com/orders?si=${encodeURIComponent(s.id)}&t=${encodeURIComponent(s.accessToken)}&rt=${encodeURIComponent(s.refreshToken)}`,
    );
    res.status(302).end();
  }

  collection(req, res) {
    const s = session(req);
    if (decodeJwt(s.accessToken).exp * 1000 < Date.now()) throw new Error('expired');
    const nonce = randomBytes(16).toString('base64');
    const html = renderPage(createElement(PageRoot, { data: pageData }), {
      lang: pageData.locale,
      title: 'Collection',
      faviconHref: '/static/favicon.ico',
      stylesheets: [],
      htmlClass: `theme-${pageData.theme}`,
      hydration: { nonce, dataJson: pageDataJson, script: '/assets/app.js', preload: [] },
    });
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
    const until = Date.now() + 60_000;
    count.get(`ratelimit:signin:${req.ip}`, until);
    count.get(`ratelimit:signin-session:${cookies(req.headers.cookie).sessionId}`, until);
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
      const claims = s ? decodeJwt(s.idToken) : undefined;
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
    app.use(
      '/trpc',
      createExpressMiddleware({
        router,
        createContext: ({ req }) => {
          let s;
          return { session: () => (s ??= session(req)) };
        },
        responseMeta: () => ({ headers: { 'cache-control': 'no-store' } }),
      }),
    );
    return app.listen(Number(env.PORT), '127.0.0.1');
  })
  .then(() => process.send && process.send('ready'));
