import { pooledRandomBytes } from './random-bytes';

describe('pooledRandomBytes', () => {
  it.each([1, 12, 16, 32, 4096])('gives %i fresh bytes', (size) => {
    const bytes = pooledRandomBytes(size);
    expect(bytes).toHaveLength(size);
  });

  it('never hands out the same bytes twice, across many refills of the pool', () => {
    // 3,000 ids of 32 bytes: 23 refills of a 4 KiB pool, and sizes that straddle its end.
    const seen = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      seen.add(pooledRandomBytes(32).toString('hex'));
      pooledRandomBytes(1 + (i % 45));
    }
    expect(seen.size).toBe(3000);
  });

  it('returns a copy: changing one result changes no other, nor what comes next', () => {
    const first = pooledRandomBytes(16);
    const copy = Buffer.from(first);
    const second = pooledRandomBytes(16);
    second.fill(0);
    expect(first.equals(copy)).toBe(true);
    first.fill(0xff);
    expect(pooledRandomBytes(16).equals(Buffer.alloc(16, 0xff))).toBe(false);
  });

  it('is not all zero (the wiped part of the pool is never handed out)', () => {
    for (let i = 0; i < 500; i++) expect(pooledRandomBytes(8).equals(Buffer.alloc(8))).toBe(false);
  });

  it.each([0, -1, 1.5, 4097, Number.NaN])('refuses a size of %p', (size) => {
    expect(() => pooledRandomBytes(size)).toThrow(RangeError);
  });
});
