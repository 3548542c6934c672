/**
 * The account API's wire constants (§7), shared by the server and the browser client (pure: the
 * browser bundle imports this file). The API's path is ROUTES.api (routes.ts).
 */
/** The custom header every mutation must carry (docs/design.md "CSRF"), with the value '1'. */
export const CSRF_HEADER = 'x-collectors-csrf';
/** §7: requests carry the locale. */
export const LOCALE_HEADER = 'x-locale';
/** §7: server-side calls carry x-ssr; an UNAUTHORIZED then answers 302 (§8). */
export const SSR_HEADER = 'x-ssr';

/**
 * The most calls one batch may carry (issue 32 item 4): the browser's client batches at most this
 * many, and the server refuses a larger batch (BAD_REQUEST) before any call runs. API_MAX_BATCH may
 * raise the server's limit, never lower it below what the client sends.
 */
export const MAX_BATCH_CALLS = 10;
