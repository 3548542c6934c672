import * as path from 'node:path';
import { tempDataDir, testConfig } from '../../test/support/test-config';
import { OPENED_RECORDS_KEPT, SESSION_TTL_SECONDS, Sessions, sessionTtlSeconds } from './sessions';
import { SqliteSessionStore } from '../store/sqlite-session-store';
import { TokenVault } from '../store/token-vault';

/**
 * How long the store keeps a session (issue 14 item 7): a year while a refresh token can renew it,
 * else exactly its access token's remaining lifetime.
 */
describe(sessionTtlSeconds.name, () => {
  const now = 1_800_000_000_000;
  const inSeconds = (s: number) => now / 1000 + s;

  it.each([
    ['a refresh token', { refreshToken: 'rt', expiresAt: inSeconds(60) }, SESSION_TTL_SECONDS],
    [
      'a refresh token, expired access token',
      { refreshToken: 'rt', expiresAt: inSeconds(-60) },
      SESSION_TTL_SECONDS,
    ],
    ['no refresh token, an hour left', { expiresAt: inSeconds(3600) }, 3600],
    ['no refresh token, half a second left', { expiresAt: inSeconds(0.5) }, 1],
    ['no refresh token, expired', { expiresAt: inSeconds(-10) }, 1],
    [
      'no refresh token, two years left',
      { expiresAt: inSeconds(2 * SESSION_TTL_SECONDS) },
      SESSION_TTL_SECONDS,
    ],
  ])('%s: %d s', (_name, tokens, expected) => {
    expect(sessionTtlSeconds({ accessToken: 'at', ...tokens }, now)).toBe(expected);
  });
});

/**
 * Opened records are kept while the store holds the exact text they were opened from (issue 18 item
 * 2: parsing and opening cost 60-110 µs a request under load). What a collector or an attacker could
 * notice: a change made anywhere (this instance, another one sharing the store, someone editing the
 * store) is seen at the next read, and an ended session stays ended.
 */
describe('Sessions: opened records kept by their stored text', () => {
  const config = testConfig();
  let dir: string;
  let store: SqliteSessionStore;
  let vault: TokenVault;
  let sessions: Sessions;
  const record = {
    brand: 'psa' as const,
    sub: 'collector-1',
    tokens: { accessToken: 'at-1', refreshToken: 'rt-1', expiresAt: 4_000_000_000 },
    account: { email: 'c@example.com', factors: ['totp' as const] },
  };

  beforeEach(() => {
    dir = tempDataDir();
    store = new SqliteSessionStore(path.join(dir, 'sessions.sqlite'));
    vault = new TokenVault(config.tokenKeys);
    sessions = new Sessions(store, config, vault);
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await store.close();
  });

  it('opens an unchanged record once, and gives every reader the same frozen record', async () => {
    const id = await sessions.create(record);
    const open = jest.spyOn(vault, 'open');
    const first = await sessions.get(id);
    const second = await sessions.get(id);
    expect(open).toHaveBeenCalledTimes(1);
    expect(second).toBe(first);
    expect(first?.tokens.accessToken).toBe('at-1');
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first?.tokens)).toBe(true);
    expect(Object.isFrozen(first?.account?.factors)).toBe(true);
    expect(() => {
      (first!.tokens as { accessToken: string }).accessToken = 'stolen';
    }).toThrow(TypeError);
  });

  it('sees new tokens at once, whoever wrote them (another instance sharing the store)', async () => {
    const id = await sessions.create(record);
    await sessions.get(id);
    const other = new Sessions(store, config, new TokenVault(config.tokenKeys));
    await other.updateTokens(id, { accessToken: 'at-2', refreshToken: 'rt-2', expiresAt: 4e9 });
    expect((await sessions.get(id))?.tokens.accessToken).toBe('at-2');
  });

  it('keeps what it wrote itself: no second opening after a refresh or a touch', async () => {
    const id = await sessions.create(record);
    await sessions.updateTokens(id, { accessToken: 'at-3', expiresAt: 4e9, refreshToken: 'rt-3' });
    const open = jest.spyOn(vault, 'open');
    expect((await sessions.get(id))?.tokens.accessToken).toBe('at-3');
    const touched = await sessions.touch(id, (await sessions.get(id))!, Date.now() + 3_600_000);
    expect(await sessions.get(id)).toBe(touched);
    expect(open).not.toHaveBeenCalled();
  });

  it('an ended session stays ended, here and when another instance ended it', async () => {
    const mine = await sessions.create(record);
    await sessions.get(mine);
    await sessions.delete(mine);
    expect(await sessions.get(mine)).toBeUndefined();

    const theirs = await sessions.create(record);
    await sessions.get(theirs);
    await new Sessions(store, config, new TokenVault(config.tokenKeys)).delete(theirs);
    expect(await sessions.get(theirs)).toBeUndefined();
  });

  it('keeps no opened tokens of a session the store no longer has', async () => {
    const kept = () => (sessions as unknown as { opened: Map<string, unknown> }).opened.size;
    const id = await sessions.create(record);
    await sessions.get(id);
    expect(kept()).toBe(1);
    await new Sessions(store, config, new TokenVault(config.tokenKeys)).delete(id);
    expect(await sessions.get(id)).toBeUndefined();
    expect(kept()).toBe(0);
  });

  it('keeps no opened tokens of a session that a later hop to the same brand superseded', async () => {
    const kept = () => (sessions as unknown as { opened: Map<string, unknown> }).opened.size;
    const hop = { ...record, family: 'family-1' };
    const first = await sessions.create(hop, Date.now(), { supersede: true });
    await sessions.get(first);
    expect(kept()).toBe(1);
    const second = await sessions.create(hop, Date.now(), { supersede: true });
    expect(kept()).toBe(0);
    expect(await sessions.get(first)).toBeUndefined();
    expect((await sessions.get(second))?.tokens.accessToken).toBe('at-1');
  });

  it('a record altered in the store is no session, though it was opened before', async () => {
    const id = await sessions.create(record);
    expect(await sessions.get(id)).toBeDefined();
    const key = await sessions.keyOf(id);
    const raw = (await store.get(key))!;
    const stored = JSON.parse(raw) as { tokens: string };
    // The attacker swaps the sealed tokens' last characters (the GCM tag) and keeps everything else.
    const tampered = JSON.stringify({ ...stored, tokens: `${stored.tokens.slice(0, -4)}AAAA` });
    await store.set(key, tampered, 3600);
    expect(await sessions.get(id)).toBeUndefined();
    // Putting the genuine text back is a session again: it opens as it did the first time.
    await store.set(key, raw, 3600);
    expect((await sessions.get(id))?.tokens.accessToken).toBe('at-1');
  });

  it(`keeps at most ${OPENED_RECORDS_KEPT} records, the oldest going first`, async () => {
    const ids: string[] = [];
    for (let i = 0; i <= OPENED_RECORDS_KEPT; i++) {
      ids.push(await sessions.create({ ...record, sub: `collector-${i}` }));
    }
    for (const id of ids) await sessions.get(id);
    const open = jest.spyOn(vault, 'open');
    await sessions.get(ids[ids.length - 1]);
    expect(open).not.toHaveBeenCalled();
    await sessions.get(ids[0]);
    expect(open).toHaveBeenCalledTimes(1);
  });
});

/**
 * A brand hop's fresh session and the pending grant that names it are one decision (signin.service.ts
 * toIdpForBrandGrant): written in one batch, kept together or not at all.
 */
describe('Sessions.create: writes alongside the new session', () => {
  const config = testConfig();
  let store: SqliteSessionStore;
  let sessions: Sessions;
  const record = {
    brand: 'psa' as const,
    sub: 'collector-1',
    family: 'family-1',
    tokens: { accessToken: 'at-1', refreshToken: 'rt-1', expiresAt: 4_000_000_000 },
  };

  beforeEach(() => {
    store = new SqliteSessionStore(path.join(tempDataDir(), 'sessions.sqlite'));
    sessions = new Sessions(store, config, new TokenVault(config.tokenKeys));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await store.close();
  });

  it('commits them in the session’s own batch, knowing its id', async () => {
    const writeAll = jest.spyOn(store, 'writeAll');
    const set = jest.spyOn(store, 'set');
    const id = await sessions.create(record, Date.now(), {
      supersede: true,
      alongside: (sessionId) => [
        { op: 'set', key: `login:for-${sessionId}`, value: 'pending', ttlSeconds: 600 },
      ],
    });
    expect(writeAll).toHaveBeenCalledTimes(1);
    expect(set).not.toHaveBeenCalled();
    expect(await store.get(`login:for-${id}`)).toBe('pending');
    expect((await sessions.get(id))?.tokens.accessToken).toBe('at-1');
  });

  it('keeps neither when the batch is refused', async () => {
    let named: string | undefined;
    await expect(
      sessions.create(record, Date.now(), {
        supersede: true,
        alongside: (sessionId) => {
          named = sessionId;
          return [{ op: 'set', key: `login:for-${sessionId}`, value: 'pending', ttlSeconds: -1 }];
        },
      }),
    ).rejects.toThrow();
    expect(named).toEqual(expect.any(String));
    expect(await sessions.get(named!)).toBeUndefined();
    expect(await store.get(`login:for-${named}`)).toBeUndefined();
    expect(await sessions.listForSubject(record.sub)).toEqual([]);
  });
});

/**
 * live_sessions (docs/operating.md "On-call metrics"): the store counts each session until it
 * lapses (idle timeout, absolute lifetime, or its access token when it has no refresh token), moves
 * that end when the record is written, and drops it when the session ends. One clock for the
 * sessions and the store.
 */
describe('Sessions.countLive', () => {
  const config = testConfig({
    SESSION_IDLE_TIMEOUT_SECONDS: '600',
    SESSION_MAX_LIFETIME_SECONDS: '3600',
  });
  const t0 = 1_800_000_000_000;
  let clock = t0;
  let store: SqliteSessionStore;
  let sessions: Sessions;
  const withRefresh = {
    brand: 'psa' as const,
    sub: 'collector-1',
    tokens: { accessToken: 'at', refreshToken: 'rt', expiresAt: t0 / 1000 + 300 },
  };
  /** A sign-in from a handed-over `t`: its access token only, for two minutes. */
  const accessTokenOnly = {
    brand: 'psa' as const,
    sub: 'collector-2',
    tokens: { accessToken: 'at', expiresAt: t0 / 1000 + 120 },
  };

  beforeEach(() => {
    clock = t0;
    store = new SqliteSessionStore(path.join(tempDataDir(), 'sessions.sqlite'), () => clock);
    sessions = new Sessions(store, config, new TokenVault(config.tokenKeys));
  });
  afterEach(async () => {
    await store.close();
  });

  it('counts a session until it lapses; a touch moves the end, an ending drops it', async () => {
    expect(await sessions.countLive()).toBe(0);
    const a = await sessions.create(withRefresh, clock);
    await sessions.create(accessTokenOnly, clock);
    const ended = await sessions.create({ ...withRefresh, sub: 'collector-3' }, clock);
    expect(await sessions.countLive()).toBe(3);
    await sessions.delete(ended);
    expect(await sessions.countLive()).toBe(2);
    // The access token only session lapses with its token.
    clock = t0 + 121_000;
    expect(await sessions.countLive()).toBe(1);
    // Used: idle from now on, not from its creation.
    const record = await sessions.get(a);
    if (!record) throw new Error('no session');
    await sessions.touch(a, record, clock);
    clock = t0 + 650_000;
    expect(await sessions.countLive()).toBe(1);
    // Idle past the timeout: lapsed, though the store keeps the record a day longer.
    clock = t0 + 121_000 + 601_000;
    expect(await sessions.countLive()).toBe(0);
    expect(await sessions.get(a)).toBeDefined();
  });

  it('a session lapses at its absolute lifetime however much it is used', async () => {
    const a = await sessions.create(withRefresh, clock);
    for (let minute = 9; minute <= 59; minute += 9) {
      clock = t0 + minute * 60_000;
      const record = await sessions.get(a);
      if (!record) throw new Error('no session');
      await sessions.touch(a, record, clock);
      expect(await sessions.countLive()).toBe(1);
    }
    clock = t0 + 3_601_000;
    expect(await sessions.countLive()).toBe(0);
  });

  it('a superseded session is no longer counted: one per brand and sign-in', async () => {
    const family = { ...withRefresh, family: 'family-1' };
    await sessions.create(family, clock, { supersede: true });
    await sessions.create(family, clock, { supersede: true });
    await sessions.create(family, clock, { supersede: true });
    expect(await sessions.countLive()).toBe(1);
  });
});
