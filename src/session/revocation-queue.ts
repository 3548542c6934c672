import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig, ClientCredentials } from '../config/app-config';
import type { Brand } from '../shared/brand';
import { pooledRandomBytes } from '../common/random-bytes';
import { errorSummary } from '../errors/error-summary';
import { AppLogger } from '../logging/app-logger';
import { AppMetrics } from '../metrics';
import { IdpError, OidcClient } from '../oidc/oidc-client';
import { SESSION_STORE, SessionStore } from '../store/session-store';
import { TokenVault } from '../store/token-vault';

/** Attempts after the first failed one: with doubling delays from the base, about 2 h at 30 s. */
export const REVOCATION_RETRIES = 8;
/** How long a queued revocation may wait at most: a refresh token this old is worthless anyway. */
const ENTRY_TTL_SECONDS = 24 * 3600;
const PENDING = 'revocations:pending';
const LOCK = 'revocations:lock';

interface Entry {
  /** The refresh token, sealed with the token vault (tokens at rest are encrypted, issue 15 item 9). */
  readonly sealed: string;
  /**
   * The brand whose client the token was issued to (docs/brand-contract.md §1); this service's own
   * without.
   */
  readonly brand?: Brand;
  /** Failed retries so far (the first, failed revocation not counted). */
  readonly retries: number;
  /** When the next try is due (ms since the epoch). */
  readonly dueAt: number;
}

/** The delay before retry n (1-based): base, 2 x base, 4 x base, … */
export function revocationDelayMs(retry: number, baseMs: number): number {
  return baseMs * 2 ** (retry - 1);
}

/**
 * Issue 31 item 3: a refresh token whose revocation failed at sign-out because the IdP did not answer
 * is revoked later, from a queue in the session store (durable, and shared by every instance), until
 * the IdP takes it or REVOCATION_RETRIES retries have failed. Each retry doubles the delay from
 * REVOCATION_RETRY_MS. A refusal (the IdP answered: RFC 7009 §2.2 has it answer 200 even for a token
 * it does not know) ends the entry: there is nothing left to revoke. One instance drains at a time (a
 * lock in the store). The queue is drained every REVOCATION_RETRY_MS by a timer that does not keep the
 * process alive.
 */
@Injectable()
export class RevocationQueue implements OnModuleInit, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    private readonly vault: TokenVault,
    private readonly oidc: OidcClient,
    private readonly logger: AppLogger,
    private readonly metrics: AppMetrics,
  ) {
    this.logger.setContext(RevocationQueue.name);
    // revocation_queue_depth is read from the store when scraped: the queue is shared by every
    // instance, so a count kept by one would miss what the others queued and drained.
    metrics.watchRevocationQueue(() => this.pending());
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.drain(), this.config.idp.revocationRetryMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.draining;
  }

  /**
   * Revokes a refresh token now, as the client it was issued to (RFC 7009 §2.1: a client may revoke
   * only its own tokens): a brand's grant with the brand's credentials, this service's own with its
   * own. A failure never throws: when the IdP did not answer, the token is queued and tried again; a
   * refusal is only logged.
   */
  async revoke(refreshToken: string, brand?: Brand): Promise<void> {
    await this.oidc.revoke(refreshToken, this.clientOf(brand)).catch(async (error: unknown) => {
      this.logger.warn(
        { cause: errorSummary(error), ...(brand ? { brand } : {}) },
        'refresh token revocation failed',
      );
      // Rate-limited too (docs/okta.md "Rate limits"): queued, and tried once the limit has passed.
      if (error instanceof IdpError && error.undecided)
        await this.add(refreshToken, Date.now(), brand, error.rateLimit?.until);
    });
  }

  /** The credentials of the client a token was issued to. */
  private clientOf(brand: Brand | undefined): ClientCredentials {
    return (brand ? this.config.brandClients[brand] : undefined) ?? this.oidc.serviceClient;
  }

  /** Queues a refresh token whose revocation failed because the IdP did not answer. */
  async add(
    refreshToken: string,
    now = Date.now(),
    brand?: Brand,
    /** Not before this (epoch ms): the end of the IdP's rate limit on revocation. */
    notBefore = 0,
  ): Promise<void> {
    const id = pooledRandomBytes(16).toString('base64url');
    const key = `revocation:${id}`;
    const entry: Entry = {
      sealed: this.vault.seal(refreshToken, key),
      ...(brand ? { brand } : {}),
      retries: 0,
      dueAt: Math.max(notBefore, now + revocationDelayMs(1, this.config.idp.revocationRetryMs)),
    };
    await this.store.set(key, JSON.stringify(entry), ENTRY_TTL_SECONDS);
    await this.store.addMember(PENDING, id, ENTRY_TTL_SECONDS);
    this.logger.warn({ event: 'revocation-queued' }, 'refresh token revocation queued for retry');
  }

  /**
   * How many revocations wait (revocation_queue_depth). The set's members are listed: the queue is
   * empty while the IdP answers and holds one entry per sign-out during an outage, and a scrape
   * reads it at most once per READING_REUSE_MS (src/metrics/scraped-reading.ts).
   */
  async pending(): Promise<number> {
    return (await this.store.members(PENDING)).length;
  }

  /** Tries every due entry once; never throws. */
  drain(now = Date.now()): Promise<void> {
    this.draining ??= this.drainOnce(now)
      .catch((error: unknown) =>
        this.logger.warn({ cause: errorSummary(error) }, 'revocation queue could not be drained'),
      )
      .finally(() => (this.draining = undefined));
    return this.draining;
  }

  private async drainOnce(now: number): Promise<void> {
    const holder = pooledRandomBytes(16).toString('base64url');
    const lockSeconds = Math.max(5, Math.ceil((2 * this.config.idp.revocationRetryMs) / 1000));
    if (!(await this.store.setIfAbsent(LOCK, holder, lockSeconds))) return;
    try {
      for (const id of await this.store.members(PENDING)) await this.retry(id, now);
    } finally {
      await this.store.deleteIfEquals(LOCK, holder);
    }
  }

  private async retry(id: string, now: number): Promise<void> {
    const key = `revocation:${id}`;
    const raw = await this.store.get(key);
    const entry = raw ? (JSON.parse(raw) as Entry) : undefined;
    const token = entry ? this.vault.open(entry.sealed, key) : undefined;
    if (!entry || token === undefined) return this.forget(id, key);
    if (entry.dueAt > now) return;
    const retries = entry.retries + 1;
    try {
      await this.oidc.revoke(token, this.clientOf(entry.brand));
      this.logger.info({ event: 'revocation-retried', retries }, 'queued revocation done');
      return this.forget(id, key);
    } catch (error) {
      if (error instanceof IdpError && error.rateLimit) {
        // Not a failure of the IdP: the retry is not counted, and waits for the limit to pass.
        const later: Entry = { ...entry, dueAt: Math.max(error.rateLimit.until, now + 1) };
        return this.store.set(key, JSON.stringify(later), ENTRY_TTL_SECONDS);
      }
      if (!(error instanceof IdpError) || !error.outage) {
        // The IdP answered: there is nothing more to ask of it.
        this.logger.warn({ retries, cause: errorSummary(error) }, 'queued revocation refused');
        return this.forget(id, key);
      }
      if (retries >= REVOCATION_RETRIES) {
        this.metrics.revocationAbandoned();
        this.logger.error(
          { event: 'revocation-abandoned', retries, cause: errorSummary(error) },
          'queued revocation given up: the refresh token stays valid until it expires at the IdP',
        );
        return this.forget(id, key);
      }
      const next: Entry = {
        ...entry,
        retries,
        dueAt: now + revocationDelayMs(retries + 1, this.config.idp.revocationRetryMs),
      };
      await this.store.set(key, JSON.stringify(next), ENTRY_TTL_SECONDS);
    }
  }

  private async forget(id: string, key: string): Promise<void> {
    await this.store.delete(key);
    await this.store.removeMember(PENDING, id);
  }
}
