import { Inject, Injectable } from '@nestjs/common';
import { type KeyObject, createHmac, createSecretKey, randomBytes } from 'node:crypto';
import type { Brand } from '../shared/brand';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { TokenSet } from '../oidc/oidc-client';
import { SESSION_STORE, SessionStore } from './session-store';

export type { TokenSet } from '../oidc/oidc-client';

/** §9: the sessionId cookie, and so the session, lasts one year. */
export const SESSION_TTL_SECONDS = 31_536_000;
/** Last use is written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;
/** 256 bits from the CSPRNG (ASVS 5.0 7.2.3 asks for at least 128). */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export interface SessionRecord {
  readonly brand: Brand;
  readonly sub: string;
  readonly collectorsId?: number;
  readonly createdAt: number;
  readonly lastUsedAt: number;
  readonly tokens: TokenSet;
  readonly userAgent?: string;
  /** The IdP's session id (the ID token's `sid`), for its back-channel logout tokens. */
  readonly idpSid?: string;
  /**
   * This session began with a sign-in that went to the IdP because second-factor set-up or the survey
   * was pending, so the IdP has offered them; what is still flagged was put off by the collector.
   */
  readonly stepsOffered?: boolean;
  /**
   * The sign-in this session belongs to (issue 14 item 4): every after-login makes a fresh session,
   * and the sessions one sign-in made (the browser's own, each brand's `si`) share this id. They share
   * the IdP's `sid` and subject too, by which back-channel logout and sign-out everywhere end them.
   */
  readonly family?: string;
  /**
   * SHA-256 of the browser binding (the HttpOnly sessionBinding cookie) of the browser that signed
   * in. A session is live at this origin only with it; the sessions brands hold by `si` have none.
   */
  readonly bindingHash?: string;
}

/** One of a collector's sessions, as the session management page lists it. */
export interface ListedSession {
  /** An opaque name for the session (the HMAC of its id): it cannot be used as a session id. */
  readonly handle: string;
  readonly record: SessionRecord;
}

const HANDLE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Server-side sessions on the session store (§4 step 5, DESIGN.md flow 2). The id the browser holds
 * (`si`, the sessionId cookie) is never stored: records are keyed by its HMAC under SESSION_SECRET,
 * so a copy of the store yields no usable session id.
 */
@Injectable()
export class Sessions {
  /** Imported once: a string key would be turned into a key object on every request's HMAC. */
  private readonly secret: KeyObject;

  constructor(
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secret = createSecretKey(Buffer.from(config.sessionSecret, 'utf8'));
  }

  static isWellFormedId(id: unknown): id is string {
    return typeof id === 'string' && SESSION_ID.test(id);
  }

  /**
   * A fresh id for every sign-in (ASVS 5.0 7.2.4: no session fixation). The session is indexed by its
   * collector (the session management page, sign out everywhere) and by the IdP's session id
   * (back-channel logout) before its record is written, so a listed session always has an index
   * entry; an index entry whose record is gone is skipped and pruned when read.
   */
  async create(
    record: Omit<SessionRecord, 'createdAt' | 'lastUsedAt'>,
    now = Date.now(),
  ): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const handle = this.handle(id);
    await this.store.addMember(this.subjectKey(record.sub), handle, SESSION_TTL_SECONDS);
    if (record.idpSid) {
      await this.store.addMember(this.idpSidKey(record.idpSid), handle, SESSION_TTL_SECONDS);
    }
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
    // Never brings back a session that was ended meanwhile.
    await this.store.replace(this.key(id), JSON.stringify(touched), SESSION_TTL_SECONDS);
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
    // A session ended while its tokens were being refreshed stays ended.
    const written = await this.store.replace(
      this.key(id),
      JSON.stringify(updated),
      SESSION_TTL_SECONDS,
    );
    return written ? updated : undefined;
  }

  /** Ends a session; returns its record when there was one. */
  async delete(id: unknown): Promise<SessionRecord | undefined> {
    if (!Sessions.isWellFormedId(id)) return undefined;
    return this.deleteByHandle(this.handle(id));
  }

  /** Ends a session named by its handle; returns its record when there was one. */
  async deleteByHandle(handle: string): Promise<SessionRecord | undefined> {
    if (!HANDLE.test(handle)) return undefined;
    const key = `session:${handle}`;
    const raw = await this.store.take(key);
    if (!raw) return undefined;
    const record = JSON.parse(raw) as SessionRecord;
    await this.store.removeMember(this.subjectKey(record.sub), handle);
    if (record.idpSid) await this.store.removeMember(this.idpSidKey(record.idpSid), handle);
    return record;
  }

  /** The live sessions of one collector (an index entry without its record is pruned). */
  async listForSubject(sub: string): Promise<ListedSession[]> {
    return this.listIndex(this.subjectKey(sub));
  }

  /** The live sessions started in one IdP session (back-channel logout by `sid`). */
  async listForIdpSid(sid: string): Promise<ListedSession[]> {
    return this.listIndex(this.idpSidKey(sid));
  }

  private async listIndex(indexKey: string): Promise<ListedSession[]> {
    const listed: ListedSession[] = [];
    for (const handle of await this.store.members(indexKey)) {
      const raw = HANDLE.test(handle) ? await this.store.get(`session:${handle}`) : undefined;
      if (raw) listed.push({ handle, record: JSON.parse(raw) as SessionRecord });
      else await this.store.removeMember(indexKey, handle);
    }
    return listed;
  }

  /** The store key for a session id; also used to name its refresh lock. */
  key(id: string): string {
    return `session:${this.handle(id)}`;
  }

  /** A session's public name: the HMAC of its id under SESSION_SECRET. */
  handle(id: string): string {
    return this.hmac(id);
  }

  private subjectKey(sub: string): string {
    return `sessions-of:${this.hmac(`sub:${sub}`)}`;
  }

  private idpSidKey(sid: string): string {
    return `sessions-of-idp-sid:${this.hmac(`sid:${sid}`)}`;
  }

  private hmac(value: string): string {
    return createHmac('sha256', this.secret).update(value).digest('base64url');
  }
}
