import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { BRANDS, type Brand } from '../shared/brand';
import { ERROR_STATUS } from '../errors/app-error';
import { processMetricsRegistry } from './process-metrics';
import { RoutedRequest, routeLabel } from './route-label';
import { ROUTES } from '../shared/routes';
import { SERVICE_VERSION } from '../config/service-identity';
import { Reading, ScrapedReading } from './scraped-reading';

const HTTP_DURATION = 'http_request_duration_seconds';
const HTTP_LABELS = ['method', 'route', 'status'] as const;
/** HTTP latency buckets (seconds): the hot redirects take about a millisecond, pages a few. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Store latency buckets (seconds): SQLite answers from memory in microseconds, Redis in about 1 ms. */
const STORE_BUCKETS = [
  0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1,
];

/**
 * §4 Token handling: refreshed, refused by the IdP, impossible (no refresh token), held back by the
 * IdP's rate limit (docs/okta.md "Rate limits": the session stays), or broke.
 */
export type RefreshOutcome = 'success' | 'refused' | 'no_refresh_token' | 'rate_limited' | 'error';
/** IdP call latency buckets (seconds): Okta answers in tens of ms; calls time out at 5 s. */
const IDP_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/**
 * How an HTTP call to the IdP ended (docs/operating.md "IdP calls"): a 2xx answer; a 4xx refusal
 * (an OAuth error, a rejected token); a 429; or an error (5xx, no answer, timed out).
 */
export type IdpCallOutcome = 'success' | 'refused' | 'rate_limited' | 'error';

/**
 * A brand's back-channel logout delivery (OIDC Back-Channel Logout 1.0 §2.5): one attempt the brand
 * took, one that failed and will be retried, or the delivery given up (its last attempt failed, or
 * the brand refused the token, which no retry changes).
 */
export const BACKCHANNEL_OUTCOMES = ['delivered', 'failed', 'abandoned'] as const;
export type BackchannelDeliveryOutcome = (typeof BACKCHANNEL_OUTCOMES)[number];
/** The SessionStore calls that are timed (close is not: it happens once, at shutdown). */
export const STORE_OPERATIONS = [
  'get',
  'set',
  'setIfAbsent',
  'replace',
  'take',
  'delete',
  'deleteIfEquals',
  'increment',
  'addMember',
  'removeMember',
  'members',
  'addExpiringMember',
  'removeExpiringMember',
  'countMembersAlive',
  'writeAll',
  'ping',
] as const;
export type StoreOperation = (typeof STORE_OPERATIONS)[number];

/** build_info's labels: what is running, fixed for the life of the process. */
const BUILD_LABELS = { version: SERVICE_VERSION, node_version: process.version } as const;

/** The `error` label of a success. */
export const NO_ERROR = 'none';
/** The `brand` label when a failed request named no valid brand. */
export const UNKNOWN_BRAND = 'unknown';
/** The `error` label of a failure whose code is not one of the service's fixed codes. */
export const OTHER_ERROR = 'Other';

/** Error codes the `error` label may carry: the §8 table, and the filter's bare 500. */
const ERROR_LABELS: ReadonlySet<string> = new Set([
  ...Object.keys(ERROR_STATUS),
  'InternalServerError',
]);
const BRAND_LABELS: ReadonlySet<string> = new Set(BRANDS);

/**
 * The sign-in and sign-out routes (§2): a failed request on one is counted as a failed sign-in or
 * sign-out, by its route pattern (routeLabel).
 */
export const AUTH_ROUTES: ReadonlyMap<string, 'signin' | 'signout'> = new Map([
  [ROUTES.signin, 'signin'],
  [ROUTES.loginLanding, 'signin'],
  [ROUTES.brandTokenLanding, 'signin'],
  [ROUTES.logout, 'signout'],
]);

/**
 * The service's Prometheus metrics (issue 7), in a registry of this app's own, not prom-client's
 * global one, so several apps in one process (tests) never share or clash. Every label value comes
 * from a fixed set (methods, route patterns, status codes, brands, error codes, outcomes, store
 * operations), never from tokens, ids or raw URLs.
 */
@Injectable()
export class AppMetrics {
  /** This app's metrics and the process's default metrics (shared, see processMetricsRegistry). */
  readonly registry: Registry = Registry.merge([processMetricsRegistry()]);

  readonly httpDuration = new Histogram({
    name: HTTP_DURATION,
    help: 'Time from the request reaching the app to the last byte of the response, in seconds.',
    labelNames: HTTP_LABELS,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });

  /**
   * Derived from the duration histogram's counts when scraped: a request is recorded once, by one
   * histogram observation, and the two can never disagree.
   */
  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: HTTP_LABELS,
    registers: [this.registry],
    collect: () => this.countRequests(),
  });

  readonly signins = new Counter({
    name: 'signins_total',
    help: 'Sign-ins (§4 After login step 1) and failed sign-in requests, by brand, outcome and error code.',
    labelNames: ['brand', 'outcome', 'error'] as const,
    registers: [this.registry],
  });

  readonly signouts = new Counter({
    name: 'signouts_total',
    help: 'Sign-outs (§4 Sign-out) by brand, outcome (success, no_session, failure) and error code.',
    labelNames: ['brand', 'outcome', 'error'] as const,
    registers: [this.registry],
  });

  readonly tokenRefreshes = new Counter({
    name: 'token_refreshes_total',
    help: 'Access-token refreshes with the refresh token (§4 Token handling), by outcome.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly storeDuration = new Histogram({
    name: 'session_store_operation_seconds',
    help: 'Session store call latency in seconds, by operation and store kind (sqlite, redis).',
    labelNames: ['operation', 'store'] as const,
    buckets: STORE_BUCKETS,
    registers: [this.registry],
  });

  readonly storeErrors = new Counter({
    name: 'session_store_errors_total',
    help: 'Session store calls that failed, by operation and store kind.',
    labelNames: ['operation', 'store'] as const,
    registers: [this.registry],
  });

  /**
   * Issue 31 item 3: whether the IdP answers, as this instance last saw it (src/oidc/idp-status.ts):
   * 1 up, 0 down. An outage is an alert on this, never a readiness failure.
   */
  readonly idpUp = new Gauge({
    name: 'idp_up',
    help: 'Whether the IdP answered this instance last time it was asked (1) or not (0).',
    registers: [this.registry],
  });

  readonly idpOutages = new Counter({
    name: 'idp_outages_total',
    help: 'Times this instance saw the IdP go from answering to not answering.',
    registers: [this.registry],
  });

  // IdP calls (src/oidc/idp-calls.ts, docs/operating.md "IdP calls"). The endpoint label is one of
  // IDP_ENDPOINTS (discovery, token, userinfo, revocation), never a URL.
  readonly idpRequestDuration = new Histogram({
    name: 'idp_request_duration_seconds',
    help: 'HTTP calls to the IdP in seconds, by endpoint and outcome.',
    labelNames: ['endpoint', 'outcome'] as const,
    buckets: IDP_BUCKETS,
    registers: [this.registry],
  });

  readonly idpRateLimited = new Counter({
    name: 'idp_rate_limited_total',
    help: 'IdP calls answered 429, and calls not made while the endpoint was rate-limited.',
    labelNames: ['endpoint'] as const,
    registers: [this.registry],
  });

  // ---- On-call metrics (docs/operating.md "On-call metrics"): the revocation queue, back-channel
  // deliveries, live sessions and the build. The two store gauges are read from the session store
  // when scraped (ScrapedReading), so every instance reports the same, shared number.

  private revocationQueueReading: ScrapedReading | undefined;
  private liveSessionsReading: ScrapedReading | undefined;

  readonly revocationQueueDepth: Gauge = new Gauge({
    name: 'revocation_queue_depth',
    help: 'Refresh-token revocations queued in the session store until the IdP answers (shared).',
    registers: [this.registry],
    collect: (): Promise<void> =>
      collectReading(this.revocationQueueDepth, this.revocationQueueReading),
  });

  readonly revocationsAbandoned = new Counter({
    name: 'revocations_abandoned_total',
    help: 'Queued refresh-token revocations given up after their retries (the token stays valid).',
    registers: [this.registry],
  });

  readonly backchannelDeliveries = new Counter({
    name: 'backchannel_logout_deliveries_total',
    help: 'Back-channel logout attempts to brands: delivered, failed (retried) or abandoned.',
    labelNames: ['brand', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly liveSessions: Gauge = new Gauge({
    name: 'live_sessions',
    help: 'Sessions in the session store that have not lapsed (shared by every instance).',
    registers: [this.registry],
    collect: (): Promise<void> => collectReading(this.liveSessions, this.liveSessionsReading),
  });

  readonly buildInfo: Gauge<'version' | 'node_version'> = new Gauge({
    name: 'build_info',
    help: 'Always 1: the running build (package.json version) and Node.js version, as labels.',
    labelNames: ['version', 'node_version'] as const,
    registers: [this.registry],
    // Set when scraped: the labels never change, and a reset registry still reports the build.
    collect: (): void => this.buildInfo.set(BUILD_LABELS, 1),
  });

  /** How revocation_queue_depth is read (the revocation queue registers it). */
  watchRevocationQueue(read: Reading): void {
    this.revocationQueueReading = new ScrapedReading(read);
  }

  /** How live_sessions is read (the sessions register it). */
  watchLiveSessions(read: Reading): void {
    this.liveSessionsReading = new ScrapedReading(read);
  }

  revocationAbandoned(): void {
    this.revocationsAbandoned.inc();
  }

  backchannelDelivery(brand: Brand, outcome: BackchannelDeliveryOutcome): void {
    this.backchannelDeliveries.inc({ brand, outcome });
  }

  /**
   * Exports every outcome of these brands at 0 from the start: Prometheus's increase() and rate()
   * see nothing of a series' first sample, so a series that first appeared at 1 (the first
   * abandoned delivery) would never fire an alert on it.
   */
  backchannelBrands(brands: readonly Brand[]): void {
    for (const brand of brands)
      for (const outcome of BACKCHANNEL_OUTCOMES)
        this.backchannelDeliveries.inc({ brand, outcome }, 0);
  }

  // ---- end of the on-call metrics.

  private async countRequests(): Promise<void> {
    const { values } = await this.httpDuration.get();
    const countName = `${HTTP_DURATION}_count`;
    this.httpRequests.reset();
    for (const { metricName, labels, value } of values)
      if (metricName === countName) this.httpRequests.inc(labels, value);
  }

  signin(brand: Brand): void {
    this.signins.inc({ brand, outcome: 'success', error: NO_ERROR });
  }

  signout(brand: Brand, hadSession: boolean): void {
    this.signouts.inc({
      brand,
      outcome: hadSession ? 'success' : 'no_session',
      error: NO_ERROR,
    });
  }

  tokenRefresh(outcome: RefreshOutcome): void {
    this.tokenRefreshes.inc({ outcome });
  }

  /**
   * A request that ended in an error (called by the exception filter with the error code it
   * answered): on a sign-in or sign-out route it is a failed sign-in or sign-out. The brand is the
   * request's `b` when it names one (the landings carry none: `unknown`).
   */
  requestFailed(req: RoutedRequest & { readonly query?: unknown }, error: string): void {
    const kind = AUTH_ROUTES.get(routeLabel(req));
    if (!kind) return;
    const b = (req.query as Record<string, unknown> | undefined)?.b;
    const brand =
      typeof b === 'string' && BRAND_LABELS.has(b.toLowerCase()) ? b.toLowerCase() : UNKNOWN_BRAND;
    const labels = {
      brand,
      outcome: 'failure',
      error: ERROR_LABELS.has(error) ? error : OTHER_ERROR,
    } as const;
    (kind === 'signin' ? this.signins : this.signouts).inc(labels);
  }
}

/**
 * A gauge read when scraped: the reading's value, or no sample at all when there is no reading (not
 * watched) or it failed. A made-up 0 would read as "the queue is empty" while the store is down.
 */
async function collectReading(gauge: Gauge, reading: ScrapedReading | undefined): Promise<void> {
  const value = await reading?.get();
  if (value === undefined) gauge.remove();
  else gauge.set(value);
}
