/**
 * §8: network failures reach the collector as exactly one of three messages, whatever the browser's
 * own wording ('Failed to fetch', 'Load failed', 'NetworkError when attempting…').
 */
export const NETWORK_MESSAGES = {
  failed: 'Network request failed',
  timedOut: 'Network request timed out',
  aborted: 'Aborted',
} as const;

/** The key of a §8 message's translation (common.network.*), so the page's language can show it. */
export function networkMessageKey(message: string): string {
  const entry = Object.entries(NETWORK_MESSAGES).find(([, text]) => text === message);
  return `common.network.${entry ? entry[0] : 'failed'}`;
}

/** How long one API request may take before it is given up (our choice: a phone on a slow network). */
export const API_TIMEOUT_MS = 15_000;

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/**
 * A fetch for the tRPC links that adds a timeout and names failures by §8. A caller's abort (the
 * query was cancelled) is 'Aborted'; our timer is 'Network request timed out'; anything else that
 * stops the request before a response is 'Network request failed'. HTTP error statuses are answers,
 * not network failures: they pass through for tRPC to read.
 */
export function networkFetch(
  base: Fetch,
  timeoutMs: number = API_TIMEOUT_MS,
  timers: {
    set: (f: () => void, ms: number) => unknown;
    clear: (h: unknown) => void;
  } = {
    set: (f, ms) => setTimeout(f, ms),
    clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  },
): Fetch {
  return async (input, init = {}) => {
    const controller = new AbortController();
    const callerSignal = init.signal ?? undefined;
    let timedOut = false;
    const onCallerAbort = () => controller.abort();
    if (callerSignal?.aborted) throw new Error(NETWORK_MESSAGES.aborted);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    const timer = timers.set(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      return await base(input, { ...init, signal: controller.signal });
    } catch (error) {
      if (timedOut) throw new Error(NETWORK_MESSAGES.timedOut, { cause: error });
      if (callerSignal?.aborted) throw new Error(NETWORK_MESSAGES.aborted, { cause: error });
      throw new Error(NETWORK_MESSAGES.failed, { cause: error });
    } finally {
      timers.clear(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }
  };
}
