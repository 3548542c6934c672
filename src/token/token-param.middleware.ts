import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ResponseCookies } from '../cookies/response-cookies';
import { applyRedirect } from '../http/apply-outcome';
import { HANDOFF_HEADERS, redirectTo } from '../http/outcome';
import { AppLogger } from '../logging/app-logger';
import { ROUTES, samePath } from '../shared/routes';
import { TOKEN_PROBLEM_MESSAGES, TokenVerifier } from './token-verifier';

const PLACEHOLDER_ORIGIN = 'http://placeholder.invalid';

/**
 * Paths that never take a `t` (the IdP, APIs, assets, probes), and sign-out, which drops `t` itself
 * (§4 Sign-out step 5) and must not store it as a cookie on the way out.
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
 * §4 App start step 3 and §5, on the server: a page URL carrying `t` has it verified (JWKS, RS256,
 * issuer, audience, expiry, access-token type, size) before it becomes the accessToken cookie, and is
 * then answered with a redirect to the same URL without `t`, so the token leaves the address bar and
 * the history. An invalid `t` is dropped and stores nothing (§8: unreadable gives empty tokens); so is
 * an empty one (`?t=`), and the reason is logged as a warning with the path: for an empty `t`, §8's
 * 'access token must be specified'. The token itself is never logged.
 */
@Injectable()
export class TokenParamMiddleware implements NestMiddleware {
  constructor(
    private readonly verifier: TokenVerifier,
    private readonly cookies: ResponseCookies,
    private readonly logger: AppLogger,
  ) {
    this.logger.setContext(TokenParamMiddleware.name);
  }

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    const t = req.query.t;
    // Most requests carry no `t`: leave before any parsing.
    if (req.method !== 'GET' || t === undefined) return next();
    // originalUrl: inside Nest's middleware binding `req.path` is relative to the matched route.
    // Appended to a fixed origin rather than resolved against it, so `//host/x` stays a path.
    const url = new URL(`${PLACEHOLDER_ORIGIN}${req.originalUrl}`);
    if (isExempt(url.pathname)) return next();
    const check = await this.verifier.verify(t);
    url.searchParams.delete('t');
    if (!check.ok) {
      this.logger.warn(
        { path: url.pathname, reason: check.reason },
        TOKEN_PROBLEM_MESSAGES[check.reason],
      );
    }
    applyRedirect(
      res,
      this.cookies,
      redirectTo(samePath(url.pathname, url.search), {
        cookies: check.ok && typeof t === 'string' ? [{ set: 'accessToken', value: t }] : [],
        headers: HANDOFF_HEADERS,
      }),
    );
  }
}
