import type { StatedClaims } from '../oidc/account-claims';
import { Inject, Injectable } from '@nestjs/common';
import { type KeyObject, createHmac, createSecretKey } from 'node:crypto';
import { pooledRandomBytes } from '../common/random-bytes';
import type { Brand } from '../shared/brand';
import type { ShellPendingStep } from '../shared/pending-step';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { TokenSet } from '../oidc/oidc-client';
import { SESSION_STORE, SessionStore, StoreWrite } from '../store/session-store';
import { TokenVault } from '../store/token-vault';
import type { AccountSummary } from '../shared/landing';

export type { TokenSet } from '../oidc/oidc-client';

/**
 * A grant handed to a brand from a session (docs/okta.md §3): its refresh token, issued to the
 * brand's own client (docs/brand-contract.md §1), so revoked with the brand's credentials.
 */
export interface HandedGrant {
  readonly brand: Brand;
  readonly refreshToken: string;
}

/** A session's tokens, sealed together at rest. */
export interface SessionTokens extends TokenSet {
  /**
   * The grants handed to brands from this session (each brand hop gets a grant of its own). Not this
   * session's to use; revoked with it when the collector signs out (src/session/session-ending.ts).
   * The latest few are kept. A bare string is a refresh token handed over before brands had clients
   * of their own, issued to this service's own client.
   */
  readonly handedOver?: readonly (HandedGrant | string)[];
  /**
   * The id this session was handed to its brand as (`si`, §4 step 6), when it was: the `sid` of the
   * logout token that brand is owed when the session ends (docs/brand-contract.md §7). Sealed with
   * the tokens, since the store otherwise holds only the id's HMAC.
   */
  readonly handedAs?: string;
}

/** How many handed-over refresh tokens a session remembers. */
export const MAX_HANDED_OVER = 16;

/** §9: the sessionId cookie, and so the session, lasts one year. */
export const SESSION_TTL_SECONDS = 31_536_000;
/**
 * Last use is written at most this often, so reads do not turn into writes; a quarter of the idle
 * timeout when that is shorter, so a session in use is never judged idle.
 */
const TOUCH_INTERVAL_MS = 60_000;
/** How long a lapsed record is kept so that its browser's return can end it (ttlSeconds). */
const LAPSED_GRACE_SECONDS = 86_400;
/** 256 bits from the CSPRNG (ASVS 5.0 7.2.3 asks for at least 128). */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export interface SessionRecord {
  readonly brand: Brand;
  readonly sub: string;
  readonly collectorsId?: number;
  readonly createdAt: number;
  readonly lastUsedAt: number;
  readonly tokens: SessionTokens;
  readonly userAgent?: string;
  /** The IdP's session id (the ID token's `sid`), for its back-channel logout tokens. */
  readonly idpSid?: string;
  /**
   * §3 promptMfaSignin, kept where the server's §2 shell rule can read it (issue 14 item 6): false
   * once the collector chose "Not now" on PromptSetupMfa (the IdP's ID token said promptMfaSignin
   * false); the shell then does not send them to set up a second factor, and the page data has the
   * browser store the same flag. Kept until sign-out, like the browser's.
   */
  readonly promptMfaSignin?: false;
  /**
   * The §2 pending step this session's sign-in went to the IdP for (issue 14 item 10). If the same
   * step is still pending, /signin shows the pending-step page instead of a second trip: the service
   * never sends a collector to the IdP for the same pending reason twice in a row.
   */
  readonly askedIdpFor?: ShellPendingStep;
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
  /**
   * How the session began when not through the IdP: `handed-over-token`, a valid `t` on a page of
   * this service signed the collector in (issue 14 item 7, §4 App start step 3). Such a session has
   * the access token only (no ID token, no refresh token), so it ends when that token expires.
   */
  readonly startedBy?: 'handed-over-token';
  /**
   * When the collector authenticated (ms since the epoch): the absolute lifetime counts from here
   * (ASVS 5.0 7.3.2), for every session of the sign-in's family, which copies it. Sessions written
   * before it existed count from their creation.
   */
  readonly signedInAt?: number;
  /**
   * Who signed in (issue 16 item 4), from the ID token and userinfo at the sign-in: the landing shows
   * it without asking the IdP on every visit.
   */
  readonly account?: AccountSummary;
  /**
   * The §3 claims the IdP's userinfo stated at the sign-in (or at a refresh whose tokens stated none),
   * for an IdP that puts them there rather than in a token (issue 31 item 1). Only those claims:
   * src/oidc/account-claims.ts says which source wins.
   */
  readonly userinfoClaims?: StatedClaims;
}

export interface CreateOptions {
  /**
   * The session replaces the one this sign-in made for the same brand before (Sessions.supersede):
   * a browser keeps one session per brand (issue 32 item 5). Every after-login passes it: a brand
   * receives the newest id as `si` (§4 step 6), and a repeated hop to the same brand no longer piles
   * up year-long sessions (one collector had reached 116).
   */
  readonly supersede?: boolean;
  /**
   * The session is handed to its brand as `si` (§4 step 6): its id is kept, sealed, for the `sid` of
   * that brand's logout token (docs/brand-contract.md §7).
   */
  readonly handedToBrand?: boolean;
  /**
   * Writes that belong to the same decision as the new session (a brand hop's pending grant, which
   * names it), committed in the same batch: both are kept or neither, and the hop pays one commit.
   */
  readonly alongside?: (sessionId: string) => readonly StoreWrite[];
}

/** One of a collector's sessions, as the session management page lists it. */
export interface ListedSession {
  /** An opaque name for the session (the HMAC of its id): it cannot be used as a session id. */
  readonly handle: string;
  readonly record: SessionRecord;
}

const HANDLE = /^[A-Za-z0-9_-]{43}$/;

/**
 * How many opened records Sessions keeps (parse): the sessions in use at once on one instance, a few
 * kilobytes each, so at most a few megabytes.
 */
export const OPENED_RECORDS_KEPT = 2000;

/** A record and what it holds, frozen: a kept record is shared by every request that reads it. */
function frozen(record: SessionRecord): SessionRecord {
  Object.freeze(record.tokens);
  if (record.account) Object.freeze(Object.freeze(record.account).factors);
  return Object.freeze(record);
}

/**
 * The counted set of every session until it lapses (SessionStore.addExpiringMember): its size is
 * the live_sessions gauge (docs/operating.md "On-call metrics"). Counting the records would not do:
 * the store keeps a lapsed one a day longer (LAPSED_GRACE_SECONDS), and Redis has no cheap count of
 * a key pattern (a scan of the whole store). So each session is a member with its own end, moved on
 * every write of the record (create, touch, refresh) and dropped when the session is ended.
 */
export const LIVE_SESSIONS_KEY = 'live-sessions';

/** A session's entry in one of its index sets, kept as long as a session can live. */
function addMember(key: string, handle: string): StoreWrite {
  return { op: 'addMember', key, member: handle, ttlSeconds: SESSION_TTL_SECONDS };
}

/**
 * How long the store keeps a session. A year of inactivity (§9) while a refresh token can renew its
 * access token; without one nothing can (§4 Token handling: "If there is no refresh token ... no
 * tokens are returned"), so the session lasts exactly as long as its access token (issue 14 item 7:
 * a sign-in from a handed-over `t` lasts that token's lifetime) and the store forgets it then.
 */
export function sessionTtlSeconds(tokens: TokenSet, now = Date.now()): number {
  if (tokens.refreshToken) return SESSION_TTL_SECONDS;
  const left = Math.ceil(tokens.expiresAt - now / 1000);
  return Math.min(SESSION_TTL_SECONDS, Math.max(1, left));
}

/** The store key of a session named by its handle. */
const recordKey = (handle: string): string => `session:${handle}`;

/**
 * Server-side sessions on the session store (§4 step 5, docs/design.md flow 2). The id the browser holds
 * (`si`, the sessionId cookie) is never stored: records are keyed by its HMAC under SESSION_SECRET,
 * so a copy of the store yields no usable session id.
 *
 * SESSION_SECRET is a ring, newest first (docs/operating.md "Rotating secrets"). A record stays
 * under the key it was made with for its whole life, and the secret that made it finds it: the
 * first secret names new sessions and their index entries, every secret is tried in turn to find a
 * session, and every secret's index sets are read and pruned. So no rotation signs anyone out, and
 * instances with different rings that share the secrets agree on where each session is (a rolling
 * update). Moving records to the newest secret instead would have instances with the ring in either
 * order move them back and forth, a session missing from the store in between. What it costs: a
 * session made under an older secret pays one store read per newer secret at each lookup, and a
 * secret can leave the ring only once no session made under it is wanted any more.
 */
@Injectable()
export class Sessions {
  /**
   * The ring, newest first; imported once: a string key would be turned into a key object on every
   * request's HMAC.
   */
  private readonly secrets: readonly KeyObject[];
  private readonly idleMs: number;
  private readonly absoluteMs: number;
  private readonly touchIntervalMs: number;
  /** Opened records by store key, with the stored text each was opened from (parse). */
  private readonly opened = new Map<
    string,
    { readonly raw: string; readonly record: SessionRecord }
  >();

  constructor(
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(APP_CONFIG) config: AppConfig,
    /** Seals the tokens of every record written (issue 15 item 9); none is stored in clear. */
    private readonly vault: TokenVault,
  ) {
    this.secrets = config.sessionSecrets.map((secret) =>
      createSecretKey(Buffer.from(secret, 'utf8')),
    );
    this.idleMs = config.sessionLifetime.idleSeconds * 1000;
    this.absoluteMs = config.sessionLifetime.absoluteSeconds * 1000;
    this.touchIntervalMs = Math.min(TOUCH_INTERVAL_MS, this.idleMs / 4);
  }

  /**
   * ASVS 5.0 7.3.1 and 7.3.2: the session has been unused longer than the idle timeout, or lived
   * longer than the absolute lifetime since its collector signed in. Such a session is over, whatever
   * the store still holds (LiveSessions ends it; listings skip it).
   */
  hasLapsed(record: SessionRecord, now = Date.now()): boolean {
    return (
      now - record.lastUsedAt > this.idleMs ||
      now - (record.signedInAt ?? record.createdAt) > this.absoluteMs
    );
  }

  /**
   * How long the store keeps a record: the shorter of its tokens' need and the time it may still be
   * used (idle time, lifetime left), plus a day's grace. The grace keeps a lapsed record long enough
   * for its browser's next visit to end it properly (hasLapsed, then SessionEnding revokes its refresh
   * token at the IdP) rather than have the store forget it silently.
   */
  private ttlSeconds(record: SessionRecord, now: number): number {
    const lifetimeLeft = (record.signedInAt ?? record.createdAt) + this.absoluteMs - now;
    const usable = Math.min(this.idleMs, lifetimeLeft) / 1000 + LAPSED_GRACE_SECONDS;
    return Math.max(1, Math.ceil(Math.min(sessionTtlSeconds(record.tokens, now), usable)));
  }

  /**
   * How long from `now` the record stays live (hasLapsed false, and its tokens still usable: a
   * session without a refresh token lapses with its access token); at least one second, as a store
   * lifetime must be.
   */
  private liveSeconds(record: SessionRecord, now: number): number {
    const liveMs = Math.min(
      record.lastUsedAt + this.idleMs - now,
      (record.signedInAt ?? record.createdAt) + this.absoluteMs - now,
      sessionTtlSeconds(record.tokens, now) * 1000,
    );
    return Math.max(1, Math.ceil(liveMs / 1000));
  }

  /** Counts the session in live_sessions until it lapses (LIVE_SESSIONS_KEY). */
  private countedLive(handle: string, record: SessionRecord, now: number): StoreWrite {
    return {
      op: 'addExpiringMember',
      key: LIVE_SESSIONS_KEY,
      member: handle,
      ttlSeconds: this.liveSeconds(record, now),
    };
  }

  /**
   * Moves a written session's end in live_sessions, in a call of its own after the record's write.
   * Its failure does not fail the request, whose own write was made: it is counted
   * (session_store_errors_total), and the end moves again at the session's next touch (at most a
   * minute of use later), so the gauge undercounts a session for no longer than that.
   */
  private async recount(key: string, record: SessionRecord, now: number): Promise<void> {
    // The member is the handle the record is stored under (`session:<handle>`).
    const handle = key.slice(key.indexOf(':') + 1);
    await this.store
      .addExpiringMember(LIVE_SESSIONS_KEY, handle, this.liveSeconds(record, now))
      .catch(() => undefined);
  }

  /** The record as stored: its tokens sealed for this key, so a copy of the store holds no token. */
  private serialize(key: string, record: SessionRecord): string {
    return JSON.stringify({
      ...record,
      tokens: this.vault.seal(JSON.stringify(record.tokens), key),
    });
  }

  /**
   * A stored record, its tokens opened. Records from before sealing (tokens as an object) are read as
   * they are and sealed at their next write. One that cannot be opened (its key left the ring, or it
   * was altered) is no session.
   *
   * Opened records are kept by store key with the exact text they were opened from, and reused only
   * while the store still holds that text: parsing and opening a record cost 60-110 µs of a signed-in
   * request under `npm run bench`'s load (issue 18 item 2), and a session is read on every request
   * but written at most once a minute (touch). Any change to the stored text (a touch, a refresh,
   * another instance's write, tampering) opens it again; a session the store no longer has is never
   * looked up. The key ring is fixed for the life of the process, so a key taken out of it (a restart)
   * starts with nothing kept. Records are frozen: one kept record is shared by every reader.
   */
  private parse(key: string, raw: string): SessionRecord | undefined {
    const kept = this.opened.get(key);
    if (kept?.raw === raw) return kept.record;
    const record = this.open(key, raw);
    if (record) this.keep(key, raw, record);
    else this.opened.delete(key);
    return record;
  }

  private open(key: string, raw: string): SessionRecord | undefined {
    const stored = JSON.parse(raw) as Omit<SessionRecord, 'tokens'> & { tokens: unknown };
    if (typeof stored.tokens !== 'string') return frozen(stored as SessionRecord);
    const opened = this.vault.open(stored.tokens, key);
    return opened === undefined
      ? undefined
      : frozen({ ...stored, tokens: JSON.parse(opened) as SessionTokens });
  }

  /** Keeps an opened record; the oldest kept goes first once OPENED_RECORDS_KEPT are kept. */
  private keep(key: string, raw: string, record: SessionRecord): void {
    this.opened.delete(key);
    if (this.opened.size >= OPENED_RECORDS_KEPT) {
      const oldest = this.opened.keys().next().value;
      if (oldest !== undefined) this.opened.delete(oldest);
    }
    this.opened.set(key, { raw, record });
  }

  static isWellFormedId(id: unknown): id is string {
    return typeof id === 'string' && SESSION_ID.test(id);
  }

  /**
   * A fresh id for every sign-in (ASVS 5.0 7.2.4: no session fixation). The session is indexed by its
   * collector (the session management page, sign out everywhere) and by the IdP's session id
   * (back-channel logout) before its record is written, so a listed session always has an index
   * entry; an index entry whose record is gone is skipped and pruned when read. All of it is one
   * batch (SessionStore.writeAll: one SQLite commit instead of ten on a brand hop, issue 18), in that
   * order, so a batch Redis stops part-way leaves only index entries without a record.
   */
  async create(
    record: Omit<SessionRecord, 'createdAt' | 'lastUsedAt'>,
    now = Date.now(),
    options: CreateOptions = {},
  ): Promise<string> {
    const id = pooledRandomBytes(32).toString('base64url');
    const handle = this.hmac(this.newest, id);
    // Named by the newest secret (older secrets' index sets may hold the sign-in's other sessions).
    const indexes = [
      this.subjectKey(this.newest, record.sub),
      ...(record.idpSid ? [this.idpSidKey(this.newest, record.idpSid)] : []),
    ];
    const stored: SessionRecord = {
      ...record,
      ...(options.handedToBrand ? { tokens: { ...record.tokens, handedAs: id } } : {}),
      signedInAt: record.signedInAt ?? now,
      createdAt: now,
      lastUsedAt: now,
    };
    const key = recordKey(handle);
    const superseding =
      options.supersede && record.family
        ? await this.supersede({ ...record, family: record.family }, handle)
        : [];
    await this.store.writeAll([
      ...indexes.map((index) => addMember(index, handle)),
      {
        op: 'set',
        key,
        value: this.serialize(key, stored),
        ttlSeconds: this.ttlSeconds(stored, now),
      },
      this.countedLive(handle, stored, now),
      ...superseding,
      ...(options.alongside?.(id) ?? []),
    ]);
    // The superseded records are gone from the store: their opened tokens are not kept either.
    for (const write of superseding) if (write.op === 'delete') this.opened.delete(write.key);
    return id;
  }

  /**
   * §4 step 5 makes a fresh session for every hop to a brand, so a collector who goes back and forth
   * would pile up sessions for a year (issue 18: 40,000 hops of one sign-in made 40,000 sessions, and
   * every listing read them all). A brand keeps one `si` per browser: the one it received last. So
   * the sessions one sign-in handed to one brand earlier are superseded by the new one and dropped
   * (not ended: they share the family's tokens, which stay valid). A sign-in thus holds at most one
   * session per brand plus the browser's own. Racing hops leave each other in the set, and the next
   * hop drops them; none is kept past it. Returns the writes: the new session joins the set, then
   * each earlier one goes, record first. The sets are read and pruned under every secret of the
   * ring: an earlier session may have been made under an older secret.
   */
  private async supersede(
    made: Pick<SessionRecord, 'sub' | 'idpSid' | 'brand'> & { readonly family: string },
    handle: string,
  ): Promise<StoreWrite[]> {
    const familyBrands = this.secrets.map((secret) =>
      this.familyBrandKey(secret, made.family, made.brand),
    );
    // The new session joins the newest secret's set; every secret's sets lose the earlier ones.
    const familyBrand = this.familyBrandKey(this.newest, made.family, made.brand);
    const indexes = [
      ...familyBrands.slice(1),
      ...this.subjectKeys(made.sub),
      ...(made.idpSid ? this.idpSidKeys(made.idpSid) : []),
    ];
    const earlier = new Set<string>();
    for (const set of familyBrands)
      for (const member of await this.store.members(set)) earlier.add(member);
    return [
      addMember(familyBrand, handle),
      ...[...earlier]
        .filter((previous) => previous !== handle && HANDLE.test(previous))
        .flatMap((previous): StoreWrite[] => [
          // Same family, so the same collector and IdP session: its index entries are known without
          // opening the record (deleteByHandle would decrypt it only to read them).
          { op: 'delete', key: `session:${previous}` },
          { op: 'removeExpiringMember', key: LIVE_SESSIONS_KEY, member: previous },
          ...[...indexes, familyBrand].map((index): StoreWrite => ({
            op: 'removeMember',
            key: index,
            member: previous,
          })),
        ]),
    ];
  }

  async get(id: unknown): Promise<SessionRecord | undefined> {
    if (!Sessions.isWellFormedId(id)) return undefined;
    const found = await this.find(id);
    return found ? this.parse(found.key, found.raw) : undefined;
  }

  /** Where the session is stored (its key under the newest secret of the ring that has it). */
  private async find(id: string): Promise<{ key: string; raw: string } | undefined> {
    for (const key of this.candidateKeys(id)) {
      const raw = await this.store.get(key);
      if (raw) return { key, raw };
      // Ended or forgotten (perhaps by another instance): its opened tokens are not kept either.
      this.opened.delete(key);
    }
    return undefined;
  }

  /** The keys a session id may be stored under: one per secret of the ring, newest first. */
  private candidateKeys(id: string): string[] {
    return this.secrets.map((secret) => recordKey(this.hmac(secret, id)));
  }

  /**
   * Records the last use (throttled) and keeps the session for another year of inactivity (with no
   * refresh token, until its access token expires: sessionTtlSeconds).
   */
  async touch(id: string, record: SessionRecord, now = Date.now()): Promise<SessionRecord> {
    if (now - record.lastUsedAt < this.touchIntervalMs) return record;
    const touched = frozen({ ...record, lastUsedAt: now });
    const key = await this.keyOf(id);
    const raw = this.serialize(key, touched);
    // Never brings back a session that was ended meanwhile.
    if (await this.store.replace(key, raw, this.ttlSeconds(touched, now))) {
      this.keep(key, raw, touched);
      await this.recount(key, touched, now);
    }
    return touched;
  }

  async updateTokens(
    id: string,
    tokens: SessionTokens,
    now = Date.now(),
    /** A new userinfo snapshot of the §3 claims, when the refresh read one. */
    userinfoClaims?: StatedClaims,
  ): Promise<SessionRecord | undefined> {
    const record = await this.get(id);
    if (!record) return undefined;
    const updated = frozen({
      ...record,
      tokens,
      lastUsedAt: now,
      ...(userinfoClaims ? { userinfoClaims } : {}),
    });
    const key = await this.keyOf(id);
    const raw = this.serialize(key, updated);
    // A session ended while its tokens were being refreshed stays ended.
    if (!(await this.store.replace(key, raw, this.ttlSeconds(updated, now)))) return undefined;
    this.keep(key, raw, updated);
    await this.recount(key, updated, Date.now());
    return updated;
  }

  /** Remembers a grant handed to a brand from this session (docs/okta.md §3). */
  async recordHandedOver(id: string, grant: HandedGrant): Promise<void> {
    const record = await this.get(id);
    if (!record) return;
    const handedOver = [...(record.tokens.handedOver ?? []), grant].slice(-MAX_HANDED_OVER);
    await this.updateTokens(id, { ...record.tokens, handedOver }, record.lastUsedAt);
  }

  /** Ends a session; returns its record when there was one. */
  async delete(id: unknown): Promise<SessionRecord | undefined> {
    if (!Sessions.isWellFormedId(id)) return undefined;
    return this.deleteByHandle(await this.handleOf(id));
  }

  /** Ends a session named by its handle; returns its record when there was one. */
  async deleteByHandle(handle: string): Promise<SessionRecord | undefined> {
    if (!HANDLE.test(handle)) return undefined;
    const key = recordKey(handle);
    const raw = await this.store.take(key);
    const record = raw ? this.parse(key, raw) : undefined;
    this.opened.delete(key);
    if (raw) await this.store.removeExpiringMember(LIVE_SESSIONS_KEY, handle);
    if (!record) return undefined;
    // It is in the index sets of the secret that named it; which one that was is not kept.
    for (const index of this.subjectKeys(record.sub)) await this.store.removeMember(index, handle);
    if (record.idpSid)
      for (const index of this.idpSidKeys(record.idpSid))
        await this.store.removeMember(index, handle);
    return record;
  }

  /** How many sessions have not lapsed, on every instance (live_sessions). */
  countLive(): Promise<number> {
    return this.store.countMembersAlive(LIVE_SESSIONS_KEY);
  }

  /** The live sessions of one collector (an index entry without its record is pruned). */
  async listForSubject(sub: string): Promise<ListedSession[]> {
    return this.listIndexes(this.subjectKeys(sub));
  }

  /** The live sessions started in one IdP session (back-channel logout by `sid`). */
  async listForIdpSid(sid: string): Promise<ListedSession[]> {
    return this.listIndexes(this.idpSidKeys(sid));
  }

  /** The sessions of one index, whose set under each secret of the ring is read. */
  private async listIndexes(indexKeys: readonly string[]): Promise<ListedSession[]> {
    const listed: ListedSession[] = [];
    const seen = new Set<string>();
    const now = Date.now();
    for (const indexKey of indexKeys) {
      for (const handle of await this.store.members(indexKey)) {
        if (seen.has(handle)) continue;
        seen.add(handle);
        const key = recordKey(handle);
        const raw = HANDLE.test(handle) ? await this.store.get(key) : undefined;
        const record = raw ? this.parse(key, raw) : undefined;
        if (!record) await this.store.removeMember(indexKey, handle);
        else if (!this.hasLapsed(record, now)) listed.push({ handle, record });
      }
    }
    return listed;
  }

  /**
   * The store key of a session id: where it is stored (under the secret of the ring that made it),
   * else where it would be made. Also names its refresh lock, which every instance must agree on
   * whatever the order of its ring (token-refresher.ts). The record was read moments before in
   * nearly every call, so the opened records answer without a store read.
   */
  async keyOf(id: string): Promise<string> {
    const made = recordKey(this.hmac(this.newest, id));
    if (this.secrets.length === 1) return made;
    const opened = this.candidateKeys(id).find((key) => this.opened.has(key));
    return opened ?? (await this.find(id))?.key ?? made;
  }

  /** A session's public name: the HMAC of its id under the secret of the ring that made it. */
  async handleOf(id: string): Promise<string> {
    return (await this.keyOf(id)).slice(recordKey('').length);
  }

  /** The secret that names new sessions and index entries. */
  private get newest(): KeyObject {
    const [newest] = this.secrets;
    if (!newest) throw new Error('SESSION_SECRET holds no secret');
    return newest;
  }

  private subjectKey(secret: KeyObject, sub: string): string {
    return `sessions-of:${this.hmac(secret, `sub:${sub}`)}`;
  }

  private familyBrandKey(secret: KeyObject, family: string, brand: Brand): string {
    return `sessions-of-family-brand:${this.hmac(secret, `family:${family}:${brand}`)}`;
  }

  private idpSidKey(secret: KeyObject, sid: string): string {
    return `sessions-of-idp-sid:${this.hmac(secret, `sid:${sid}`)}`;
  }

  /** An index's key under each secret of the ring, newest first. */
  private subjectKeys(sub: string): string[] {
    return this.secrets.map((secret) => this.subjectKey(secret, sub));
  }

  private idpSidKeys(sid: string): string[] {
    return this.secrets.map((secret) => this.idpSidKey(secret, sid));
  }

  private hmac(secret: KeyObject, value: string): string {
    return createHmac('sha256', secret).update(value).digest('base64url');
  }
}
