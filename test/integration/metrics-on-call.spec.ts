import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { Browser } from '../support/browser';
import { LogoutEndpoint } from '../support/logout-endpoint';
import { Sample, samplesOf, scrapeMetrics, valueOf } from '../support/metrics';
import { eventually } from '../support/process-app';
import { RunningRedis, startRedis } from '../support/redis-server';
import { RoundRobinProxy } from '../support/round-robin-proxy';
import { Sessions } from '../../src/session/sessions';
import {
  jarCookie,
  signInVia,
  signOutFromThisSite,
  throughBrandGrant,
} from '../support/signin-journey';
import { TestApp, TestAppEnv, startTestApp, useTestApp } from '../support/test-app';

/**
 * The metrics an on-call engineer reads (docs/operating.md "On-call metrics"), each read from the
 * running service's /metrics after the thing it counts happened for real: a build, back-channel
 * deliveries to brand endpoints that take, fail and refuse them, sessions made by real sign-ins on
 * SQLite and on a real redis-server, and revocations the IdP does not take until they are given up.
 */

/** The version as package.json says it, read here, not through the service's own code. */
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
    version: string;
  }
).version;

/** The one sample of a gauge without labels; fails when the service left it out. */
function gauge(samples: readonly Sample[], name: string): number {
  const found = samplesOf(samples, name);
  expect(found).toHaveLength(1);
  return found[0]?.value ?? NaN;
}

/** The metrics this file is about, shown when a wait for them fails. */
const ON_CALL = new Set([
  'live_sessions',
  'revocation_queue_depth',
  'revocations_abandoned_total',
  'backchannel_logout_deliveries_total',
]);

/** Polls the metrics until `probe` holds of them (store gauges are reused for 5 s). */
async function metricsUntil(
  t: { readonly managementUrl: string },
  what: string,
  probe: (samples: Sample[]) => boolean,
  timeoutMs = 15_000,
): Promise<Sample[]> {
  let last: Sample[] = [];
  await eventually(
    what,
    async () => {
      last = await scrapeMetrics(t);
      return probe(last);
    },
    timeoutMs,
  ).catch((error: Error) => {
    const shown = last.filter((s) => ON_CALL.has(s.name)).map((s) => JSON.stringify(s));
    throw new Error(`${error.message}; last scraped:\n${shown.join('\n')}`);
  });
  return last;
}

describe('build_info, and the service and version on every log line', () => {
  const t = useTestApp({ APP_ENV: 'dev' });

  it('build_info is 1, labelled with the package version and the Node version', async () => {
    const samples = await scrapeMetrics(t);
    expect(samplesOf(samples, 'build_info')).toEqual([
      {
        name: 'build_info',
        labels: { version: PACKAGE_VERSION, node_version: process.version },
        value: 1,
      },
    ]);
  });

  it('every JSON line names the service and its version', async () => {
    await request(t.url).get('/signin?b=psa').expect(302);
    await request(t.url).get('/no-such-page').expect(404);
    const records = t.logs.records;
    // Start-up lines, access lines and the filter's warning: lines of every kind.
    expect(records.length).toBeGreaterThan(3);
    expect(records.map((r) => r.msg)).toEqual(
      expect.arrayContaining(['request completed', 'request rejected']),
    );
    for (const record of records)
      expect(record).toMatchObject({ service: 'collectors-signon', version: PACKAGE_VERSION });
  });
});

describe('backchannel_logout_deliveries_total by brand and outcome', () => {
  let t: TestApp;
  /** Fails once, then takes it: one failed attempt, one delivered. */
  const psa = new LogoutEndpoint([503, 200]);
  /** Never answers well: every attempt fails, the last one given up. */
  const pcgs = new LogoutEndpoint([503]);
  /** Refuses the token itself (400): no retry can change that, given up at once. */
  const psajapan = new LogoutEndpoint([400]);

  beforeAll(async () => {
    t = await startTestApp({
      BACKCHANNEL_LOGOUT_URIS: JSON.stringify({
        psa: await psa.start(),
        pcgs: await pcgs.start(),
        psajapan: await psajapan.start(),
      }),
      BACKCHANNEL_RETRY_MS: '20',
    });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await Promise.all([psa.stop(), pcgs.stop(), psajapan.stop()]);
  });

  it('counts each attempt: delivered, failed and retried, abandoned', async () => {
    const before = await scrapeMetrics(t);
    // Every outcome of each brand with a URL is there at 0 from the start (so that an alert on
    // increase() sees the first one), and no other brand.
    const series = samplesOf(before, 'backchannel_logout_deliveries_total');
    expect(series.map((s) => `${s.labels.brand}/${s.labels.outcome}=${s.value}`).sort()).toEqual(
      ['psa', 'pcgs', 'psajapan']
        .flatMap((b) => ['delivered', 'failed', 'abandoned'].map((o) => `${b}/${o}=0`))
        .sort(),
    );
    const browser = new Browser();
    await signInVia(t, browser, 'b=psa');
    for (const brand of ['pcgs', 'psajapan'])
      await throughBrandGrant(browser, await browser.get(`${t.url}/signin?b=${brand}`));
    await signOutFromThisSite(browser, `${t.url}/logout/collectorsid?b=psa`);

    const delta = (after: Sample[], brand: string, outcome: string) =>
      valueOf(after, 'backchannel_logout_deliveries_total', { brand, outcome }) -
      valueOf(before, 'backchannel_logout_deliveries_total', { brand, outcome });
    const expected = {
      psa: { delivered: 1, failed: 1, abandoned: 0 },
      // DELIVERY_ATTEMPTS (4): three failures retried, the fourth given up.
      pcgs: { delivered: 0, failed: 3, abandoned: 1 },
      psajapan: { delivered: 0, failed: 0, abandoned: 1 },
    };
    const counted = (after: Sample[]) =>
      Object.fromEntries(
        Object.keys(expected).map((brand) => [
          brand,
          {
            delivered: delta(after, brand, 'delivered'),
            failed: delta(after, brand, 'failed'),
            abandoned: delta(after, brand, 'abandoned'),
          },
        ]),
      );
    const after = await metricsUntil(t, 'every delivery over', (samples) =>
      ['psa', 'pcgs', 'psajapan'].every(
        (brand) => delta(samples, brand, 'delivered') + delta(samples, brand, 'abandoned') > 0,
      ),
    );
    expect(counted(after)).toEqual(expected);
    // What the brands saw agrees: each attempt is one POST.
    expect([psa.tokens.length, pcgs.tokens.length, psajapan.tokens.length]).toEqual([2, 4, 1]);
    // Only the fixed brands are label values.
    for (const s of samplesOf(after, 'backchannel_logout_deliveries_total'))
      expect(['psa', 'pcgs', 'psajapan']).toContain(s.labels.brand);
  }, 60_000);
});

/**
 * live_sessions: read from the session store's count when scraped. A sign-in makes one session (the
 * browser's, handed to its brand as `si`), and each hop to another brand one more (§4 step 5): the
 * collector's sign-out ends all of them.
 */
function liveSessionCases(env: TestAppEnv): void {
  const t = useTestApp(env);

  it('counts the sessions real sign-ins made, and drops them at sign-out', async () => {
    const start = gauge(await scrapeMetrics(t), 'live_sessions');
    const first = new Browser();
    const second = new Browser();
    await signInVia(t, first, 'b=psa');
    await throughBrandGrant(first, await first.get(`${t.url}/signin?b=pcgs`));
    await signInVia(t, second, 'b=psa');
    await metricsUntil(t, 'three more sessions', (s) => gauge(s, 'live_sessions') === start + 3);
    await signOutFromThisSite(first, `${t.url}/logout/collectorsid?b=psa`);
    await metricsUntil(t, 'two of them ended', (s) => gauge(s, 'live_sessions') === start + 1);
    await signOutFromThisSite(second, `${t.url}/logout/collectorsid?b=psa`);
    await metricsUntil(t, 'all of them ended', (s) => gauge(s, 'live_sessions') === start);
  }, 60_000);
}

describe('live_sessions on SQLite', () => {
  liveSessionCases({ APP_ENV: 'dev' });
});

describe('live_sessions: a session that lapsed is no longer counted', () => {
  // Idle for 10 s (longer than a value is reused, so the new session is seen first) and the
  // session lapses; the store keeps its record a day longer.
  const t = useTestApp({ APP_ENV: 'dev', SESSION_IDLE_TIMEOUT_SECONDS: '10' });

  it('drops a session idle past the timeout, though the store still holds it', async () => {
    const start = gauge(await scrapeMetrics(t), 'live_sessions');
    const browser = new Browser();
    await signInVia(t, browser, 'b=psa');
    const sessionId = await jarCookie(browser, t.url, 'sessionId');
    await metricsUntil(t, 'one more session', (s) => gauge(s, 'live_sessions') === start + 1);
    await metricsUntil(t, 'it lapsed', (s) => gauge(s, 'live_sessions') === start, 30_000);
    expect(await t.app.get(Sessions).get(sessionId)).toBeDefined();
  }, 60_000);
});

describe('live_sessions on Redis', () => {
  let redis: RunningRedis | undefined;
  liveSessionCases(async () => {
    redis = await startRedis();
    return { APP_ENV: 'dev', SESSION_STORE: 'redis', REDIS_URL: redis.url };
  });
  afterAll(async () => {
    await redis?.stop();
  });
});

/**
 * revocation_queue_depth and revocations_abandoned_total: the service reaches its embedded IdP
 * through a balancer (PUBLIC_URL) that answers the revocation endpoint with a gateway 503, so the
 * sign-out's revocation is queued and every retry fails until it is given up (REVOCATION_RETRIES,
 * doubling from REVOCATION_RETRY_MS: about 26 s at 100 ms).
 */
describe('the revocation queue', () => {
  const proxy = new RoundRobinProxy();
  let t: TestApp;
  let publicUrl: string;
  beforeAll(async () => {
    publicUrl = `http://localhost:${await proxy.listen()}`;
    t = await startTestApp({ PUBLIC_URL: publicUrl, REVOCATION_RETRY_MS: '100' });
    proxy.backends = [t.url];
  }, 60_000);
  afterAll(async () => {
    await proxy.close();
    await t.close();
  });

  const logged = (event: string) => t.logs.records.filter((l) => l.event === event).length;

  it('shows the queued revocations, then counts them abandoned and the queue empty', async () => {
    const before = await scrapeMetrics(t);
    expect(gauge(before, 'revocation_queue_depth')).toBe(0);
    const browser = new Browser();
    await signInVia({ ...t, url: publicUrl }, browser, 'b=collectors');
    proxy.failing = (p) => p === '/oauth2/default/v1/revoke';
    await signOutFromThisSite(browser, `${publicUrl}/logout/collectorsid?b=collectors`);
    await eventually('the revocation queued', () =>
      Promise.resolve(logged('revocation-queued') > 0),
    );
    const queued = logged('revocation-queued');

    await metricsUntil(
      t,
      'the queue holds them',
      (s) => gauge(s, 'revocation_queue_depth') === queued,
    );
    const after = await metricsUntil(
      t,
      'every queued revocation given up',
      (s) =>
        valueOf(s, 'revocations_abandoned_total') -
          valueOf(before, 'revocations_abandoned_total') ===
          queued && gauge(s, 'revocation_queue_depth') === 0,
      60_000,
    );
    expect(logged('revocation-abandoned')).toBe(queued);
    expect(valueOf(after, 'revocations_abandoned_total')).toBe(queued);
    // Each retry did reach the balancer: nothing was given up without being tried.
    expect(proxy.hits.get('/oauth2/default/v1/revoke')).toBeGreaterThanOrEqual(queued * 9);
  }, 90_000);
});
