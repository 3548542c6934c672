import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppLogger } from '../logging/app-logger';
import { AppMetrics } from '../metrics';
import { randomUUID } from 'node:crypto';
import type { Brand } from '../shared/brand';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { SESSION_STORE, SessionStore } from '../store/session-store';
import { SessionEndNotifier, SessionEnding } from '../session/session-ending';
import type { OwedLogout } from '../session/owed-logouts';
import { LOGOUT_TOKEN_TYPE, LogoutTokenSubject, logoutTokenClaims } from './logout-token';
import { ServiceSigningKey } from './service-signing-key';
import { ATTRIBUTES, FetchFunction, SPANS, activeTracer, tracedFetch } from '../tracing';

/** Attempts per brand: the first at once, then after the base delay, 4x and 16x that. */
export const DELIVERY_ATTEMPTS = 4;
const REQUEST_TIMEOUT_MS = 5000;
/** How long the delivery record of one logout is kept for support and audits. */
const DELIVERY_RECORD_TTL_SECONDS = 7 * 24 * 3600;
/** How long shutdown waits for deliveries still retrying. */
const SHUTDOWN_WAIT_MS = 5000;

export interface DeliveryOutcome {
  readonly brand: Brand;
  readonly delivered: boolean;
  readonly attempts: number;
  /** The brand's last HTTP status, or undefined when it could not be reached. */
  readonly status?: number;
}

/** Whether another attempt may succeed: not when the brand refused the token itself (400). */
export function isRetryable(status: number | undefined): boolean {
  return status === undefined || status >= 500 || status === 429 || status === 408;
}

/** The delay before attempt n (2-based): base, 4 x base, 16 x base. */
export function retryDelayMs(attempt: number, baseMs: number): number {
  return baseMs * 4 ** (attempt - 2);
}

/**
 * When a session ends, each brand it handed a session or tokens to (docs/brand-contract.md §7,
 * src/session/owed-logouts.ts) gets a signed logout token, if it registered a back-channel logout URL
 * (OIDC Back-Channel Logout 1.0 §2.5: POSTed as `logout_token`), with retries and backoff. Its `aud`
 * is the brand's client id, its `sub` the collector's user id, its `sid` the `si` the brand received
 * (none for an app, which received no session). Each brand's delivery is logged and recorded in the
 * store under its token's jti (one per brand and ending). Sign-out never waits for the brands: delivery
 * runs beside it.
 */
@Injectable()
export class BackchannelNotifier
  implements OnApplicationShutdown, OnModuleInit, SessionEndNotifier
{
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly tracer = activeTracer();
  /**
   * Issue 17 item 2: with tracing on, each POST is a client span whose trace context the brand
   * receives; the plain fetch otherwise.
   */
  private readonly fetch: FetchFunction = this.tracer.enabled
    ? tracedFetch(this.tracer)
    : (url, init) => fetch(url, init as RequestInit);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    private readonly key: ServiceSigningKey,
    private readonly logger: AppLogger,
    private readonly ending: SessionEnding,
    private readonly metrics: AppMetrics,
  ) {
    this.logger.setContext(BackchannelNotifier.name);
  }

  /** Every session ending from now on sends logout tokens (session-ending.ts's port). */
  onModuleInit(): void {
    this.ending.addNotifier(this);
    this.metrics.backchannelBrands(brandsWithUri(this.config.backchannel.uris));
  }

  sessionEnded(ended: { readonly sub: string; readonly owed: readonly OwedLogout[] }): void {
    void this.notify(ended.sub, ended.owed);
  }

  /**
   * Starts delivery to each owed brand that registered a URL and has a client (qa and prod refuse a
   * URL without one at start); the promise is for tests and shutdown only.
   */
  notify(sub: string, owed: readonly OwedLogout[]): Promise<DeliveryOutcome[]> {
    const due = owed.filter(({ brand }) => this.config.backchannel.uris[brand] !== undefined);
    if (due.length === 0) return Promise.resolve([]);
    // Each brand's token has a jti of its own (RFC 7519 §4.1.7: unique per token), kept across its
    // retries: a back end that serves several clients and takes each jti once refuses none of them.
    const delivery = Promise.all(
      due.map(async ({ brand, sid }) => {
        const jti = randomUUID();
        const outcome = await this.deliver(brand, { sub, ...(sid ? { sid } : {}) }, jti);
        await this.record(jti, [outcome]);
        return outcome;
      }),
    );
    const tracked = delivery.catch((error: unknown) => {
      this.logger.error({ err: error }, 'back-channel logout delivery failed');
      return [];
    });
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
    return tracked;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.inFlight.size === 0) return;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref()),
    ]);
  }

  /**
   * One brand's delivery, with its retries, as one span (issue 17 item 2): a child of the request
   * that ended the session, each attempt's POST a client span inside it.
   */
  private deliver(
    brand: Brand,
    subject: LogoutTokenSubject,
    jti: string,
  ): Promise<DeliveryOutcome> {
    return this.tracer.inSpan(
      SPANS.backchannelDelivery,
      { attributes: { [ATTRIBUTES.brand]: brand, [ATTRIBUTES.logoutJti]: jti } },
      async (span) => {
        const outcome = await this.attempt(brand, subject, jti);
        span.setAttributes({
          [ATTRIBUTES.deliveryAttempts]: outcome.attempts,
          [ATTRIBUTES.delivered]: outcome.delivered,
          'http.response.status_code': outcome.status,
        });
        if (!outcome.delivered) span.fail('logout not delivered');
        return outcome;
      },
    );
  }

  private async attempt(
    brand: Brand,
    subject: LogoutTokenSubject,
    jti: string,
  ): Promise<DeliveryOutcome> {
    const uri = this.config.backchannel.uris[brand];
    // The token's audience is the brand's client id, never anything else (docs/brand-contract.md
    // §7).
    const audience = this.config.brandClients[brand]?.clientId;
    if (!uri || !audience) {
      this.logger.warn(
        { event: 'backchannel-logout', brand, jti },
        'logout not sent: the brand has no client in BRAND_CLIENTS',
      );
      this.metrics.backchannelDelivery(brand, 'abandoned');
      return { brand, delivered: false, attempts: 0 };
    }
    let status: number | undefined;
    let attempts = 0;
    for (let attempt = 1; attempt <= DELIVERY_ATTEMPTS; attempt++) {
      attempts = attempt;
      if (attempt > 1) {
        await new Promise((r) =>
          setTimeout(r, retryDelayMs(attempt, this.config.backchannel.retryBaseMs)),
        );
      }
      // A fresh token per attempt (same jti): each is valid for two minutes from its own iat.
      const token = await this.key.sign(
        logoutTokenClaims(
          this.config.http.publicUrl,
          audience,
          subject,
          Math.floor(Date.now() / 1000),
          jti,
        ),
        LOGOUT_TOKEN_TYPE,
      );
      status = await post(this.fetch, uri, token);
      if (status !== undefined && status >= 200 && status < 300) {
        this.logger.info({ event: 'backchannel-logout', brand, jti, attempt }, 'logout delivered');
        this.metrics.backchannelDelivery(brand, 'delivered');
        return { brand, delivered: true, attempts: attempt, status };
      }
      if (!isRetryable(status) || attempt === DELIVERY_ATTEMPTS) break;
      // This attempt failed and another follows; the last failure counts as abandoned below.
      this.metrics.backchannelDelivery(brand, 'failed');
    }
    this.metrics.backchannelDelivery(brand, 'abandoned');
    this.logger.warn(
      { event: 'backchannel-logout', brand, jti, status: status ?? 'unreachable' },
      'logout not delivered',
    );
    return {
      brand,
      delivered: false,
      attempts,
      ...(status !== undefined ? { status } : {}),
    };
  }

  private async record(jti: string, outcomes: readonly DeliveryOutcome[]): Promise<void> {
    await this.store.set(
      `backchannel-delivery:${jti}`,
      JSON.stringify({ at: new Date().toISOString(), outcomes }),
      DELIVERY_RECORD_TTL_SECONDS,
    );
  }
}

/** The brands that registered a back-channel logout URL. */
function brandsWithUri(uris: AppConfig['backchannel']['uris']): Brand[] {
  return (Object.keys(uris) as Brand[]).filter((brand) => uris[brand] !== undefined);
}

/** POSTs the token; the brand's status, or undefined when it could not be reached in time. */
async function post(fetch: FetchFunction, uri: string, token: string): Promise<number | undefined> {
  try {
    const res = await fetch(uri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: token }).toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    await res.body?.cancel();
    return res.status;
  } catch {
    return undefined;
  }
}
