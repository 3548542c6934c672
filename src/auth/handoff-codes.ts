import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Brand } from '../shared/brand';
import { SESSION_STORE, SessionStore } from '../session/session-store';
import type { TokenSet } from '../session/sessions';
import { random } from './login-state';

/** Issue 4: a handoff code lives 60 seconds and is used once. */
export const HANDOFF_TTL_SECONDS = 60;

export interface Handoff {
  readonly brand: Brand;
  readonly tokens: TokenSet;
  readonly sessionId?: string;
}

/**
 * One-time handoff codes (DESIGN.md flow 3): instead of tokens in the URL, a mobile app (or a web brand
 * that opted in) receives a code that its back end exchanges server-to-server for the tokens
 * (RFC 9700 §4.3.2: no access tokens in query strings). Stored by hash; taken atomically.
 */
@Injectable()
export class HandoffCodes {
  constructor(@Inject(SESSION_STORE) private readonly store: SessionStore) {}

  async issue(handoff: Handoff): Promise<string> {
    const code = random(32);
    await this.store.set(this.key(code), JSON.stringify(handoff), HANDOFF_TTL_SECONDS);
    return code;
  }

  async take(code: unknown): Promise<Handoff | undefined> {
    if (typeof code !== 'string' || code.length === 0 || code.length > 200) return undefined;
    const raw = await this.store.take(this.key(code));
    return raw ? (JSON.parse(raw) as Handoff) : undefined;
  }

  private key(code: string): string {
    return `handoff:${createHash('sha256').update(code).digest('base64url')}`;
  }
}
