import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import { REDIRECT_POLICY } from '../brand/brand.module';
import type { RedirectPolicy } from '../brand/redirect-policy';
import { ResponseCookies } from '../cookies/response-cookies';
import { applyRedirect } from '../http/apply-outcome';
import { ROUTES, samePath } from '../shared/routes';
import { normalizeLocale } from '../shared/locale';
import type { LocalizedRequest } from '../locale/locale-path.middleware';
import { LiveSessions } from '../session/live-sessions';
import { TokenParamSignin, TokenTaking } from './token-param-signin';

const PLACEHOLDER_ORIGIN = 'http://placeholder.invalid';

/**
 * Paths that never take a `t` (the IdP, APIs, assets, probes), and sign-out, which drops `t` itself
 * (§4 Sign-out step 5) and must not sign anyone in on the way out.
 */
const EXEMPT_PREFIXES: readonly string[] = [
  '/oauth2', // the embedded IdP (ROUTES.idp) and anything else an IdP might mount
  '/idp', // the embedded IdP's steps and outbox
  '/api', // the account API and the handoff exchange
  ROUTES.static,
  ROUTES.healthz,
  ROUTES.readyz,
  '/demo',
  '/logout',
].map((prefix) => prefix.replace(/\/$/, ''));
const isExempt = (path: string) =>
  EXEMPT_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * Whether a request is a top-level navigation (issue 14 item 7: `t` is taken only there). Fetch
 * Metadata (W3C Fetch Metadata Request Headers §2): `Sec-Fetch-Mode: navigate` with
 * `Sec-Fetch-Dest: document`; a frame navigates too but is not top-level, and an image, a script or
 * a fetch is no navigation. A browser that sends neither header (older ones, and HTTP clients) is
 * taken at its word, as the issue says: "where the browser sends it".
 */
export function isTopLevelNavigation(headers: IncomingHttpHeaders): boolean {
  const mode = headers['sec-fetch-mode'];
  const dest = headers['sec-fetch-dest'];
  if (mode !== undefined && mode !== 'navigate') return false;
  if (dest !== undefined && dest !== 'document') return false;
  return true;
}

/** The origin of an Origin or Referer header value; none for `null`, a bad or a missing value. */
function originOf(value: string | string[] | undefined): string | undefined {
  if (typeof value !== 'string' || value === '' || value === 'null' || value.length > 4096)
    return undefined;
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether a top-level navigation's `t` may sign in at once (docs/security.md: login CSRF through
 * `t`, a sibling host), by Fetch Metadata `Sec-Fetch-Site` and, for a sibling site, the page it
 * came from:
 * - `same-origin`: a page of this service;
 * - `same-site` whose Origin (when the browser sends one) or else Referer is a brand origin of the
 *   redirect policy (`allowedOrigins`): a brand on a sibling host handing the collector back. Any
 *   other `*.collectors.com` host (a forgotten one, a user-content one, one an attacker took over)
 *   is no brand, and a page that hides its Referer names none;
 * - anything else (`cross-site`, `none`: a link opened outside the browser, or a browser that does
 *   not say): the `t` may be someone else's, so it only offers a sign-in that the collector confirms,
 *   seeing the account (TokenParamSignin).
 */
export function signsInAtOnce(
  headers: IncomingHttpHeaders,
  brandOrigins: ReadonlySet<string>,
): boolean {
  const site = headers['sec-fetch-site'];
  if (site === 'same-origin') return true;
  if (site !== 'same-site') return false;
  const from = headers.origin !== undefined ? originOf(headers.origin) : originOf(headers.referer);
  return from !== undefined && brandOrigins.has(from);
}

/**
 * Whether a form post comes from a page of this service (docs/design.md "CSRF", docs/security.md,
 * the offer key): `Sec-Fetch-Site: same-origin` and an Origin of this service, each where the
 * browser sends it, as the API's mutations check Origin. What proves the page in every browser is
 * the form's CSRF token, which only a page of this origin can read (TokenOffers checks it).
 */
export function isSameOriginPost(headers: IncomingHttpHeaders, ownOrigin: string): boolean {
  const site = headers['sec-fetch-site'];
  const origin = headers.origin;
  if (site !== undefined && site !== 'same-origin') return false;
  return origin === undefined || originOf(origin) === ownOrigin;
}

/** The logout landing, with or without a locale prefix (§2): on the way out, `t` signs nobody in. */
const isSignoutPage = (path: string) => path.endsWith(ROUTES.logoutLanding);

/**
 * §4 App start step 3 and §5 on the server (issue 14 item 7): a page URL carrying `t` is answered with
 * a redirect to the same URL without `t`, so the token leaves the address bar and the history, and
 * TokenParamSignin decides what the token does on the way: sign a browser without a session in, or
 * nothing (its doc says when). This middleware only reads the request (the query, the session
 * cookies, Fetch Metadata) and applies the outcome. A `//host` path stays on this service (samePath).
 */
@Injectable()
export class TokenParamMiddleware implements NestMiddleware {
  constructor(
    private readonly signin: TokenParamSignin,
    private readonly cookies: ResponseCookies,
    private readonly liveSessions: LiveSessions,
    @Inject(REDIRECT_POLICY) private readonly policy: RedirectPolicy,
  ) {}

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    const t = req.query.t;
    // Most requests carry no `t`: leave before any parsing.
    if (req.method !== 'GET' || t === undefined) return next();
    // originalUrl: inside Nest's middleware binding `req.path` is relative to the matched route.
    // Appended to a fixed origin rather than resolved against it, so `//host/x` stays a path.
    const url = new URL(`${PLACEHOLDER_ORIGIN}${req.originalUrl}`);
    if (isExempt(url.pathname)) return next();
    url.searchParams.delete('t');
    const jar = this.cookies.read(req);
    // docs/security.md, a shadowed session cookie: the browser's own session id, not the first a
    // sibling subdomain planted.
    const sessionId = await this.liveSessions.sessionIdOf(
      this.cookies.sessionIds(req),
      jar.sessionBinding,
    );
    const taking: TokenTaking = isSignoutPage(url.pathname)
      ? 'signout'
      : !isTopLevelNavigation(req.headers)
        ? 'not-a-navigation'
        : signsInAtOnce(req.headers, this.policy.allowedOrigins)
          ? 'trusted-navigation'
          : 'untrusted-navigation';
    const { referer } = req.headers;
    const userAgent = req.headers['user-agent'];
    const brand = url.searchParams.get('b');
    const locale =
      (req as Request & LocalizedRequest).pathLocale ??
      normalizeLocale(url.searchParams.get('lang'));
    const outcome = await this.signin.take({
      token: t,
      target: samePath(url.pathname, url.search),
      path: url.pathname,
      taking,
      ...(sessionId ? { sessionId } : {}),
      ...(jar.sessionBinding ? { binding: jar.sessionBinding } : {}),
      ...(brand ? { brandParam: brand } : {}),
      ...(referer ? { referer } : {}),
      ...(userAgent ? { userAgent } : {}),
      ...(locale ? { locale } : {}),
      ...(req.ip ? { address: req.ip } : {}),
    });
    applyRedirect(res, this.cookies, outcome);
  }
}
