import * as path from 'node:path';
import { RunningRedis, startRedis } from '../../../test/support/redis-server';
import { tempDataDir } from '../../../test/support/test-config';
import { RedisSessionStore } from '../../store/redis-session-store';
import type { SessionStore } from '../../store/session-store';
import { SqliteSessionStore } from '../../store/sqlite-session-store';
import { StoreOidcStorage } from './store-oidc-storage';

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

// The same behaviour on both adapters of the port: SQLite (one instance) and Redis (several).
const backends: [string, () => SessionStore][] = [
  ['sqlite', () => new SqliteSessionStore(path.join(tempDataDir(), 'sessions.sqlite'))],
  ['redis', () => new RedisSessionStore(redis.url, `oidc-test-${Math.random()}:`)],
];

describe.each(backends)('%s: oidc-provider artefacts on the shared-state port', (_name, open) => {
  let store: SessionStore;
  let storage: StoreOidcStorage;
  beforeEach(() => {
    store = open();
    storage = new StoreOidcStorage(store);
  });
  afterEach(() => store.close());

  it('stores, finds, consumes and destroys per model', async () => {
    const codes = storage.adapterFor('AuthorizationCode');
    const sessions = storage.adapterFor('Session');
    await codes.upsert('c1', { grantId: 'g1', iat: 1 }, 60);
    expect(await codes.find('c1')).toEqual({ grantId: 'g1', iat: 1 });
    expect(await sessions.find('c1')).toBeUndefined();
    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toEqual(expect.any(Number));
    await codes.destroy('c1');
    expect(await codes.find('c1')).toBeUndefined();
  });

  it('finds sessions by uid and device codes by user code, and forgets them when destroyed', async () => {
    const sessions = storage.adapterFor('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'a' }, 60);
    expect(await sessions.findByUid('u1')).toEqual({ uid: 'u1', accountId: 'a' });
    expect(await storage.adapterFor('Interaction').findByUid('u1')).toBeUndefined();
    await sessions.destroy('s1');
    expect(await sessions.findByUid('u1')).toBeUndefined();
    const device = storage.adapterFor('DeviceCode');
    await device.upsert('d1', { userCode: 'ABCD-EFGH' }, 60);
    expect(await device.findByUserCode('ABCD-EFGH')).toEqual({ userCode: 'ABCD-EFGH' });
  });

  it('keeps the uid index of a session that changed its id when the old id is destroyed', async () => {
    const sessions = storage.adapterFor('Session');
    await sessions.upsert('old', { uid: 'u3', accountId: 'a' }, 60);
    await sessions.upsert('new', { uid: 'u3', accountId: 'a' }, 60);
    await sessions.destroy('old');
    expect(await sessions.findByUid('u3')).toEqual({ uid: 'u3', accountId: 'a' });
  });

  // An artefact and its index entries are one batch (one commit in SQLite): a batch with one bad
  // entry is refused whole, so no index names an artefact that was never stored.
  it('stores nothing of an artefact whose index entry is refused, not even its grant entry', async () => {
    const sessions = storage.adapterFor('Session');
    const uid = 'u'.repeat(600); // its index key is longer than the store takes
    await expect(
      sessions.upsert('s9', { uid, accountId: 'a9', grantId: 'g8' }, 60),
    ).rejects.toThrow(RangeError);
    expect(await sessions.find('s9')).toBeUndefined();
    expect(await store.members('idp:oidc-grant:g8')).toEqual([]);
    expect(await store.members('idp:oidc-account:a9')).toEqual([]);
  });

  it('drops a destroyed artefact with its grant and account entries', async () => {
    const sessions = storage.adapterFor('Session');
    await sessions.upsert('s8', { uid: 'u8', accountId: 'a8', grantId: 'g7' }, 60);
    expect(await store.members('idp:oidc-grant:g7')).toEqual(['Session:s8']);
    await sessions.destroy('s8');
    expect(await sessions.findByUid('u8')).toBeUndefined();
    expect(await store.members('idp:oidc-grant:g7')).toEqual([]);
    expect(await store.members('idp:oidc-account:a8')).toEqual([]);
  });

  it('lets an artefact expire with its own lifetime', async () => {
    const interactions = storage.adapterFor('Interaction');
    await interactions.upsert('i1', { uid: 'u2' }, 1);
    expect(await interactions.find('i1')).toBeDefined();
    await new Promise((r) => setTimeout(r, 2100));
    expect(await interactions.find('i1')).toBeUndefined();
    expect(await interactions.findByUid('u2')).toBeUndefined();
  });

  it('revokes every artefact of a grant across models, and nothing of another grant', async () => {
    const rt = storage.adapterFor('RefreshToken');
    const at = storage.adapterFor('AccessToken');
    await rt.upsert('r1', { grantId: 'g9' }, 3600);
    await at.upsert('a1', { grantId: 'g9' }, 3600);
    await at.upsert('a2', { grantId: 'other' }, 3600);
    await rt.revokeByGrantId('g9');
    expect(await rt.find('r1')).toBeUndefined();
    expect(await at.find('a1')).toBeUndefined();
    expect(await at.find('a2')).toEqual({ grantId: 'other' });
  });

  it('does not bring back a consumed artefact that was revoked meanwhile', async () => {
    const codes = storage.adapterFor('AuthorizationCode');
    await codes.upsert('c2', { grantId: 'g2' }, 60);
    await codes.revokeByGrantId('g2');
    await codes.consume('c2');
    expect(await codes.find('c2')).toBeUndefined();
  });

  // Issue 15 item 2: a password reset ends everything the account is signed in with at the IdP.
  it('ends every session and grant of one account, with the grants’ tokens, and nothing else', async () => {
    const sessions = storage.adapterFor('Session');
    const grants = storage.adapterFor('Grant');
    const rt = storage.adapterFor('RefreshToken');
    await sessions.upsert('s-a1', { uid: 'ua1', accountId: 'acct' }, 3600);
    await sessions.upsert('s-a2', { uid: 'ua2', accountId: 'acct' }, 3600);
    await grants.upsert('g-a', { accountId: 'acct' }, 3600);
    await rt.upsert('r-a', { grantId: 'g-a', accountId: 'acct' }, 3600);
    // Someone else's, and a session of this browser that now belongs to another account.
    await sessions.upsert('s-b', { uid: 'ub', accountId: 'other' }, 3600);
    await grants.upsert('g-b', { accountId: 'other' }, 3600);
    await rt.upsert('r-b', { grantId: 'g-b', accountId: 'other' }, 3600);
    await sessions.upsert('s-moved', { uid: 'um', accountId: 'acct' }, 3600);
    await sessions.upsert('s-moved', { uid: 'um', accountId: 'other' }, 3600);

    expect(await storage.endAccount('acct')).toEqual({ sessions: 2, grants: 1 });
    expect(await sessions.find('s-a1')).toBeUndefined();
    expect(await sessions.findByUid('ua2')).toBeUndefined();
    expect(await grants.find('g-a')).toBeUndefined();
    expect(await rt.find('r-a')).toBeUndefined();
    expect(await sessions.find('s-b')).toBeDefined();
    expect(await sessions.find('s-moved')).toEqual({ uid: 'um', accountId: 'other' });
    expect(await rt.find('r-b')).toBeDefined();
    expect(await storage.endAccount('acct')).toEqual({ sessions: 0, grants: 0 });
  });

  it('is shared: a second adapter on the same store sees what the first stored', async () => {
    await storage.adapterFor('Grant').upsert('g3', { accountId: 'a' }, 60);
    expect(await new StoreOidcStorage(store).adapterFor('Grant').find('g3')).toEqual({
      accountId: 'a',
    });
  });
});
