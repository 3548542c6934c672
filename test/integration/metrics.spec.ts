import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { rateLimitGroup } from '../../src/rate-limit/rate-limited-routes';
import { Browser } from '../support/browser';
import { RunningRedis, startRedis } from '../support/redis-server';
import {
  cookieValue,
  jarCookie,
  locationOf,
  signInVia,
  signOutFromThisSite,
} from '../support/signin-journey';
import { TestApp, startTestApp, useTestApp } from '../support/test-app';
import { Sample, parseSamples, scrapeMetrics, valueOf } from '../support/metrics';

/**
 * Issue 7 item 4 over HTTP: Prometheus metrics at the management listener's /metrics (requests by route pattern, sign-ins and
 * sign-outs by brand and outcome, refreshes, session-store latency and errors) and W3C trace ids in
 * the logs.
 */

async function scrape(t: TestApp): Promise<Sample[]> {
  return scrapeMetrics(t);
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

describe('metrics at /metrics on the management port', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Access tokens live 1 s (refreshed 30 s early): every signed-in /signin refreshes (§4).
    t = await startTestApp({ APP_ENV: 'dev', IDP_ACCESS_TOKEN_TTL_SECONDS: '1' });
  }, 30_000);
  afterAll(async () => {
    await t.close();
  });

  it('answers the Prometheus text format, uncached, with the process metrics and every metric declared', async () => {
    const res = await request(t.managementUrl).get('/metrics').expect(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    for (const [name, type] of [
      ['http_requests_total', 'counter'],
      ['http_request_duration_seconds', 'histogram'],
      ['signins_total', 'counter'],
      ['signouts_total', 'counter'],
      ['token_refreshes_total', 'counter'],
      ['session_store_operation_seconds', 'histogram'],
      ['session_store_errors_total', 'counter'],
      ['process_cpu_seconds_total', 'counter'],
      ['process_resident_memory_bytes', 'gauge'],
      ['nodejs_eventloop_lag_seconds', 'gauge'],
      ['nodejs_heap_size_used_bytes', 'gauge'],
    ])
      expect(res.text).toContain(`# TYPE ${name} ${type}\n`);
    // The embedded IdP is this process: never reported down, so no IdP alert fires in dev.
    expect(res.text).toMatch(/^idp_up 1$/m);
  });

  it('is neither logged per request, nor rate limited, nor counted as a request', async () => {
    for (let i = 0; i < 5; i++) await request(t.managementUrl).get('/metrics').expect(200);
    for (let i = 0; i < 5; i++) await request(t.managementUrl).get('/readyz').expect(200);
    expect(t.logs.text).not.toContain('"url":"/metrics"');
    expect(t.logs.text).not.toContain('"url":"/readyz"');
    expect(rateLimitGroup('GET', '/metrics')).toBeUndefined();
    const routes = (await scrape(t))
      .filter((s) => s.name === 'http_requests_total')
      .map((s) => s.labels.route);
    expect(routes).not.toContain('/metrics');
    expect(routes).not.toContain('/readyz');
  });

  it('counts and times requests by method, route pattern and status; unknown paths are one "unmatched" label', async () => {
    const before = await scrape(t);
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    const demo = { method: 'GET', route: '/demo/brand/:brand', status: '200' };
    const randomPaths = Array.from({ length: 5 }, () => `/random-${randomUUID()}`);
    for (const p of randomPaths) await request(t.url).get(p).expect(404);
    await request(t.url).get(`/static/app/${randomUUID()}.js`).expect(404);
    await request(t.url).get('/demo/brand/psa').expect(200);
    await request(t.url).get('/demo/brand/goldin?probe=1').expect(200);

    const res = await request(t.managementUrl).get('/metrics').expect(200);
    const after = parseSamples(res.text);
    const delta = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta('http_requests_total', unmatched)).toBe(5);
    // A 404 under a mount point is counted under the mount point (a fixed label too).
    expect(
      delta('http_requests_total', { method: 'GET', route: '/static/app', status: '404' }),
    ).toBe(1);
    expect(delta('http_requests_total', demo)).toBe(2);
    // The histogram: cumulative buckets up to +Inf, whose count is the request count.
    expect(delta('http_request_duration_seconds_count', demo)).toBe(2);
    const buckets = after.filter(
      (s) =>
        s.name === 'http_request_duration_seconds_bucket' &&
        s.labels.route === '/demo/brand/:brand' &&
        s.labels.status === '200',
    );
    expect(buckets.map((b) => b.labels.le)).toEqual([
      '0.001',
      '0.0025',
      '0.005',
      '0.01',
      '0.025',
      '0.05',
      '0.1',
      '0.25',
      '0.5',
      '1',
      '2.5',
      '5',
      '10',
      '+Inf',
    ]);
    expect(buckets.at(-1)?.value).toBe(valueOf(after, 'http_requests_total', demo));
    expect(valueOf(after, 'http_request_duration_seconds_sum', demo)).toBeGreaterThan(0);
    // Bounded labels: no raw path, id or query ever becomes a label value.
    for (const p of randomPaths) expect(res.text).not.toContain(p);
    expect(res.text).not.toContain('probe');
    expect(res.text).not.toContain('/demo/brand/psa');
    const routes = new Set(
      after.filter((s) => s.name === 'http_requests_total').map((s) => s.labels.route),
    );
    for (const route of routes) expect(route).toMatch(/^(unmatched|\/[a-z0-9/:._-]*)$/i);
  });

  it('counts a sign-in through the IdP, the refresh of a signed-in /signin, the store calls and a sign-out, without a token or id', async () => {
    const before = await scrape(t);
    const browser = new Browser();
    const { landing } = await signInVia(t, browser, 'b=psa');
    const target = locationOf(landing);
    const secrets = [
      target.searchParams.get('si'),
      target.searchParams.get('t'),
      target.searchParams.get('rt'),
      cookieValue(landing, 'accessToken'),
      await jarCookie(browser, t.url, 'sessionId'),
    ].filter((s): s is string => Boolean(s));
    expect(secrets.length).toBeGreaterThanOrEqual(3);
    // Signed in: /signin reuses the session (a second sign-in event) after one refresh.
    const again = await browser.get(`${t.url}/signin?b=psa`);
    expect(again.status).toBe(302);
    await signOutFromThisSite(browser, `${t.url}/logout/collectorsid?b=psa`);
    await request(t.url)
      .get('/logout/collectorsid?b=goldin')
      .set('sec-fetch-site', 'same-origin')
      .expect(302);

    const res = await request(t.managementUrl).get('/metrics').expect(200);
    const after = parseSamples(res.text);
    const delta = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta('signins_total', { brand: 'psa', outcome: 'success', error: 'none' })).toBe(2);
    expect(delta('token_refreshes_total', { outcome: 'success' })).toBe(1);
    expect(delta('signouts_total', { brand: 'psa', outcome: 'success', error: 'none' })).toBe(1);
    expect(delta('signouts_total', { brand: 'goldin', outcome: 'no_session', error: 'none' })).toBe(
      1,
    );
    for (const [method, route, status] of [
      ['GET', '/signin', '302'],
      ['GET', '/idp/signin/:uid', '200'],
      ['POST', '/idp/signin/:uid', '303'],
      ['GET', '/oauth2/default', '303'],
      ['POST', '/oauth2/default', '200'],
      ['GET', '/handleloginredirect', '302'],
      ['GET', '/logout/collectorsid', '302'],
    ] as const)
      expect(delta('http_requests_total', { method, route, status })).toBeGreaterThan(0);
    // The refresh lock is released by compare-and-delete (issue 15 item 10), no longer by delete.
    for (const operation of ['get', 'set', 'take', 'setIfAbsent', 'deleteIfEquals', 'increment'])
      expect(
        delta('session_store_operation_seconds_count', { operation, store: 'sqlite' }),
      ).toBeGreaterThan(0);
    expect(
      after.some(
        (s) =>
          s.name === 'session_store_operation_seconds_bucket' &&
          s.labels.operation === 'get' &&
          s.labels.le === '0.001',
      ),
    ).toBe(true);
    expect(valueOf(after, 'session_store_errors_total')).toBe(0);
    for (const secret of secrets) expect(res.text).not.toContain(secret);
  }, 60_000);

  it('counts failed sign-ins by brand and error code', async () => {
    const before = await scrape(t);
    // A foreign r no longer fails a sign-in (issue 14 item 1): a malformed flag does.
    await request(t.url).get('/signin?b=psa&isNewAccount=maybe').expect(400);
    await request(t.url).get('/signin?b=no-such-brand').expect(400);
    await request(t.url).get('/handleloginredirect?state=forged&code=stolen').expect(400);
    const after = await scrape(t);
    const delta = (labels: Record<string, string>) =>
      valueOf(after, 'signins_total', labels) - valueOf(before, 'signins_total', labels);
    expect(delta({ brand: 'psa', outcome: 'failure', error: 'BadRequest' })).toBe(1);
    expect(delta({ brand: 'unknown', outcome: 'failure', error: 'InvalidBrand' })).toBe(1);
    expect(delta({ brand: 'unknown', outcome: 'failure', error: 'InvalidLoginState' })).toBe(1);
    expect(delta({ outcome: 'success' })).toBe(0);
    const text = after.map((s) => JSON.stringify(s)).join('\n');
    for (const value of ['no-such-brand', 'maybe', 'forged', 'stolen'])
      expect(text).not.toContain(value);
  });
});

describe('W3C trace context', () => {
  const t = useTestApp({ APP_ENV: 'dev' });

  /** Every log line of one request, by its request id. */
  const linesOf = (requestId: string) =>
    t.logs.records.filter((r) => (r.req as { id?: string } | undefined)?.id === requestId);

  it('continues a valid incoming trace: same trace id, a new span, in the response and every log line', async () => {
    const res = await request(t.url)
      .get('/no-such-page')
      .set('traceparent', `00-${TRACE_ID}-${PARENT_ID}-01`)
      .expect(404);
    const answered = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(res.headers.traceparent));
    expect(answered?.[1]).toBe(TRACE_ID);
    const spanId = answered?.[2];
    expect(spanId).not.toBe(PARENT_ID);
    // The request id (correlation id) is unchanged by the trace.
    expect(res.body.correlationId).toBe(res.headers['x-request-id']);
    const lines = linesOf(String(res.headers['x-request-id']));
    // The filter's warning and the access line, both of this request.
    expect(lines.map((l) => l.msg)).toEqual(['request rejected', 'request completed']);
    for (const line of lines)
      expect(line.req).toMatchObject({ trace_id: TRACE_ID, span_id: spanId, parent_id: PARENT_ID });
  });

  it.each([
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${PARENT_ID}-01`],
    ['upper-case hex', `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`],
    ['the forbidden version ff', `ff-${TRACE_ID}-${PARENT_ID}-01`],
    ['a log-injection attempt', `00-${TRACE_ID}-${PARENT_ID}-01","level":60`],
    ['garbage', 'not-a-traceparent'],
  ])('replaces an invalid traceparent (%s) by a new trace', async (_name, header) => {
    const res = await request(t.url).get('/signin?b=psa').set('traceparent', header).expect(302);
    const answered = /^00-([0-9a-f]{32})-([0-9a-f]{16})-00$/.exec(String(res.headers.traceparent));
    expect(answered).not.toBeNull();
    expect(answered?.[1]).not.toBe(TRACE_ID);
    const [line] = linesOf(String(res.headers['x-request-id']));
    expect(line?.req).toEqual(
      expect.objectContaining({ trace_id: answered?.[1], span_id: answered?.[2] }),
    );
    expect(line?.req).not.toHaveProperty('parent_id');
    expect(t.logs.text).not.toContain(header);
  });

  it('starts a trace when none comes in; each request is its own', async () => {
    const [a, b] = await Promise.all([
      request(t.url).get('/demo/brand/psa').expect(200),
      request(t.url).get('/demo/brand/psa').expect(200),
    ]);
    const traceOf = (h: unknown) => /^00-([0-9a-f]{32})-[0-9a-f]{16}-00$/.exec(String(h))?.[1];
    expect(traceOf(a?.headers.traceparent)).toBeDefined();
    expect(traceOf(a?.headers.traceparent)).not.toBe(traceOf(b?.headers.traceparent));
  });

  it.each([
    ['the embedded IdP', '/oauth2/default/.well-known/openid-configuration', 200],
    ['a static file', '/static/locales/en-US/common.json', 200],
  ])('reaches %s too: ids, trace and an access line', async (_name, path, status) => {
    const res = await request(t.url)
      .get(path)
      .set('traceparent', `00-${TRACE_ID}-${PARENT_ID}-01`)
      .expect(status);
    expect(String(res.headers.traceparent)).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
    const id = String(res.headers['x-request-id']);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(linesOf(id)).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        req: expect.objectContaining({ url: path, trace_id: TRACE_ID, parent_id: PARENT_ID }),
        res: { statusCode: status },
      }),
    ]);
  });
});

describe('metrics with the Redis session store', () => {
  let redis: RunningRedis;
  let t: TestApp;
  beforeAll(async () => {
    redis = await startRedis();
    t = await startTestApp({ SESSION_STORE: 'redis', REDIS_URL: redis.url });
  }, 30_000);
  afterAll(async () => {
    await t.close();
    await redis.stop();
  });

  it('labels store calls with the redis kind, and counts them as errors when Redis is gone', async () => {
    await request(t.managementUrl).get('/readyz').expect(200);
    const up = await scrape(t);
    expect(
      valueOf(up, 'session_store_operation_seconds_count', { operation: 'ping', store: 'redis' }),
    ).toBeGreaterThan(0);
    expect(valueOf(up, 'session_store_errors_total', { store: 'redis' })).toBe(0);
    await redis.stop();
    await request(t.managementUrl).get('/readyz').expect(503);
    const down = await scrape(t);
    expect(valueOf(down, 'session_store_errors_total', { operation: 'ping', store: 'redis' })).toBe(
      1,
    );
  }, 30_000);
});
