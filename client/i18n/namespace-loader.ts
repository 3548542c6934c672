import { ROUTES } from '../../src/shared/routes';

/**
 * §9 translation loading for namespaces a page did not embed: each file is fetched with up to 5
 * retries (350 ms, then doubling), and at most 10 fetches run at once. Files are served from
 * /static/locales/{locale}/{namespace}.json (ROUTES.locales; locales/ in the repository).
 */
export const LOADING = { retries: 5, initialDelayMs: 350, maxParallel: 10 } as const;

export type Fetch = (
  url: string,
) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

export interface LoaderDeps {
  readonly fetch: Fetch;
  readonly sleep: (ms: number) => Promise<void>;
}

/** The delay before retry n (1-based): 350, 700, 1400, 2800, 5600 ms. */
export function retryDelay(attempt: number): number {
  return LOADING.initialDelayMs * 2 ** (attempt - 1);
}

/** Runs at most `limit` tasks at a time, in the order they were queued. */
export function limiter(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    running -= 1;
    waiting.shift()?.();
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await task();
    } finally {
      release();
    }
  };
}

export function namespaceUrl(locale: string, namespace: string): string {
  return `${ROUTES.locales}${encodeURIComponent(locale)}/${encodeURIComponent(namespace)}.json`;
}

/**
 * Loads namespaces on demand, once each (concurrent requests for one namespace share one load). A
 * 4xx other than 408/429 is final (the file does not exist); network errors and 5xx are retried.
 */
export function createNamespaceLoader(deps: LoaderDeps) {
  const limit = limiter(LOADING.maxParallel);
  const loads = new Map<string, Promise<Record<string, unknown>>>();

  const fetchOnce = async (url: string): Promise<Record<string, unknown>> => {
    for (let attempt = 0; ; attempt++) {
      let retryable = true;
      try {
        const response = await limit(() => deps.fetch(url));
        if (response.ok) return (await response.json()) as Record<string, unknown>;
        retryable = response.status >= 500 || response.status === 408 || response.status === 429;
        if (!retryable || attempt === LOADING.retries) {
          throw new Error(`${url}: HTTP ${response.status}`);
        }
      } catch (error) {
        if (!retryable || attempt === LOADING.retries) throw error;
      }
      await deps.sleep(retryDelay(attempt + 1));
    }
  };

  return (locale: string, namespace: string): Promise<Record<string, unknown>> => {
    const url = namespaceUrl(locale, namespace);
    let load = loads.get(url);
    if (!load) {
      load = fetchOnce(url);
      loads.set(url, load);
      // A failed load may be tried again later (e.g. when the network is back).
      load.catch(() => loads.delete(url));
    }
    return load;
  };
}

/**
 * The page's one loader (§9: the limit of 10 parallel loads is the page's, not one caller's). It
 * touches no browser global until it is first called, and reaches the browser only in the chunks
 * that load on demand (the consent dialog's), never in the first-load bundle.
 */
export const loadPageNamespace = createNamespaceLoader({
  fetch: (url) => window.fetch(url, { credentials: 'same-origin' }),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
});
