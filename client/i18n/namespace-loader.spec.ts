import { LOADING, createNamespaceLoader, limiter, retryDelay } from './namespace-loader';

const ok = (body: unknown) => ({ ok: true, status: 200, json: () => Promise.resolve(body) });
const status = (code: number) => ({ ok: false, status: code, json: () => Promise.resolve({}) });

describe('translation namespace loader (§9)', () => {
  it.each([
    [1, 350],
    [2, 700],
    [3, 1400],
    [4, 2800],
    [5, 5600],
  ])('waits %i: %i ms', (attempt, ms) => {
    expect(retryDelay(attempt)).toBe(ms);
  });

  it('retries up to 5 times with doubling delays, then gives up', async () => {
    const sleeps: number[] = [];
    const fetch = jest.fn(() => Promise.reject(new Error('offline')));
    const load = createNamespaceLoader({
      fetch,
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    });
    await expect(load('fr-CA', 'footer')).rejects.toThrow('offline');
    expect(fetch).toHaveBeenCalledTimes(1 + LOADING.retries);
    expect(sleeps).toEqual([350, 700, 1400, 2800, 5600]);
  });

  it('succeeds after transient failures and requests the namespace file', async () => {
    const answers = [status(503), status(502), ok({ heading: 'Entreprise' })];
    const fetch = jest.fn((_url: string) => Promise.resolve(answers.shift() ?? status(500)));
    const load = createNamespaceLoader({ fetch, sleep: () => Promise.resolve() });
    await expect(load('fr-CA', 'footer')).resolves.toEqual({ heading: 'Entreprise' });
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(fetch.mock.calls[0]?.[0]).toBe('/static/locales/fr-CA/footer.json');
  });

  it('does not retry a missing file', async () => {
    const fetch = jest.fn(() => Promise.resolve(status(404)));
    const load = createNamespaceLoader({ fetch, sleep: () => Promise.resolve() });
    await expect(load('en-US', 'nope')).rejects.toThrow('HTTP 404');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('loads a namespace once for concurrent callers, and again after a failure', async () => {
    let fail = true;
    const fetch = jest.fn(() => Promise.resolve(fail ? status(404) : ok({ a: 'b' })));
    const load = createNamespaceLoader({ fetch, sleep: () => Promise.resolve() });
    await Promise.allSettled([load('ja-JP', 'header'), load('ja-JP', 'header')]);
    expect(fetch).toHaveBeenCalledTimes(1);
    fail = false;
    await expect(load('ja-JP', 'header')).resolves.toEqual({ a: 'b' });
    await expect(load('ja-JP', 'header')).resolves.toEqual({ a: 'b' });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('runs at most 10 fetches at once', async () => {
    let running = 0;
    let peak = 0;
    const run = limiter(LOADING.maxParallel);
    await Promise.all(
      Array.from({ length: 35 }, () =>
        run(async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, 2));
          running -= 1;
        }),
      ),
    );
    expect(peak).toBe(10);
  });
});
