import { ScrapedReading } from './scraped-reading';

describe(ScrapedReading.name, () => {
  /** A reading whose clock the test moves, counting the reads it makes of its source. */
  function reading(values: (number | Error)[]) {
    let clock = 0;
    let reads = 0;
    const r = new ScrapedReading(
      () => {
        const next = values[Math.min(reads++, values.length - 1)];
        return next instanceof Error ? Promise.reject(next) : Promise.resolve(next ?? 0);
      },
      5_000,
      () => clock,
    );
    return {
      r,
      reads: () => reads,
      advance: (ms: number) => (clock += ms),
    };
  }

  it('reuses a value for its reuse time, then reads again', async () => {
    const { r, reads, advance } = reading([3, 7]);
    expect(await r.get()).toBe(3);
    advance(4_999);
    expect(await r.get()).toBe(3);
    expect(reads()).toBe(1);
    advance(1);
    expect(await r.get()).toBe(7);
    expect(reads()).toBe(2);
  });

  it('scrapes that arrive together share one read', async () => {
    const { r, reads } = reading([5]);
    expect(await Promise.all([r.get(), r.get(), r.get()])).toEqual([5, 5, 5]);
    expect(reads()).toBe(1);
  });

  it('a failed read is no value, is not kept, and drops the value kept before', async () => {
    const { r, reads, advance } = reading([2, new Error('store down'), 4]);
    expect(await r.get()).toBe(2);
    advance(5_000);
    expect(await r.get()).toBeUndefined();
    // Not reused: the next scrape asks the store again.
    expect(await r.get()).toBe(4);
    expect(reads()).toBe(3);
  });
});
