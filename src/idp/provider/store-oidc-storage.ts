import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { SessionStore, StoreWrite } from '../../store/session-store';

/**
 * oidc-provider's storage contract on the shared-state port (the IdP's own store, idp-state-store.ts):
 * with SESSION_STORE=redis every instance of the embedded IdP sees the same sessions, interactions,
 * authorization codes, grants and tokens (issue 7); with SQLite (one instance) they survive restarts.
 * oidc-provider's default adapter is in-memory and would lose them all.
 *
 * Keys (all under `idp:`):
 * - `idp:oidc:{model}:{id}`: `{ p: payload, e: expiry in ms }`, stored with the artefact's own TTL.
 * - `idp:oidc-uid:{model}:{uid}` and `idp:oidc-usercode:{model}:{userCode}`: the id, for the
 *   provider's look-ups by uid (sessions) and user code (device flow).
 * - `idp:oidc-grant:{grantId}`: the set of `{model}:{id}` issued under one grant, so revoking a grant
 *   reaches codes, access and refresh tokens of every model.
 * - `idp:oidc-account:{accountId}`: the set of `Session:{id}` and `Grant:{id}` of one account, so that
 *   a password reset can end all of them (`endAccount`, issue 15 item 2).
 */

/** Artefacts the provider stores without an expiry get this one; none of ours lives longer. */
export const DEFAULT_ARTEFACT_TTL_SECONDS = 30 * 24 * 60 * 60;

interface StoredArtefact {
  readonly p: AdapterPayload;
  /** Absolute expiry, so consume() can rewrite the record with the life it had left. */
  readonly e: number;
}

export const artefactKey = (model: string, id: string): string => `idp:oidc:${model}:${id}`;
const uidKey = (model: string, uid: string): string => `idp:oidc-uid:${model}:${uid}`;
const userCodeKey = (model: string, code: string): string => `idp:oidc-usercode:${model}:${code}`;
const grantKey = (grantId: string): string => `idp:oidc-grant:${grantId}`;
const accountKey = (accountId: string): string => `idp:oidc-account:${accountId}`;

/** The artefacts indexed by account: what a collector is signed in with, and what tokens hang on. */
const ACCOUNT_MODELS: ReadonlySet<string> = new Set(['Session', 'Grant']);

/** What `endAccount` ended. */
export interface EndedAccountArtefacts {
  readonly sessions: number;
  readonly grants: number;
}

function ttlSeconds(expiresIn: number | undefined): number {
  return typeof expiresIn === 'number' && expiresIn > 0
    ? Math.ceil(expiresIn)
    : DEFAULT_ARTEFACT_TTL_SECONDS;
}

export class StoreOidcStorage {
  constructor(
    private readonly store: SessionStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** The adapter oidc-provider instantiates once per model name. */
  adapterFor(model: string): Adapter {
    const { store, now } = this;
    const read = async (id: string): Promise<StoredArtefact | undefined> => {
      const raw = await store.get(artefactKey(model, id));
      return raw === undefined ? undefined : (JSON.parse(raw) as StoredArtefact);
    };
    const find = async (id: string): Promise<AdapterPayload | undefined> => (await read(id))?.p;
    const findByIndex = async (key: string): Promise<AdapterPayload | undefined> => {
      const id = await store.get(key);
      return id === undefined ? undefined : find(id);
    };
    return {
      async upsert(id, payload, expiresIn) {
        const ttl = ttlSeconds(expiresIn);
        const record: StoredArtefact = { p: payload, e: now() + ttl * 1000 };
        const member = `${model}:${id}`;
        // One batch, which SQLite commits once (with the store's one-transaction delete, an embedded
        // sign-in's commits went from 81 to 37: docs/performance.md). Index entries first, as Redis
        // makes a batch one write at a time: an artefact is never findable by id while its grant
        // cannot revoke it.
        const writes: StoreWrite[] = [];
        if (payload.grantId)
          writes.push({ op: 'addMember', key: grantKey(payload.grantId), member, ttlSeconds: ttl });
        if (ACCOUNT_MODELS.has(model) && typeof payload.accountId === 'string')
          writes.push({
            op: 'addMember',
            key: accountKey(payload.accountId),
            member,
            ttlSeconds: ttl,
          });
        if (payload.uid)
          writes.push({ op: 'set', key: uidKey(model, payload.uid), value: id, ttlSeconds: ttl });
        if (payload.userCode)
          writes.push({
            op: 'set',
            key: userCodeKey(model, payload.userCode),
            value: id,
            ttlSeconds: ttl,
          });
        writes.push({
          op: 'set',
          key: artefactKey(model, id),
          value: JSON.stringify(record),
          ttlSeconds: ttl,
        });
        await store.writeAll(writes);
      },
      find,
      findByUid: (uid) => findByIndex(uidKey(model, uid)),
      findByUserCode: (userCode) => findByIndex(userCodeKey(model, userCode)),
      async consume(id) {
        const record = await read(id);
        if (!record) return;
        const left = Math.ceil((record.e - now()) / 1000);
        if (left <= 0) return;
        const consumed: StoredArtefact = {
          p: { ...record.p, consumed: Math.floor(now() / 1000) },
          e: record.e,
        };
        // replace, not set: an artefact destroyed meanwhile (its grant revoked) stays gone.
        await store.replace(artefactKey(model, id), JSON.stringify(consumed), left);
      },
      async destroy(id) {
        const record = await read(id);
        const member = `${model}:${id}`;
        // The artefact first, then its index entries, in one batch (one commit in SQLite).
        const writes: StoreWrite[] = [{ op: 'delete', key: artefactKey(model, id) }];
        // An index entry goes only while it still names this artefact: a session that changed its id
        // keeps its uid, and the new id's entry must survive the old id's removal.
        const dropIndex = async (key: string): Promise<void> => {
          if ((await store.get(key)) === id) writes.push({ op: 'delete', key });
        };
        if (record?.p.uid) await dropIndex(uidKey(model, record.p.uid));
        if (record?.p.userCode) await dropIndex(userCodeKey(model, record.p.userCode));
        if (record?.p.grantId)
          writes.push({ op: 'removeMember', key: grantKey(record.p.grantId), member });
        if (ACCOUNT_MODELS.has(model) && typeof record?.p.accountId === 'string')
          writes.push({ op: 'removeMember', key: accountKey(record.p.accountId), member });
        await store.writeAll(writes);
      },
      revokeByGrantId: (grantId) => this.revokeGrant(grantId),
    };
  }

  /**
   * Ends everything one account is signed in with at this IdP: every session (the browser's IdP
   * cookie signs in nobody any more) and every grant with the codes, access and refresh tokens issued
   * under it (introspection answers inactive). A password reset calls it (issue 15 item 2, ASVS 5.0
   * 7.4.3). A session that meanwhile belongs to another account (the same browser signed in as
   * someone else) is left alone. Artefacts stored before this index existed are not found.
   */
  async endAccount(accountId: string): Promise<EndedAccountArtefacts> {
    let sessions = 0;
    let grants = 0;
    for (const member of await this.store.members(accountKey(accountId))) {
      const at = member.indexOf(':');
      const [model, id] = [member.slice(0, at), member.slice(at + 1)];
      const adapter = this.adapterFor(model);
      const payload = await adapter.find(id);
      if (payload?.accountId !== accountId) {
        await this.store.removeMember(accountKey(accountId), member);
        continue;
      }
      if (model === 'Grant') {
        await this.revokeGrant(id);
        grants += 1;
      } else {
        sessions += 1;
      }
      await adapter.destroy(id);
    }
    return { sessions, grants };
  }

  private async revokeGrant(grantId: string): Promise<void> {
    const members = await this.store.members(grantKey(grantId));
    await Promise.all(
      members.map((member) => {
        const at = member.indexOf(':');
        return this.store.delete(artefactKey(member.slice(0, at), member.slice(at + 1)));
      }),
    );
    await this.store.delete(grantKey(grantId));
  }
}
