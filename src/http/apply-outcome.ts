import type { Response } from 'express';
import type { ResponseCookies } from '../cookies/response-cookies';
import type { CookieChange, RedirectOutcome } from './outcome';

/** Writes cookie changes through the policy table (ResponseCookies validates every write). */
export function applyCookies(
  res: Response,
  cookies: ResponseCookies,
  changes: readonly CookieChange[] = [],
): void {
  for (const change of changes) {
    if ('clearTokens' in change) cookies.clearTokens(res);
    else if ('clear' in change) cookies.clear(res, change.clear);
    else cookies.set(res, change.set, change.value);
  }
}

/**
 * The one writer of a Location header for an outcome (docs/design.md "One redirect policy"): its type
 * admits only a SafeRedirectUrl, a path of this service or the IdP's endpoint. Cookies first, then
 * headers, then a bare 302: Express's res.redirect would also negotiate and write an HTML/text body
 * that no browser shows, on the busiest route of the service. Redirects are never cached. The empty
 * body says its length: otherwise `compression`, which wraps the answer for a browser that sends
 * Accept-Encoding, writes the headers before Node can count the body and the 302 goes chunked.
 */
export function applyRedirect(
  res: Response,
  cookies: ResponseCookies,
  outcome: RedirectOutcome,
): void {
  applyCookies(res, cookies, outcome.cookies);
  res.status(302).set('Cache-Control', 'no-store');
  if (outcome.headers) res.set(outcome.headers);
  res.setHeader('Content-Length', 0);
  res.location(outcome.redirect).end();
}
