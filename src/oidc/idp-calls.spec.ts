import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { tempDataDir } from '../../test/support/test-config';
import { AppLogger } from '../logging/app-logger';
import { AppMetrics } from '../metrics';
import { SqliteSessionStore } from '../store/sqlite-session-store';
import type { FetchFunction } from '../tracing';
import { IdpCalls } from './idp-calls';
import { IdpRateLimited } from './idp-rate-limit';

const ISSUER = 'https://org.example/oauth2/default';
const DISCOVERY = `${ISSUER}/.well-known/openid-configuration`;
const TOKEN = `${ISSUER}/v1/token`;
const USERINFO = `${ISSUER}/v1/userinfo`;

/** Okta's 429 (docs/okta.md "Rate limits"): the three headers and the E0000047 body. */
function okta429(resetInSeconds: number): Response {
  return new Response(
    JSON.stringify({
      errorCode: 'E0000047',
      errorSummary: 'API call exceeded rate limit due to too many requests.',
    }),
    {
      status: 429,
      headers: {
        'content-type': 'application/json',
        'x-rate-limit-limit': '600',
        'x-rate-limit-remaining': '0',
        'x-rate-limit-reset': String(Math.ceil(Date.now() / 1000) + resetInSeconds),
      },
    },
  );
}

/**
 * An IdP behind a fetch function: what it answers each path, and which calls reached it. The
 * service's instances each wrap it in an IdpCalls of their own, on one shared SQLite store file.
 */
function idp() {
  const reached: string[] = [];
  const answers = new Map<string, () => Response>([
    [
      DISCOVERY,
      () =>
        Response.json({
          issuer: ISSUER,
          token_endpoint: TOKEN,
          userinfo_endpoint: USERINFO,
          revocation_endpoint: `${ISSUER}/v1/revoke`,
        }),
    ],
    [TOKEN, () => Response.json({ access_token: 'a', token_type: 'Bearer' })],
    [USERINFO, () => Response.json({ error: 'invalid_token' }, { status: 401 })],
  ]);
  const fetch: FetchFunction = (url) => {
    reached.push(url);
    const answer = answers.get(url);
    if (!answer) return Promise.reject(new TypeError('fetch failed'));
    return Promise.resolve(answer());
  };
  return { reached, answers, fetch };
}

function instance(file: string) {
  const metrics = new AppMetrics();
  const lines: Record<string, unknown>[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
      lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  const store = new SqliteSessionStore(file, Date.now, 'test', false);
  const calls = new IdpCalls(store, metrics, new AppLogger(pino(stream)));
  const sample = async (name: string, labels: Record<string, string>) => {
    const family = name.replace(/_count$/, '');
    const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === family);
    const values = (metric?.values ?? []) as {
      metricName?: string;
      labels: Record<string, unknown>;
      value: number;
    }[];
    return values
      .filter((v) => (v.metricName ?? family) === name)
      .filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))
      .reduce((sum, v) => sum + v.value, 0);
  };
  return { calls, lines, store, sample, metrics };
}

describe(IdpCalls.name, () => {
  const stores: SqliteSessionStore[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
  });
  const twoInstances = () => {
    const file = path.join(tempDataDir(), 'sessions.sqlite');
    const one = instance(file);
    const two = instance(file);
    stores.push(one.store, two.store);
    return [one, two] as const;
  };

  it('times each call to a discovered endpoint by endpoint and outcome; others pass', async () => {
    const [one] = twoInstances();
    const server = idp();
    const fetch = one.calls.fetch(server.fetch);
    await fetch(DISCOVERY, {});
    await fetch(TOKEN, { method: 'POST' });
    expect((await fetch(USERINFO, {})).status).toBe(401);
    await expect(fetch(`${ISSUER}/v1/revoke`, { method: 'POST' })).rejects.toThrow(TypeError);
    server.answers.set(TOKEN, () => new Response('down', { status: 503 }));
    expect((await fetch(TOKEN, { method: 'POST' })).status).toBe(503);
    await expect(fetch(`${ISSUER}/v1/keys`, {})).rejects.toThrow(TypeError);
    const count = (endpoint: string, outcome: string) =>
      one.sample('idp_request_duration_seconds_count', { endpoint, outcome });
    expect(await count('discovery', 'success')).toBe(1);
    expect(await count('token', 'success')).toBe(1);
    expect(await count('token', 'error')).toBe(1);
    expect(await count('userinfo', 'refused')).toBe(1);
    expect(await count('revocation', 'error')).toBe(1);
    // The keys endpoint is not one of the four: passed on, not timed.
    expect(await one.sample('idp_request_duration_seconds_count', {})).toBe(5);
  });

  it("exports each endpoint's rate-limited count at 0 before any 429, so its first rise alerts", async () => {
    const [one] = twoInstances();
    const text = await one.metrics.registry.metrics();
    for (const endpoint of ['discovery', 'token', 'userinfo', 'revocation'])
      expect(text).toContain(`idp_rate_limited_total{endpoint="${endpoint}"} 0\n`);
  });

  it('a 429 holds the endpoint back on every instance until its Reset, then lets calls go', async () => {
    const [one, two] = twoInstances();
    const server = idp();
    const fetchOne = one.calls.fetch(server.fetch);
    const fetchTwo = two.calls.fetch(server.fetch);
    await fetchOne(DISCOVERY, {});
    await fetchTwo(DISCOVERY, {});
    server.answers.set(TOKEN, () => okta429(1));
    const first = await fetchOne(TOKEN, { method: 'POST' }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(IdpRateLimited);
    expect(first).toMatchObject({ endpoint: 'token', local: false });
    const until = (first as IdpRateLimited).until;
    expect(until).toBeGreaterThan(Date.now());
    // One warn line, with the endpoint and the time; nothing of the request.
    const warned = one.lines.filter((l) => l.event === 'idp-rate-limited');
    expect(warned).toEqual([
      expect.objectContaining({
        level: 40,
        endpoint: 'token',
        until: new Date(until).toISOString(),
        limit: '600',
      }),
    ]);
    server.answers.set(TOKEN, () => Response.json({ access_token: 'b', token_type: 'Bearer' }));
    const reachedBefore = server.reached.length;
    // Held back here and on the other instance: neither reaches the IdP.
    for (const fetch of [fetchOne, fetchOne, fetchTwo, fetchTwo])
      await expect(fetch(TOKEN, { method: 'POST' })).rejects.toMatchObject({
        endpoint: 'token',
        until,
        local: true,
      });
    expect(server.reached.length).toBe(reachedBefore);
    // Other endpoints are their own buckets.
    expect((await fetchTwo(USERINFO, {})).status).toBe(401);
    expect(await one.sample('idp_rate_limited_total', { endpoint: 'token' })).toBe(3);
    expect(await two.sample('idp_rate_limited_total', { endpoint: 'token' })).toBe(2);
    expect(
      await one.sample('idp_request_duration_seconds_count', {
        endpoint: 'token',
        outcome: 'rate_limited',
      }),
    ).toBe(1);
    // Once the Reset has passed, the call goes to the IdP again.
    await new Promise((r) => setTimeout(r, until - Date.now() + 50));
    expect((await fetchTwo(TOKEN, { method: 'POST' })).status).toBe(200);
    expect(server.reached.slice(reachedBefore)).toEqual([USERINFO, TOKEN]);
  });
});
