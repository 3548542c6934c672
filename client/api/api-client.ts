import { createTRPCClient, httpBatchLink, httpLink, splitLink, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { AppRouter } from '../../src/api/app-router-factory';
import { hexJsonTransformer } from '../../src/shared/hex-json';
import { CSRF_HEADER, LOCALE_HEADER, MAX_BATCH_CALLS, SSR_HEADER } from '../../src/shared/api-wire';
import { ROUTES, servicePath } from '../../src/shared/routes';
import { NETWORK_MESSAGES, networkFetch } from './network-fetch';

/** §8: where an UNAUTHORIZED answer sends the browser. */
export const UNAUTHORIZED_URL = servicePath('unauthorized', { error: 'Unauthorized' });
/** §8: the one procedure whose UNAUTHORIZED does not send the browser anywhere. */
const NO_UNAUTHORIZED_REDIRECT = new Set(['log.signinEvent']);

export interface ApiClientOptions {
  /** The service's origin; '' (the default) for same-origin calls from the page. */
  readonly baseUrl?: string;
  /** §7: every request carries the locale. */
  readonly locale: () => string;
  /** §7: calls made while rendering on a server carry x-ssr (an UNAUTHORIZED then answers 302). */
  readonly ssr?: boolean;
  /** Extra headers, e.g. the cookie of a server-side call. */
  readonly headers?: () => Record<string, string>;
  /** §8: called on an UNAUTHORIZED (the browser goes to UNAUTHORIZED_URL). */
  readonly onUnauthorized?: () => void;
  /** §8: called with 'Network request failed' / 'Network request timed out' / 'Aborted'. */
  readonly onNetworkError?: (message: string) => void;
  readonly fetch?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  readonly timeoutMs?: number;
}

/** A call's context: `skipBatch` sends it alone (§7), as cookie.setCookie always is. */
export interface CallContext extends Record<string, unknown> {
  readonly skipBatch?: boolean;
}

const NETWORK_MESSAGE_SET: ReadonlySet<string> = new Set(Object.values(NETWORK_MESSAGES));

/** Watches every answer for UNAUTHORIZED and network failures (§8) without changing it. */
function errorWatchLink(options: ApiClientOptions): TRPCLink<AppRouter> {
  return () =>
    ({ op, next }) =>
      observable((observer) =>
        next(op).subscribe({
          next: (value) => observer.next(value),
          error: (error) => {
            if (error.data?.code === 'UNAUTHORIZED' && !NO_UNAUTHORIZED_REDIRECT.has(op.path)) {
              options.onUnauthorized?.();
            } else if (!error.data && NETWORK_MESSAGE_SET.has(error.message)) {
              options.onNetworkError?.(error.message);
            }
            observer.error(error);
          },
          complete: () => observer.complete(),
        }),
      );
}

/**
 * The account API client (issue 5), typed by the router itself: batched GETs for queries, POSTs for
 * mutations, unbatched for calls marked skipBatch and always for cookie.setCookie, inputs as hex JSON,
 * the locale (and x-ssr) headers, the CSRF header, §8's network messages and UNAUTHORIZED rule.
 */
export function createApiClient(options: ApiClientOptions) {
  const url = `${options.baseUrl ?? ''}${ROUTES.api}`;
  const fetchImpl = networkFetch(
    options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    options.timeoutMs,
  );
  const headers = () => ({
    [LOCALE_HEADER]: options.locale(),
    [CSRF_HEADER]: '1',
    ...(options.ssr ? { [SSR_HEADER]: '1' } : {}),
    ...options.headers?.(),
  });
  const common = { url, headers, fetch: fetchImpl, transformer: hexJsonTransformer };
  return createTRPCClient<AppRouter>({
    links: [
      errorWatchLink(options),
      splitLink({
        condition: (op) => op.context.skipBatch === true || op.path === 'cookie.setCookie',
        true: httpLink(common),
        false: httpBatchLink({ ...common, maxItems: MAX_BATCH_CALLS }),
      }),
    ],
  });
}

export type ApiClient = ReturnType<typeof createApiClient>;

/**
 * §7 "Paginated calls add a cursor to the input": the input of page n is the query's input plus the
 * cursor the previous page returned (absent for the first page), as TanStack Query's infinite
 * queries pass it in pageParam.
 */
export function withCursor<I extends Record<string, unknown>>(
  input: I,
  cursor: string | number | null | undefined,
): I & { cursor?: string | number } {
  return cursor === undefined || cursor === null ? { ...input } : { ...input, cursor };
}
