import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AppError } from '../errors/app-error';
import type { Brand } from '../shared/brand';
import type { PendingStep } from '../shared/pending-step';
import { bindingHashOf, matchesBinding } from '../session/browser-binding';
import { OneTimeStore, randomKey } from '../store/one-time-store';
import { SESSION_STORE, SessionStore, StoreSet } from '../store/session-store';
import { TokenVault } from '../store/token-vault';
import { activeTracer } from '../tracing';
import { type JourneyContext, MAX_JOURNEY_BYTES, journeyBytes } from './journey';
import { loginStateBudget, loginStateCost } from './login-state-budget';

/** A sign-in round trip at the IdP must finish within this time. */
export const LOGIN_STATE_TTL_SECONDS = 600;

/** The cookie that binds a pending sign-in to the browser that started it (RFC 9700 §4.7.1). */
export const BINDING_COOKIE = 'signinBinding' as const;

/**
 * What the service remembers between sending the collector to the IdP and the landing: the journey
 * context, the PKCE verifier and nonce, and a hash of the browser binding (RFC 9700 §4.7.1: state
 * bound to the user agent). Kept server-side under the OIDC `state`, used once.
 */
/**
 * A brand hop waiting for its own grant (issue 31 item 4): where the tokens of the silent
 * authorization go once the IdP has sent them. Made by this service from its own decision (the
 * target and return URL passed the redirect policy then); kept server-side, never from the browser.
 */
export interface BrandHop {
  /** The collector the tokens must be for: the session's subject. */
  readonly sub: string;
  /** The session id the brand receives as `si` (also the browser's new sessionId), if any. */
  readonly sessionId?: string;
  /** The browser's session that remembers the brand's refresh token, revoked when it signs out. */
  readonly recordIn?: string;
  readonly target: string;
  readonly returnUrl?: string;
  readonly handoff: 'tokens-in-url' | 'handoff-code';
  readonly clearTokenCookies: boolean;
  /** The sign-in the hop belongs to: its handed-over tokens end with it (issue 32 item 2). */
  readonly family?: string;
  /**
   * The collector's name as the session knows it, recorded with the handed-over token so that a
   * confirmation page can name the account (docs/security.md, a look-alike account).
   */
  readonly name?: string;
  /**
   * The hash of the browser's session binding: one live grant per brand there
   * (docs/brand-contract.md §6).
   */
  readonly browser?: string;
}

export interface PendingLogin {
  /** token: a sign-in; brand: the brand code redirect; brand-grant: a brand hop's own tokens. */
  readonly kind: 'token' | 'brand' | 'brand-grant';
  readonly brandHop?: BrandHop;
  readonly journey: JourneyContext;
  readonly verifier?: string;
  readonly nonce?: string;
  /** For the brand code redirect: whose client asked. */
  readonly brandClient?: Brand;
  /**
   * Sent to the IdP for a pending step (src/shared/pending-step.ts, issue 14 items 5 and 10): the
   * landing's session remembers a §2 one, so that the next /signin does not ask again for it.
   */
  readonly pendingStep?: PendingStep;
  readonly bindingHash: string;
  readonly createdAt: number;
  /**
   * The trace the sign-in started in (a W3C traceparent; only with tracing on, issue 17 item 2): the
   * browser's trip through the IdP carries no trace context, so the landing finds its trace here and
   * continues it, and one sign-in is one trace.
   */
  readonly trace?: string;
}

/** A pending login not saved yet: its OIDC state, the browser's binding value, and its store write. */
export interface PreparedLogin {
  readonly state: string;
  readonly binding: string;
  readonly write: StoreSet;
}

@Injectable()
export class LoginStates {
  private readonly pending: OneTimeStore<PendingLogin>;
  /**
   * docs/security.md, unauthenticated writes: what one address may spend on login states per
   * lifetime, in KiB.
   */
  private readonly budget: number;

  constructor(
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(APP_CONFIG) config: AppConfig,
    vault: TokenVault,
  ) {
    // docs/security.md, secrets at rest: a login state holds the PKCE verifier and the nonce, and a
    // brand hop's the raw id of the session the brand receives (and of the browser's own): sealed
    // like the tokens, so neither a copy of the store nor the SQLite write-ahead log shows them.
    this.pending = new OneTimeStore<PendingLogin>(store, 'login', LOGIN_STATE_TTL_SECONDS, vault);
    this.budget = loginStateBudget(config.rateLimit.signinPerAddress.limit);
  }

  /**
   * Saves the pending login begun from `address` (the client address as the rate limits count it);
   * returns the OIDC state and the binding value for the browser cookie.
   */
  async begin(
    pending: Omit<PendingLogin, 'bindingHash' | 'createdAt'>,
    address: string,
  ): Promise<{ state: string; binding: string }> {
    await this.admit(address, pending.journey);
    const prepared = this.prepare(pending);
    await this.save(prepared);
    return prepared;
  }

  /**
   * docs/security.md, unauthenticated writes: counts a login state against the budget of the
   * address that begins it, before anything is written (login-state-budget.ts); past the budget,
   * TooManyRequests (429) and nothing stored. begin() does it; a caller of prepare() calls it
   * first.
   */
  async admit(address: string, journey: JourneyContext): Promise<void> {
    const spent = await this.store.increment(
      `ratelimit:login-states:${address}`,
      LOGIN_STATE_TTL_SECONDS,
      loginStateCost(journey),
    );
    if (spent > this.budget)
      throw new AppError(
        'TooManyRequests',
        `this address began ${spent} KiB of sign-ins in ${LOGIN_STATE_TTL_SECONDS} s, more than ${this.budget}`,
      );
  }

  /**
   * The pending login and its store write, not saved: for a caller that commits it in one batch with
   * the session it belongs to (a brand hop's grant, SigninService), so that both are kept or neither.
   * The caller admits it first (admit).
   */
  prepare(pending: Omit<PendingLogin, 'bindingHash' | 'createdAt'>): PreparedLogin {
    // Every path that keeps a journey is held to the bound /signin's parser applies
    // (docs/security.md, unauthenticated writes).
    if (journeyBytes(pending.journey) > MAX_JOURNEY_BYTES)
      throw new AppError(
        'BadRequest',
        `the sign-in would keep more than ${MAX_JOURNEY_BYTES} bytes`,
      );
    const binding = randomKey();
    const trace = activeTracer().saveContext();
    const { key: state, write } = this.pending.prepare({
      ...pending,
      bindingHash: bindingHashOf(binding),
      createdAt: Date.now(),
      ...(trace ? { trace } : {}),
    });
    return { state, binding, write };
  }

  /** Saves a prepared pending login on its own. */
  save({ write }: PreparedLogin): Promise<void> {
    return this.pending.save(write);
  }

  /**
   * Takes the pending login for a state, once. It is only returned to the browser that started it
   * (the binding cookie); a mismatch consumes it anyway, so a stolen state is useless.
   */
  async take(state: unknown, binding: unknown): Promise<PendingLogin | undefined> {
    const pending = await this.pending.take(state);
    return pending && matchesBinding(pending.bindingHash, binding) ? pending : undefined;
  }
}
