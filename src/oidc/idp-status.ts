import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { errorSummary } from '../errors/error-summary';
import { AppLogger } from '../logging/app-logger';
import { AppMetrics } from '../metrics';
import type { FetchFunction } from '../tracing';
import { IdpCalls } from './idp-calls';
import { rateLimitOf } from './idp-rate-limit';

/** How old the last word about the IdP may be before /healthz has it asked again. */
export const IDP_PROBE_INTERVAL_MS = 10_000;
/** A probe that takes longer than this counts as the IdP not answering. */
const PROBE_TIMEOUT_MS = 2_000;

export interface IdpState {
  readonly status: 'up' | 'down' | 'unknown';
  /** Why it is down: the cause's messages, never a token or a credential. */
  readonly error?: string;
  /** When it entered this status (ISO 8601). */
  readonly since?: string;
}

/**
 * Whether the IdP answers, as this instance sees it (issue 31 item 3, docs/design.md "Real components").
 * Readiness reports only what replacing this instance could fix; an IdP outage is the same for every
 * instance, and taking them all out of the balancer would swap this service's own 502 page for the
 * ingress's bare 503. So it is shown instead:
 * - in /healthz's details (the cached state: the probe never waits on the IdP);
 * - as the `idp_up` gauge and `idp_outages_total` counter;
 * - as one log line at each change: error when it goes down, info when it is back.
 *
 * It learns from every real call to the IdP (OidcClient reports each outcome) and, when nothing has
 * been heard for IDP_PROBE_INTERVAL_MS, from a background read of the discovery document that a
 * /healthz request starts (Kubernetes polls it every few seconds; no timer of our own runs).
 * The embedded IdP is part of this process and is not watched.
 */
@Injectable()
export class IdpStatus {
  private state: IdpState = { status: 'unknown' };
  private heardAt = 0;
  private probing: Promise<void> | undefined;
  readonly watched: boolean;
  /** The probe's fetch: timed, and held back while discovery is rate-limited, as every IdP call. */
  private readonly fetch: FetchFunction;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: AppMetrics,
    private readonly logger: AppLogger,
    calls: IdpCalls,
  ) {
    this.logger.setContext(IdpStatus.name);
    this.watched = config.idp.mode === 'external';
    // The embedded IdP answers whenever this process does: 1, so no IdP alert fires on it.
    if (!this.watched) this.metrics.idpUp.set(1);
    this.fetch = calls.fetch((url, init) => fetch(url, init as RequestInit));
  }

  /** The last word; asks the IdP in the background when it is stale. */
  current(now = Date.now()): IdpState {
    if (this.watched && !this.probing && now - this.heardAt >= IDP_PROBE_INTERVAL_MS) {
      this.probing = this.probe().finally(() => (this.probing = undefined));
    }
    return this.state;
  }

  /** For tests and shutdown: the probe in flight, if any. */
  settled(): Promise<void> {
    return this.probing ?? Promise.resolve();
  }

  /**
   * An outcome of a real call: it answered (any OAuth answer counts), or it did not. A 429 is an
   * answer (docs/okta.md "Rate limits": the IdP is up, and says to wait); a call not made because
   * of an earlier 429 says nothing new.
   */
  report(answered: boolean, error?: unknown, now = Date.now()): void {
    if (!this.watched) return;
    const rateLimit = rateLimitOf(error);
    if (rateLimit?.local) return;
    this.heardAt = now;
    const was = this.state.status;
    if (answered || rateLimit) {
      this.metrics.idpUp.set(1);
      if (was === 'up') return;
      this.state = { status: 'up', since: new Date(now).toISOString() };
      if (was === 'down') this.logger.info({ event: 'idp-up' }, 'the IdP answers again');
      return;
    }
    const cause = errorSummary(error).slice(0, 200) || 'no answer';
    this.metrics.idpUp.set(0);
    if (was === 'down') {
      this.state = { ...this.state, error: cause };
      return;
    }
    this.state = { status: 'down', error: cause, since: new Date(now).toISOString() };
    this.metrics.idpOutages.inc();
    this.logger.error({ event: 'idp-down', cause }, 'the IdP does not answer');
  }

  /** Reads the discovery document: it answers, and names the configured issuer. */
  private async probe(): Promise<void> {
    const issuer = this.config.idp.issuer;
    try {
      const res = await this.fetch(`${issuer}/.well-known/openid-configuration`, {
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
        headers: { accept: 'application/json' },
      });
      if (!res.ok) throw new Error(`discovery answered HTTP ${res.status}`);
      const doc = (await res.json()) as { issuer?: unknown };
      if (doc.issuer !== issuer) throw new Error('the discovery document names another issuer');
      this.report(true);
    } catch (error) {
      this.report(false, error);
    }
  }
}
