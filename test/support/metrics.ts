import request from 'supertest';

/**
 * Reading a running service's Prometheus metrics, for every test that does: where /metrics is
 * served is said once, here (scrapeMetrics).
 */

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The samples of a Prometheus text exposition (label values here never hold quotes or commas). */
export function parseSamples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)"/g)].map((l) => [l[1], l[2]]),
      );
      return { name: m[1] ?? '', labels, value: Number(m[3]) };
    });
}

/** The sum of the samples of `name` whose labels include `labels`. */
export function valueOf(
  samples: readonly Sample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** The samples of `name` whose labels include `labels` (none when the metric has no sample). */
export function samplesOf(
  samples: readonly Sample[],
  name: string,
  labels: Record<string, string> = {},
): Sample[] {
  return samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
}

/**
 * The running service's /metrics answer (200 expected), from its management listener
 * (docs/operating.md "The management port"): the public port never serves it.
 */
export async function scrapeMetricsText(app: { readonly managementUrl: string }): Promise<string> {
  const res = await request(app.managementUrl).get('/metrics').expect(200);
  return res.text;
}

/** The running service's metrics, parsed. */
export async function scrapeMetrics(app: { readonly managementUrl: string }): Promise<Sample[]> {
  return parseSamples(await scrapeMetricsText(app));
}
