import { timingSafeEqual } from 'node:crypto';
import { pooledRandomBytes } from '../../common/random-bytes';
import type { SessionStore } from '../../store/session-store';
import type { FactorType } from '../accounts/factor-store';
import type { PutOffStep } from '../provider/put-off-steps';

/**
 * Server-side progress of one sign-in interaction (keyed by oidc-provider's interaction uid): the
 * flow state and what earlier steps learned. Never trusted from the browser; expires with the
 * interaction.
 */
export interface FlowData {
  readonly state: string;
  /** Per-interaction CSRF token, checked on every POST. */
  readonly csrf: string;
  readonly email?: string;
  readonly accountId?: string;
  readonly isNewAccount?: boolean;
  /** The second factor being used (sign-in) or enrolled (set-up). */
  readonly factor?: FactorType;
  readonly enrolmentId?: string;
  readonly totp?: { readonly secret: string; readonly qrSvg: string };
  /** A message key for the next page (e.g. code sent), with its values. */
  readonly notice?: { readonly key: string; readonly args?: Record<string, string> };
  /**
   * The IdP already knew the collector (a live IdP session) and this service asked for their pending
   * steps (issue 14 item 5): the interaction is the provider's consent prompt, the flow began at the
   * first pending step, and it ends with a grant rather than a login. No password was asked.
   */
  readonly signedIn?: boolean;
  /** The optional steps put off so far in this sign-in (put-off-steps.ts, issue 14 item 6). */
  readonly putOff?: readonly PutOffStep[];
}

/** The shared-state key of one interaction's progress. */
export const flowKey = (uid: string): string => `idp:flow:${uid}`;

/**
 * In the IdP's state store (idp-state-store.ts, issue 7), so the step posted to any instance continues the
 * flow another instance started; each record expires with its interaction.
 */
export class FlowRecords {
  constructor(
    private readonly store: SessionStore,
    private readonly now: () => number = Date.now,
  ) {}

  async get(uid: string): Promise<FlowData | undefined> {
    const raw = await this.store.get(flowKey(uid));
    return raw === undefined ? undefined : (JSON.parse(raw) as FlowData);
  }

  /** A new record at `state`; `seed` is what the flow knows from the start (a known collector). */
  async create(
    uid: string,
    state: string,
    expiresAt: number,
    seed: Omit<Partial<FlowData>, 'state' | 'csrf'> = {},
  ): Promise<FlowData> {
    const data: FlowData = { ...seed, state, csrf: newCsrfToken() };
    await this.save(uid, data, expiresAt);
    return data;
  }

  /** An interaction that has already expired keeps its record one second; reads then find nothing. */
  save(uid: string, data: FlowData, expiresAt: number): Promise<void> {
    const ttl = Math.max(1, Math.ceil((expiresAt - this.now()) / 1000));
    return this.store.set(flowKey(uid), JSON.stringify(data), ttl);
  }

  delete(uid: string): Promise<void> {
    return this.store.delete(flowKey(uid));
  }
}

export function newCsrfToken(): string {
  return pooledRandomBytes(24).toString('base64url');
}

export function csrfMatches(expected: string, received: unknown): boolean {
  if (typeof received !== 'string' || received.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(received));
}
