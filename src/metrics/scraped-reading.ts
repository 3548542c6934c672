/** How a gauge read from the session store when scraped gets its value (AppMetrics.watch*). */
export type Reading = () => Promise<number>;

/**
 * How long a value read from the store is reused: several scrapers (two Prometheus replicas, a
 * person with curl) then cost the store one read per this long per instance, whatever their
 * interval, and a value is never older than this (docs/operating.md "On-call metrics").
 */
export const READING_REUSE_MS = 5_000;

/**
 * A value read from the store at scrape time, at most once per READING_REUSE_MS and by one call at
 * a time (scrapes that arrive together share it). A failed read gives undefined and is not kept: a
 * gauge whose source failed is left out of the scrape rather than exported with a made-up or stale
 * number; the store's own failure shows in session_store_errors_total.
 */
export class ScrapedReading {
  private value: number | undefined;
  private readAt = -Infinity;
  private reading: Promise<number | undefined> | undefined;

  constructor(
    private readonly read: Reading,
    private readonly reuseMs = READING_REUSE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(): Promise<number | undefined> {
    if (this.value !== undefined && this.now() - this.readAt < this.reuseMs)
      return Promise.resolve(this.value);
    this.reading ??= this.read()
      .then(
        (value) => {
          this.value = value;
          this.readAt = this.now();
          return value;
        },
        () => {
          this.value = undefined;
          return undefined;
        },
      )
      .finally(() => (this.reading = undefined));
    return this.reading;
  }
}
