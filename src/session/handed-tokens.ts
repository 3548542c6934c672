import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { SESSION_STORE, SessionStore } from '../store/session-store';
import { TokenVault } from '../store/token-vault';

/** Why a handed-over access token may not start a session (issue 32 item 2). */
export type HandedTokenRefusal = 'already-used' | 'session-ended';

/** What the service recorded when it handed a token over. */
export interface HandedOverRecord {
  /** The collector's name as the session that handed the token over knew it, if it knew one. */
  readonly name?: string;
}

/**
 * A token's key in the store: a hash of its `jti` (or of the token, without one), never the token.
 * Also the key of what else is kept per token (docs/security.md, one `t` flooding: its one live
 * offer, its counter).
 */
export function handedTokenKey(accessToken: string, jti: unknown): string {
  const id = typeof jti === 'string' && jti !== '' ? `jti:${jti}` : `token:${accessToken}`;
  return createHash('sha256').update(id).digest('base64url').slice(0, 32);
}

/**
 * Issue 32 item 2: a `t` (§4 App start step 3) is a bearer credential in a URL. It signs a browser in
 * at most once, on any instance (a record in the session store for the token's remaining lifetime),
 * and never once the collector has signed out of the session it was handed over from: every access
 * token handed to a brand is recorded with its session's family, and a sign-out (here, everywhere,
 * from the sessions page or the IdP's back channel) marks the family ended for the longest lifetime
 * an access token may have. A token this service never handed over (another collector's browser
 * holds no record of it) is only checked for reuse.
 */
@Injectable()
export class HandedTokens {
  constructor(
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly vault: TokenVault,
  ) {}

  /**
   * Remembers that `accessToken` was handed to a brand from the sign-in `family`, with the
   * collector's `name` as that session knew it: the confirmation a cross-site `t` leads to names
   * the account by it without asking the IdP (docs/security.md, a look-alike account). The name is
   * sealed like a session's tokens (docs/security.md, nothing readable at rest).
   */
  async handedOver(
    accessToken: string,
    claims: { readonly jti?: unknown; readonly exp?: unknown },
    family: string | undefined,
    name?: string,
    now = Date.now(),
  ): Promise<void> {
    if (!family) return;
    const key = handedTokenKey(accessToken, claims.jti);
    const ttl = this.ttlOf(claims.exp, now);
    await this.store.set(`handed:${key}`, family, ttl);
    if (name) await this.store.set(nameKey(key), this.vault.seal(name, nameKey(key)), ttl);
  }

  /**
   * What this service recorded when it handed `accessToken` over, or undefined for a token it never
   * handed over (a brand's own refresh, say): such a token names an account this service cannot
   * name beyond its login (docs/security.md, a look-alike account).
   */
  async record(
    accessToken: string,
    claims: { readonly jti?: unknown },
  ): Promise<HandedOverRecord | undefined> {
    const key = handedTokenKey(accessToken, claims.jti);
    if ((await this.store.get(`handed:${key}`)) === undefined) return undefined;
    const sealed = await this.store.get(nameKey(key));
    const name = sealed === undefined ? undefined : this.vault.open(sealed, nameKey(key));
    return name ? { name } : {};
  }

  /** The collector signed out of a session of `family`: its handed-over tokens sign nobody in. */
  async familyEnded(family: string | undefined): Promise<void> {
    if (!family) return;
    await this.store.set(
      `family-ended:${family}`,
      '1',
      this.config.idp.accessTokenMaxLifetimeSeconds,
    );
  }

  /** Whether the collector signed out of the sign-in this token was handed over from. */
  async ended(accessToken: string, claims: { readonly jti?: unknown }): Promise<boolean> {
    const family = await this.store.get(`handed:${handedTokenKey(accessToken, claims.jti)}`);
    return family !== undefined && (await this.store.get(`family-ended:${family}`)) !== undefined;
  }

  /**
   * Why a verified `t` may not start a session, without using it (docs/security.md, one `t`
   * flooding: a used or ended token gets no offer at all); undefined when it still may.
   */
  async refusal(
    accessToken: string,
    claims: { readonly jti?: unknown },
  ): Promise<HandedTokenRefusal | undefined> {
    if (await this.ended(accessToken, claims)) return 'session-ended';
    const used = await this.store.get(`used:${handedTokenKey(accessToken, claims.jti)}`);
    return used === undefined ? undefined : 'already-used';
  }

  /**
   * Takes a verified `t` for a sign-in: undefined when it may start a session (and it is now used),
   * or why not.
   */
  async take(
    accessToken: string,
    claims: { readonly jti?: unknown; readonly exp: number },
    now = Date.now(),
  ): Promise<HandedTokenRefusal | undefined> {
    const key = handedTokenKey(accessToken, claims.jti);
    if (await this.ended(accessToken, claims)) return 'session-ended';
    const first = await this.store.setIfAbsent(`used:${key}`, '1', this.ttlOf(claims.exp, now));
    return first ? undefined : 'already-used';
  }

  private ttlOf(exp: unknown, now: number): number {
    const left = typeof exp === 'number' ? Math.ceil(exp - now / 1000) : 0;
    return Math.max(1, Math.min(left, this.config.idp.accessTokenMaxLifetimeSeconds));
  }
}

function nameKey(tokenKey: string): string {
  return `handed-name:${tokenKey}`;
}
