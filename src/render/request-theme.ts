import type { IncomingHttpHeaders } from 'node:http';
import { parseCookieHeader } from '../cookies/cookie-header';
import type { Theme } from '../../views/shell/shell-data';

/**
 * §4 Other: the collector's theme, from the `theme` cookie the shell's switch writes; light without
 * one (the shell never reads prefers-color-scheme, so every page agrees with the switch). One reading
 * for every page this service renders: the shell, the sign-in steps, the message pages and the IdP's
 * own error page (issue 33: the message pages stayed light in the dark theme).
 */
export function themeOfRequest(req: { readonly headers: IncomingHttpHeaders }): Theme {
  return parseCookieHeader(req.headers.cookie).theme === 'dark' ? 'dark' : 'light';
}
