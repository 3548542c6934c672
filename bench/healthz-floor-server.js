// The platform floor of `/healthz` (issue 18 item 2: "/healthz at least 0.8 x hello, the cost of the
// middleware that every request pays"): the NestJS hello server (bench/hello-server.js) plus, written
// by hand in one Express middleware with nothing around it, the per-request work the issues require of
// every answer:
//   - a request id, an incoming safe one reused, sent back as x-request-id (issue 7: correlation ids);
//   - W3C trace context: the incoming traceparent continued with a new span, or a new trace, sent back
//     as traceparent, and the request's ids kept in a scope that log lines read while the request runs
//     (issue 7 item 4: trace ids carried into the logs; Node's AsyncLocalStorage, as OpenTelemetry's
//     own context manager does it);
//   - the duration histogram by method, route and status (prom-client, issue 7 item 4);
//   - helmet's headers, computed once at start as the service does (issue 4 item 13);
//   - `Vary: Accept-Encoding` (issue 18 item 1: answers may be compressed);
//   - `Cache-Control: no-store` on the health answer.
// Nothing else: no access line (the product writes none for health polls either), no token or
// locale rules (a health probe carries no cookie, no `t` and no locale prefix), no exception filter.
// So a ratio to hello that this server cannot reach, the product cannot either.
//
// Environment: PORT.
'use strict';
require('reflect-metadata');
const { AsyncLocalStorage } = require('node:async_hooks');
const { randomBytes, randomUUID } = require('node:crypto');
const path = require('node:path');
const { Controller, Get, Header, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { Histogram } = require('prom-client');
// helmet's headers as the service reads them once at start (the bench builds dist/ first).
const { helmetHeaders } = require(path.resolve(__dirname, '../dist/src/http/security-headers'));

const scope = new AsyncLocalStorage();
const duration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Request duration',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
});

/** The service's helmet options outside local and dev (src/app.factory.ts). */
const HEADERS = helmetHeaders({
  hsts: { maxAge: 31_536_000, includeSubDomains: true },
  referrerPolicy: { policy: 'no-referrer' },
});

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

function onFinish() {
  const req = this.req;
  duration.observe(
    {
      method: req.method,
      route: req.route ? req.route.path : 'unmatched',
      status: String(this.statusCode),
    },
    (performance.now() - this.startedAt) / 1000,
  );
}

function everyRequest(req, res, next) {
  res.startedAt = performance.now();
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('x-request-id', id);
  const parent = TRACEPARENT.exec(req.headers.traceparent ?? '');
  const trace = {
    traceId: parent ? parent[1] : randomBytes(16).toString('hex'),
    spanId: randomBytes(8).toString('hex'),
    flags: parent ? parent[3] : '00',
  };
  res.setHeader('traceparent', `00-${trace.traceId}-${trace.spanId}-${trace.flags}`);
  for (const [name, value] of HEADERS) res.setHeader(name, value);
  res.setHeader('vary', 'Accept-Encoding');
  res.on('finish', onFinish);
  scope.run({ id, trace }, next);
}

class HealthController {
  live() {
    return { status: 'ok', checks: { process: { status: 'up' } } };
  }
}
Controller()(HealthController);
const live = Object.getOwnPropertyDescriptor(HealthController.prototype, 'live');
Header('Cache-Control', 'no-store')(HealthController.prototype, 'live', live);
Get('healthz')(HealthController.prototype, 'live', live);

class HealthFloorModule {}
Module({ controllers: [HealthController] })(HealthFloorModule);

NestFactory.create(HealthFloorModule, { logger: false })
  .then((app) => {
    app.disable('x-powered-by');
    app.set('etag', false);
    app.use(everyRequest);
    return app.listen(Number(process.env.PORT), '127.0.0.1');
  })
  .then(() => process.send && process.send('ready'));
process.once('SIGTERM', () => process.exit(0));
