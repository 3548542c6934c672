import { Inject, Injectable } from '@nestjs/common';
import { createHmac, randomBytes } from 'node:crypto';
import type { Brand } from '../brand/brand';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { SESSION_STORE, SessionStore } from './session-store';

/** §9: the sessionId cookie, and so the session, lasts one year. */
export const SESSION_TTL_SECONDS = 31_536_000;
/** Last use is written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;
/** 256 bits from the CSPRNG (ASVS 5.0 7.2.3 asks for at least 128). */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export interface TokenSet {
  readonly accessToken: string;
  readonly refreshToken?: string;
  readonly idToken?: string;
  /** Epoch seconds when the access token expires. */
  readonly expiresAt: number;
}

export interface SessionRecord {
  readonly brand: Brand;
  readonly sub: string;
  readonly collectorsId?: number;
  readonly createdAt: number;
  readonly lastUsedAt: number;
  readonly tokens: TokenSet;
  readonly userAgent?: string;
}

/**
 * Server-side sessions on the session store (§4 step 5, DESIGN.md flow 2). The id the browser holds
 * (`si`, the sessionId cookie) is never stored: records are keyed by its HMAC under SESSION_SECRET,
 * so a copy of the store yields no usable session id.
 */
@Injectable()
export class Sessions {
  constructor(
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  static isWellFormedId(id: unknown): id is string {
    return typeof id === 'string' && SESSION_ID.test(id);
  }

  /** A fresh id for every sign-in (ASVS 5.0 7.2.4: no session fixation). */
  async create(
    record: Omit<SessionRecord, 'createdAt' | 'lastUsedAt'>,
    now = Date.now(),
  ): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await this.store.set(
      this.key(id),
      JSON.stringify({ ...record, createdAt: now, lastUsedAt: now }),
      SESSION_TTL_SECONDS,
    );
    return id;
  }

  async get(id: unknown): Promise<SessionRecord | undefined> {
    if (!Sessions.isWellFormedId(id)) return undefined;
    const raw = await this.store.get(this.key(id));
    return raw ? (JSON.parse(raw) as SessionRecord) : undefined;
  }

  /** Records the last use (throttled) and keeps the session for another year of inactivity. */
  async touch(id: string, record: SessionRecord, now = Date.now()): Promise<SessionRecord> {
    if (now - record.lastUsedAt < TOUCH_INTERVAL_MS) return record;
    const touched = { ...record, lastUsedAt: now };
    await this.store.set(this.key(id), JSON.stringify(touched), SESSION_TTL_SECONDS);
    return touched;
  }

  async updateTokens(
    id: string,
    tokens: TokenSet,
    now = Date.now(),
  ): Promise<SessionRecord | undefined> {
    const record = await this.get(id);
    if (!record) return undefined;
    const updated = { ...record, tokens, lastUsedAt: now };
    await this.store.set(this.key(id), JSON.stringify(updated), SESSION_TTL_SECONDS);
    return updated;
  }

  async delete(id: unknown): Promise<void> {
    if (Sessions.isWellFormedId(id)) await this.store.delete(this.key(id));
  }

  /** The store key for a session id; also used to name its refresh lock. */
  key(id: string): string {
    return `session:${createHmac('sha256', this.config.sessionSecret).update(id).digest('base64url')}`;
  }
}
