import type { SessionStore } from './session-store';

/**
 * One behaviour, two adapters: every SessionStore implementation runs these cases.
 * `advance` moves the store's clock (or waits, for Redis, whose clock we do not own).
 */
export function describeSessionStoreContract(
  name: string,
  setup: () => Promise<{ store: SessionStore; advance: (seconds: number) => Promise<void> }>,
): void {
  describe(`SessionStore contract: ${name}`, () => {
    let store: SessionStore;
    let advance: (seconds: number) => Promise<void>;
    let n = 0;
    const key = (label: string) => `test:${label}:${process.pid}:${++n}:${Date.now()}`;

    beforeAll(async () => {
      ({ store, advance } = await setup());
    });
    afterAll(async () => {
      await store.close();
    });

    it('answers a ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('stores, reads, overwrites and deletes', async () => {
      const k = key('rw');
      expect(await store.get(k)).toBeUndefined();
      await store.set(k, 'one', 60);
      expect(await store.get(k)).toBe('one');
      await store.set(k, 'two', 60);
      expect(await store.get(k)).toBe('two');
      await store.delete(k);
      expect(await store.get(k)).toBeUndefined();
      await expect(store.delete(k)).resolves.toBeUndefined();
    });

    it('keeps any string value intact', async () => {
      const k = key('unicode');
      const value = JSON.stringify({ s: 'é✓日本\u0000\n"', big: 'x'.repeat(10_000) });
      await store.set(k, value, 60);
      expect(await store.get(k)).toBe(value);
    });

    it('forgets a value after its time to live', async () => {
      const k = key('ttl');
      await store.set(k, 'v', 1);
      await advance(1.2);
      expect(await store.get(k)).toBeUndefined();
    });

    it('setIfAbsent stores once, and again after expiry', async () => {
      const k = key('nx');
      expect(await store.setIfAbsent(k, 'first', 1)).toBe(true);
      expect(await store.setIfAbsent(k, 'second', 1)).toBe(false);
      expect(await store.get(k)).toBe('first');
      await advance(1.2);
      expect(await store.setIfAbsent(k, 'third', 60)).toBe(true);
      expect(await store.get(k)).toBe('third');
    });

    it('replace overwrites only a live value', async () => {
      const k = key('replace');
      expect(await store.replace(k, 'ghost', 60)).toBe(false);
      expect(await store.get(k)).toBeUndefined();
      await store.set(k, 'one', 60);
      expect(await store.replace(k, 'two', 60)).toBe(true);
      expect(await store.get(k)).toBe('two');
      await store.delete(k);
      expect(await store.replace(k, 'three', 60)).toBe(false);
      expect(await store.get(k)).toBeUndefined();
    });

    it('take returns a value exactly once, even to concurrent callers', async () => {
      const k = key('take');
      await store.set(k, 'code', 60);
      const results = await Promise.all(Array.from({ length: 10 }, () => store.take(k)));
      expect(results.filter((r) => r === 'code')).toHaveLength(1);
      expect(await store.get(k)).toBeUndefined();
      expect(await store.take(key('missing'))).toBeUndefined();
    });

    it('deleteIfEquals deletes only while the key holds that value (issue 15 item 10)', async () => {
      const k = key('cad');
      await store.set(k, 'holder-a', 60);
      expect(await store.deleteIfEquals(k, 'holder-b')).toBe(false);
      expect(await store.get(k)).toBe('holder-a');
      expect(await store.deleteIfEquals(k, 'holder-a')).toBe(true);
      expect(await store.get(k)).toBeUndefined();
      expect(await store.deleteIfEquals(k, 'holder-a')).toBe(false);
    });

    it('deleteIfEquals leaves a lock that expired and was taken by another holder', async () => {
      const k = key('cad-expired');
      await store.set(k, 'holder-a', 1);
      await advance(1.2);
      expect(await store.setIfAbsent(k, 'holder-b', 60)).toBe(true);
      expect(await store.deleteIfEquals(k, 'holder-a')).toBe(false);
      expect(await store.get(k)).toBe('holder-b');
    });

    it('take does not return an expired value', async () => {
      const k = key('take-expired');
      await store.set(k, 'code', 1);
      await advance(1.2);
      expect(await store.take(k)).toBeUndefined();
    });

    it('increment counts within a window that starts at the first increment', async () => {
      const k = key('count');
      const counts = await Promise.all(Array.from({ length: 5 }, () => store.increment(k, 1)));
      expect([...counts].sort()).toEqual([1, 2, 3, 4, 5]);
      await advance(1.2);
      expect(await store.increment(k, 1)).toBe(1);
    });

    it('increment counts by more than one, and refuses a count that is not one', async () => {
      const k = key('count-by');
      expect(await store.increment(k, 1, 3)).toBe(3);
      expect(await store.increment(k, 1)).toBe(4);
      expect(await store.increment(k, 1, 5)).toBe(9);
      for (const by of [0, -1, 1.5])
        await expect(store.increment(k, 1, by)).rejects.toThrow(RangeError);
      // A window opened by a larger first step still ends on time.
      await advance(1.2);
      expect(await store.increment(k, 1, 2)).toBe(2);
    });

    it('keeps sets: add, remove, list, and delete the whole set', async () => {
      const k = key('set');
      expect(await store.members(k)).toEqual([]);
      await store.addMember(k, 'a', 60);
      await store.addMember(k, 'b', 60);
      await store.addMember(k, 'a', 60);
      expect((await store.members(k)).sort()).toEqual(['a', 'b']);
      await store.removeMember(k, 'a');
      await store.removeMember(k, 'missing');
      expect(await store.members(k)).toEqual(['b']);
      await store.delete(k);
      expect(await store.members(k)).toEqual([]);
      await store.addMember(k, 'c', 60);
      expect(await store.members(k)).toEqual(['c']);
    });

    it('keeps a set as long as its latest addition asks', async () => {
      const k = key('set-ttl');
      await store.addMember(k, 'early', 1);
      expect(await store.members(k)).toEqual(['early']);
      await store.addMember(k, 'late', 3);
      await advance(1.2);
      expect((await store.members(k)).sort()).toEqual(['early', 'late']);
      await advance(2.2);
      expect(await store.members(k)).toEqual([]);
    });

    it('a set that lapsed starts empty when added to again', async () => {
      const k = key('set-lapsed');
      await store.addMember(k, 'old', 1);
      expect(await store.members(k)).toEqual(['old']);
      await advance(1.2);
      expect(await store.members(k)).toEqual([]);
      await store.addMember(k, 'new', 60);
      expect(await store.members(k)).toEqual(['new']);
      // Listed while alive, then added to after it lapsed, with no read in between.
      const unread = key('set-lapsed-unread');
      await store.addMember(unread, 'old', 1);
      expect(await store.members(unread)).toEqual(['old']);
      await advance(1.2);
      await store.addMember(unread, 'new', 60);
      expect(await store.members(unread)).toEqual(['new']);
    });

    it('adds concurrently without losing a member', async () => {
      const k = key('set-race');
      await Promise.all(Array.from({ length: 20 }, (_, i) => store.addMember(k, `m${i}`, 60)));
      expect(await store.members(k)).toHaveLength(20);
    });

    it('counts the members of a counted set until the end of each', async () => {
      const k = key('counted');
      expect(await store.countMembersAlive(k)).toBe(0);
      await store.addExpiringMember(k, 'short', 1);
      await store.addExpiringMember(k, 'long', 60);
      await store.addExpiringMember(k, 'moved', 1);
      // Added again: its end moves (a session in use), it is not counted twice.
      await store.addExpiringMember(k, 'moved', 60);
      expect(await store.countMembersAlive(k)).toBe(3);
      await advance(1.2);
      expect(await store.countMembersAlive(k)).toBe(2);
      await store.removeExpiringMember(k, 'long');
      await store.removeExpiringMember(k, 'never-there');
      expect(await store.countMembersAlive(k)).toBe(1);
      await store.delete(k);
      expect(await store.countMembersAlive(k)).toBe(0);
    });

    it('writeAll adds and removes members of counted sets', async () => {
      const k = key('counted-batch');
      await store.writeAll([
        { op: 'addExpiringMember', key: k, member: 'a', ttlSeconds: 60 },
        { op: 'addExpiringMember', key: k, member: 'b', ttlSeconds: 60 },
        { op: 'addExpiringMember', key: k, member: 'c', ttlSeconds: 60 },
        { op: 'removeExpiringMember', key: k, member: 'b' },
      ]);
      expect(await store.countMembersAlive(k)).toBe(2);
      await expect(
        store.writeAll([{ op: 'addExpiringMember', key: k, member: 'd', ttlSeconds: 0 }]),
      ).rejects.toThrow(RangeError);
      expect(await store.countMembersAlive(k)).toBe(2);
    });

    it('writeAll makes its writes in order, as the single calls would', async () => {
      const [value, gone, set] = [key('batch-value'), key('batch-gone'), key('batch-set')];
      await store.set(gone, 'old', 60);
      await store.addMember(set, 'stays', 60);
      await store.addMember(set, 'leaves', 60);
      // Read first, so that an adapter that keeps copies must bring them up to date.
      expect(await store.get(gone)).toBe('old');
      expect((await store.members(set)).sort()).toEqual(['leaves', 'stays']);
      await store.writeAll([
        { op: 'set', key: value, value: 'first', ttlSeconds: 60 },
        { op: 'set', key: value, value: 'second', ttlSeconds: 60 },
        { op: 'delete', key: gone },
        { op: 'addMember', key: set, member: 'joins', ttlSeconds: 60 },
        { op: 'removeMember', key: set, member: 'leaves' },
      ]);
      expect(await store.get(value)).toBe('second');
      expect(await store.get(gone)).toBeUndefined();
      expect((await store.members(set)).sort()).toEqual(['joins', 'stays']);
      await expect(store.writeAll([])).resolves.toBeUndefined();
    });

    it('writeAll keeps each value and set for its own lifetime', async () => {
      const [short, long, set] = [key('batch-short'), key('batch-long'), key('batch-set-ttl')];
      await store.writeAll([
        { op: 'set', key: short, value: 's', ttlSeconds: 1 },
        { op: 'set', key: long, value: 'l', ttlSeconds: 60 },
        { op: 'addMember', key: set, member: 'm', ttlSeconds: 1 },
      ]);
      await advance(1.2);
      expect(await store.get(short)).toBeUndefined();
      expect(await store.get(long)).toBe('l');
      expect(await store.members(set)).toEqual([]);
    });

    it('writeAll refuses a batch with one bad write whole: nothing of it is written', async () => {
      const [value, set] = [key('batch-refused'), key('batch-refused-set')];
      for (const bad of [
        { op: 'set', key: '', value: 'v', ttlSeconds: 60 },
        { op: 'set', key: key('x'), value: 'v', ttlSeconds: 0 },
        { op: 'addMember', key: set, member: '', ttlSeconds: 60 },
        { op: 'addMember', key: set, member: 'm', ttlSeconds: 1.5 },
        { op: 'removeMember', key: set, member: 'x'.repeat(600) },
        { op: 'delete', key: 'k'.repeat(600) },
      ] as const) {
        await expect(
          store.writeAll([
            { op: 'set', key: value, value: 'v', ttlSeconds: 60 },
            { op: 'addMember', key: set, member: 'first', ttlSeconds: 60 },
            bad,
          ]),
        ).rejects.toThrow(RangeError);
      }
      expect(await store.get(value)).toBeUndefined();
      expect(await store.members(set)).toEqual([]);
    });

    it('refuses empty or oversized keys and non-positive lifetimes', async () => {
      await expect(store.set('', 'v', 60)).rejects.toThrow(RangeError);
      await expect(store.get('k'.repeat(600))).rejects.toThrow(RangeError);
      await expect(store.set(key('ttl0'), 'v', 0)).rejects.toThrow(RangeError);
      await expect(store.set(key('ttl-frac'), 'v', 1.5)).rejects.toThrow(RangeError);
      await expect(store.addMember(key('m'), '', 60)).rejects.toThrow(RangeError);
      await expect(store.addMember(key('m'), 'x'.repeat(600), 60)).rejects.toThrow(RangeError);
      await expect(store.addExpiringMember(key('e'), '', 60)).rejects.toThrow(RangeError);
      await expect(store.addExpiringMember(key('e'), 'm', 0)).rejects.toThrow(RangeError);
      await expect(store.countMembersAlive('')).rejects.toThrow(RangeError);
    });
  });
}
