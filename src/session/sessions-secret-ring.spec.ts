import * as path from 'node:path';
import { createHmac, randomBytes } from 'node:crypto';
import { tempDataDir, testConfig } from '../../test/support/test-config';
import { Sessions } from './sessions';
import { SqliteSessionStore } from '../store/sqlite-session-store';
import { TokenVault } from '../store/token-vault';

/**
 * SESSION_SECRET as a ring (docs/operating.md "Rotating secrets"): a session stays where the secret
 * that made it put it, and every instance whose ring holds that secret finds it, whatever the
 * order. Several Sessions on one store stand for instances (or restarts) with different rings.
 */
describe('Sessions under a ring of session secrets', () => {
  const OLD = randomBytes(32).toString('base64');
  const NEW = randomBytes(32).toString('base64');
  const base = testConfig();
  let store: SqliteSessionStore;
  const vault = new TokenVault(base.tokenKeys);
  const withRing = (...ring: string[]) =>
    new Sessions(store, { ...base, sessionSecrets: ring }, vault);
  const record = {
    brand: 'psa' as const,
    sub: 'collector-1',
    idpSid: 'idp-session-1',
    family: 'family-1',
    tokens: { accessToken: 'at-1', refreshToken: 'rt-1', expiresAt: 4_000_000_000 },
  };

  beforeEach(() => {
    store = new SqliteSessionStore(path.join(tempDataDir(), 'sessions.sqlite'));
  });
  afterEach(() => store.close());

  /** Every key of the store that holds a session record. */
  const recordKeys = async (...ids: string[]) => {
    const keys: string[] = [];
    for (const ring of [[OLD], [NEW]])
      for (const id of ids) {
        const key = await withRing(...ring).keyOf(id);
        if (await store.get(key)) keys.push(key);
      }
    return keys;
  };

  it.each([
    ['the old secret alone', [OLD], true],
    ['the next secret added second (step 1)', [OLD, NEW], true],
    ['the next secret moved first (step 2)', [NEW, OLD], true],
    ['the new secret alone (the old one retired)', [NEW], false],
  ])('finds a session made under the old secret with %s', async (_name, ring, found) => {
    const id = await withRing(OLD).create(record);
    const sessions = withRing(...ring);
    expect((await sessions.get(id))?.tokens.accessToken).toBe(found ? 'at-1' : undefined);
    expect((await sessions.listForSubject('collector-1')).length).toBe(found ? 1 : 0);
    expect((await sessions.listForIdpSid('idp-session-1')).length).toBe(found ? 1 : 0);
  });

  it('names a session and its refresh lock alike on every ring holding its secret', async () => {
    const id = await withRing(OLD).create(record);
    const handles = new Set<string>();
    const keys = new Set<string>();
    for (const ring of [[OLD], [OLD, NEW], [NEW, OLD]]) {
      // A fresh instance: nothing opened yet, so the store is asked.
      handles.add(await withRing(...ring).handleOf(id));
      keys.add(await withRing(...ring).keyOf(id));
    }
    expect(handles.size).toBe(1);
    expect(keys.size).toBe(1);
    const [listed] = await withRing(NEW, OLD).listForSubject('collector-1');
    expect(handles).toEqual(new Set([listed?.handle]));
  });

  it('names new sessions by the first secret; the other order finds them', async () => {
    const stepTwo = withRing(NEW, OLD);
    const id = await stepTwo.create(record);
    expect(await withRing(NEW).get(id)).toBeDefined();
    expect(await withRing(OLD).get(id)).toBeUndefined();
    expect(await withRing(OLD, NEW).get(id)).toBeDefined();
  });

  it('keeps a session where it is through touches and refreshes: no second copy', async () => {
    const id = await withRing(OLD).create(record, Date.now() - 3_600_000);
    const sessions = withRing(NEW, OLD);
    const found = await sessions.get(id);
    await sessions.touch(id, found!);
    await sessions.updateTokens(id, { ...found!.tokens, accessToken: 'at-2' });
    expect(await recordKeys(id)).toEqual([await withRing(OLD).keyOf(id)]);
    expect((await withRing(OLD).get(id))?.tokens.accessToken).toBe('at-2');
  });

  it('ends a session made under either secret, and leaves no index entry behind', async () => {
    const older = await withRing(OLD).create(record);
    const newer = await withRing(NEW, OLD).create(record);
    const sessions = withRing(NEW, OLD);
    expect((await sessions.listForSubject('collector-1')).length).toBe(2);
    expect(await sessions.delete(older)).toBeDefined();
    const [left] = await sessions.listForSubject('collector-1');
    expect(left?.handle).toBe(await sessions.handleOf(newer));
    expect(await sessions.deleteByHandle(left?.handle ?? '')).toBeDefined();
    expect(await sessions.listForSubject('collector-1')).toEqual([]);
    // The collector's index set under each secret (docs/design.md: keyed by an HMAC of the
    // subject).
    for (const secret of [OLD, NEW])
      expect(await store.members(`sessions-of:${hmac(secret, 'sub:collector-1')}`)).toEqual([]);
  });

  it('a brand hop under the new secret supersedes the hop made under the old one', async () => {
    const before = await withRing(OLD).create(record, Date.now(), { supersede: true });
    const after = await withRing(NEW, OLD).create(record, Date.now(), { supersede: true });
    const sessions = withRing(NEW, OLD);
    expect(await sessions.get(before)).toBeUndefined();
    expect(await sessions.get(after)).toBeDefined();
    expect((await sessions.listForSubject('collector-1')).map((s) => s.handle)).toEqual([
      await sessions.handleOf(after),
    ]);
  });
});

/** An HMAC as Sessions computes its keys: SHA-256 under the secret's UTF-8 bytes, base64url. */
function hmac(secret: string, value: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(value).digest('base64url');
}
