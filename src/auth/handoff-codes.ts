import { Inject, Injectable } from '@nestjs/common';
import type { Brand } from '../shared/brand';
import { OneTimeStore } from '../store/one-time-store';
import { SESSION_STORE, SessionStore } from '../store/session-store';
import { TokenVault } from '../store/token-vault';
import type { TokenSet } from '../oidc/oidc-client';

/** Issue 4: a handoff code lives 60 seconds and is used once. */
export const HANDOFF_TTL_SECONDS = 60;

export interface Handoff {
  readonly brand: Brand;
  readonly tokens: TokenSet;
  readonly sessionId?: string;
}

/**
 * One-time handoff codes (docs/design.md flow 3): instead of tokens in the URL, a mobile app (or a web brand
 * that opted in) receives a code that its back end exchanges server-to-server for the tokens
 * (RFC 9700 §4.3.2: no access tokens in query strings). Stored by hash; taken atomically.
 */
@Injectable()
export class HandoffCodes {
  private readonly codes: OneTimeStore<Handoff>;

  constructor(@Inject(SESSION_STORE) store: SessionStore, vault: TokenVault) {
    // The tokens wait here up to a minute: sealed like a session's (issue 15 item 9).
    this.codes = new OneTimeStore<Handoff>(store, 'handoff', HANDOFF_TTL_SECONDS, vault);
  }

  issue(handoff: Handoff): Promise<string> {
    return this.codes.issue(handoff);
  }

  take(code: unknown): Promise<Handoff | undefined> {
    return this.codes.take(code);
  }
}
