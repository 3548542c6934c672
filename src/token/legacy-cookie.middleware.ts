import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { unwrapLegacyTokenCookie } from '../cookies/legacy-token-cookie';
import { ResponseCookies } from '../cookies/response-cookies';

const TOKEN_COOKIES = ['accessToken', 'refreshToken'] as const;
const LEGACY_MARKERS = /(?:accessToken|refreshToken)=\s*(?:\{|"|j:|%7B|%22|%7b)/;

/**
 * §4 Token handling: "Legacy JSON-wrapped cookies are unwrapped and rewritten". Earlier versions stored
 * the token cookies as JSON; such a cookie is rewritten as the plain token, and one that cannot be
 * read is cleared (§8: an unreadable token gives empty tokens).
 */
@Injectable()
export class LegacyCookieMiddleware implements NestMiddleware {
  constructor(private readonly cookies: ResponseCookies) {}

  use(req: Request, res: Response, next: NextFunction): void {
    // Legacy values are JSON (`{`, `"`, `j:`), raw or %-encoded; plain tokens never contain these.
    const header = req.headers.cookie;
    if (typeof header !== 'string' || !LEGACY_MARKERS.test(header)) return next();
    const jar = this.cookies.read(req);
    for (const name of TOKEN_COOKIES) {
      const raw = jar[name];
      if (raw === undefined) continue;
      const result = unwrapLegacyTokenCookie(raw, name);
      if (!result.wasWrapped) continue;
      if (result.value === undefined) this.cookies.clear(res, name);
      else this.cookies.set(res, name, result.value);
    }
    next();
  }
}
