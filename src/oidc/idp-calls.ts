import { Inject, Injectable } from '@nestjs/common';
import { AppLogger } from '../logging/app-logger';
import { AppMetrics, type IdpCallOutcome } from '../metrics';
import { SESSION_STORE, SessionStore } from '../store/session-store';
import type { FetchFunction } from '../tracing';
import { IDP_ENDPOINTS, IdpEndpoint, IdpRateLimited, blockedUntil } from './idp-rate-limit';

/** The store key of an endpoint's block: shared by every instance on the store. */
const blockKey = (endpoint: IdpEndpoint): string => `idp-ratelimit:${endpoint}`;

/** Paths of a discovery document (OIDC Discovery §4, RFC 8414 §3). */
const DISCOVERY_PATH = /\/\.well-known\/(openid-configuration|oauth-authorization-server)$/;

/** The discovered metadata that names the endpoints this service calls. */
const METADATA_ENDPOINTS: ReadonlyArray<readonly [string, IdpEndpoint]> = [
  ['token_endpoint', 'token'],
  ['userinfo_endpoint', 'userinfo'],
  ['revocation_endpoint', 'revocation'],
];

const addressOf = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
};

/**
 * Every HTTP call this service makes to the IdP passes here (OidcClient and IdpStatus hand their
 * fetch through `fetch`), for two things docs/okta.md "Rate limits" and docs/operating.md
 * "IdP calls" describe:
 * - each call is timed in `idp_request_duration_seconds{endpoint,outcome}`;
 * - an endpoint that answers 429 gets no call until the time its answer names (blockedUntil), on
 *   any instance: the block is kept in the session store, which every instance shares. A call made
 *   while it holds is not sent; it fails at once with IdpRateLimited. Both count in
 *   `idp_rate_limited_total{endpoint}`. Okta's buckets are shared by every app of the org, so
 *   calling on would use up the other apps' share too.
 *
 * An in-process copy of each block spares the store read while it holds: a block only ever ends at
 * its time (no call lifts it early), so a copy is never wrong before then. A call with no block in
 * the copy reads the store once (one read beside an HTTPS call to the IdP). When the store cannot
 * be read the call goes ahead: the block spares the IdP, it must not become an outage of its own.
 */
@Injectable()
export class IdpCalls {
  /** Known blocks: until when (epoch ms) each endpoint gets no call. */
  private readonly blocks = new Map<IdpEndpoint, number>();
  /** The endpoints' addresses (origin and path), learnt from the discovery documents read. */
  private readonly endpoints = new Map<string, IdpEndpoint>();

  constructor(
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    private readonly metrics: AppMetrics,
    private readonly logger: AppLogger,
  ) {
    this.logger.setContext(IdpCalls.name);
    // Each endpoint's series exists from the start at 0: Prometheus's increase() sees no rise in a
    // series whose first sample is already 1, so a fresh pod's first 429 would never alert.
    for (const endpoint of IDP_ENDPOINTS) this.metrics.idpRateLimited.inc({ endpoint }, 0);
  }

  /** `inner` (the plain or the traced fetch), guarded and measured for the IdP's endpoints. */
  fetch(inner: FetchFunction): FetchFunction {
    return async (url, init) => {
      const endpoint = this.endpointOf(url);
      if (!endpoint) return inner(url, init);
      const blocked = await this.blockedUntil(endpoint);
      if (blocked !== undefined) {
        this.metrics.idpRateLimited.inc({ endpoint });
        throw new IdpRateLimited(endpoint, blocked, true);
      }
      const stop = this.metrics.idpRequestDuration.startTimer({ endpoint });
      let response: Response;
      try {
        response = await inner(url, init);
      } catch (error) {
        stop({ outcome: 'error' });
        throw error;
      }
      stop({ outcome: outcomeOf(response.status) });
      if (response.status === 429) {
        await response.body?.cancel().catch(() => undefined);
        throw await this.rateLimited(endpoint, response);
      }
      if (endpoint === 'discovery' && response.ok) await this.learn(url, response);
      return response;
    };
  }

  /** Until when (epoch ms) the endpoint gets no call, or undefined when it may be called. */
  async blockedUntil(endpoint: IdpEndpoint, now = Date.now()): Promise<number | undefined> {
    const known = this.blocks.get(endpoint);
    if (known !== undefined && known > now) return known;
    const stored = await this.store.get(blockKey(endpoint)).catch(() => undefined);
    const until = stored === undefined ? NaN : Number(stored);
    if (!(until > now)) return undefined;
    this.blocks.set(endpoint, until);
    return until;
  }

  private endpointOf(url: string): IdpEndpoint | undefined {
    const address = addressOf(url);
    if (DISCOVERY_PATH.test(address)) return 'discovery';
    return this.endpoints.get(address);
  }

  /** Records the IdP's 429: the block, here and in the store, and one warn line when it begins. */
  private async rateLimited(endpoint: IdpEndpoint, response: Response): Promise<IdpRateLimited> {
    const now = Date.now();
    const until = blockedUntil(
      {
        'x-rate-limit-reset': response.headers.get('x-rate-limit-reset'),
        'retry-after': response.headers.get('retry-after'),
        date: response.headers.get('date'),
      },
      now,
    );
    this.metrics.idpRateLimited.inc({ endpoint });
    const known = this.blocks.get(endpoint);
    this.blocks.set(endpoint, Math.max(until, known ?? 0));
    if (known === undefined || known <= now) {
      this.logger.warn(
        {
          event: 'idp-rate-limited',
          endpoint,
          until: new Date(until).toISOString(),
          limit: response.headers.get('x-rate-limit-limit') ?? undefined,
        },
        `the IdP rate-limits its ${endpoint} endpoint: no call to it until then`,
      );
    }
    const ttlSeconds = Math.max(1, Math.ceil((until - now) / 1000));
    await this.store
      .set(blockKey(endpoint), String(until), ttlSeconds)
      .catch((error: unknown) =>
        this.logger.warn(
          { endpoint, cause: error instanceof Error ? error.message : 'store failed' },
          'the IdP rate limit could not be shared through the session store',
        ),
      );
    return new IdpRateLimited(endpoint, until, false);
  }

  /** The addresses of the endpoints a discovery document names. */
  private async learn(url: string, response: Response): Promise<void> {
    try {
      const metadata = (await response.clone().json()) as Record<string, unknown>;
      for (const [field, endpoint] of METADATA_ENDPOINTS) {
        const address = metadata[field];
        if (typeof address === 'string' && URL.canParse(address))
          this.endpoints.set(addressOf(address), endpoint);
      }
    } catch {
      // Not JSON: openid-client refuses the document itself and says why.
      this.logger.debug({ url: addressOf(url) }, 'the discovery document could not be read');
    }
  }
}

function outcomeOf(status: number): IdpCallOutcome {
  if (status >= 200 && status < 300) return 'success';
  if (status === 429) return 'rate_limited';
  if (status >= 400 && status < 500) return 'refused';
  return 'error';
}
