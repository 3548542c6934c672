import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ResponseCookies } from '../cookies/response-cookies';

const TOKEN_COOKIES = ['accessToken', 'refreshToken'] as const;
/** A token cookie in the Cookie header, in any form (plain, JSON-wrapped, %-encoded). */
const TOKEN_COOKIE = /(?:^|;)\s*(?:accessToken|refreshToken)=/;

/**
 * The token cookies that earlier versions left in browsers are cleared (issue 14 item 7). This service
 * no longer writes the accessToken and refreshToken cookies (see COOKIE_POLICIES in
 * src/cookies/cookie-policy.ts for why), so one the browser still sends is not the current token of
 * anything: a stale bearer credential that nothing here reads. §4 Token handling's "Legacy
 * JSON-wrapped cookies are unwrapped and rewritten" existed so that a reader could use them again;
 * with no reader, rewriting one would keep a stale token in the browser for another 100 days (§9), so
 * every token cookie, plain, JSON-wrapped or unreadable, is cleared instead, once.
 */
@Injectable()
export class LegacyCookieMiddleware implements NestMiddleware {
  constructor(private readonly cookies: ResponseCookies) {}

  use(req: Request, res: Response, next: NextFunction): void {
    // Almost every request carries none: a test of the raw header before any parsing.
    const header = req.headers.cookie;
    if (typeof header !== 'string' || !TOKEN_COOKIE.test(header)) return next();
    const jar = this.cookies.read(req);
    for (const name of TOKEN_COOKIES) if (jar[name] !== undefined) this.cookies.clear(res, name);
    next();
  }
}
