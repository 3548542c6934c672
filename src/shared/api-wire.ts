/**
 * The account API's wire constants (§7), shared by the server and the browser client (pure: the
 * browser bundle imports this file). The API's path is ROUTES.api (routes.ts).
 */
/** The custom header every mutation must carry (DESIGN.md "CSRF"), with the value '1'. */
export const CSRF_HEADER = 'x-collectors-csrf';
/** §7: requests carry the locale. */
export const LOCALE_HEADER = 'x-locale';
/** §7: server-side calls carry x-ssr; an UNAUTHORIZED then answers 302 (§8). */
export const SSR_HEADER = 'x-ssr';
