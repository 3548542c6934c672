import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Brand } from '../shared/brand';
import { SESSION_STORE, SessionStore } from '../session/session-store';
import type { SigninQuery } from './signin-query';

/** A sign-in round trip at the IdP must finish within this time. */
export const LOGIN_STATE_TTL_SECONDS = 600;

/**
 * What the service remembers between sending the collector to the IdP and the landing: the validated
 * query, the PKCE verifier and nonce, and a hash of the browser binding (RFC 9700 §4.7.1: state bound
 * to the user agent). Kept server-side under the OIDC `state`, used once.
 */
export interface PendingLogin {
  readonly kind: 'token' | 'brand';
  readonly query: SigninQuery;
  readonly verifier?: string;
  readonly nonce?: string;
  /** For the brand code redirect: whose client asked. */
  readonly brandClient?: Brand;
  /** Sent to the IdP because the signed-in collector had steps pending (§2 shell rule). */
  readonly offerSteps?: boolean;
  readonly bindingHash: string;
  readonly createdAt: number;
}

export const random = (bytes = 32): string => randomBytes(bytes).toString('base64url');
const hash = (value: string): string => createHash('sha256').update(value).digest('base64url');

@Injectable()
export class LoginStates {
  constructor(@Inject(SESSION_STORE) private readonly store: SessionStore) {}

  /** Saves the pending login; returns the OIDC state and the binding value for the browser cookie. */
  async begin(
    pending: Omit<PendingLogin, 'bindingHash' | 'createdAt'>,
  ): Promise<{ state: string; binding: string }> {
    const state = random();
    const binding = random();
    const record: PendingLogin = { ...pending, bindingHash: hash(binding), createdAt: Date.now() };
    await this.store.set(`login:${hash(state)}`, JSON.stringify(record), LOGIN_STATE_TTL_SECONDS);
    return { state, binding };
  }

  /**
   * Takes the pending login for a state, once. It is only returned to the browser that started it
   * (the binding cookie); a mismatch consumes it anyway, so a stolen state is useless.
   */
  async take(state: unknown, binding: unknown): Promise<PendingLogin | undefined> {
    if (typeof state !== 'string' || state.length === 0 || state.length > 200) return undefined;
    const raw = await this.store.take(`login:${hash(state)}`);
    if (!raw || typeof binding !== 'string') return undefined;
    const pending = JSON.parse(raw) as PendingLogin;
    const expected = Buffer.from(pending.bindingHash);
    const actual = Buffer.from(hash(binding));
    return expected.length === actual.length && timingSafeEqual(expected, actual)
      ? pending
      : undefined;
  }
}
