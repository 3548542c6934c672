import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AppError } from '../errors/app-error';
import { parseCookieHeader, serializeClearing, tokenCookieClearingHeaders } from './cookie-header';
import { CookieName, cookieOptionsFor, secureFor } from './cookie-policy';
import { validatePolicyCookieWrite } from './cookie-validation';

/**
 * Reads and writes this service's cookies through the policy table (§9) and the write validation
 * (§5): every Set-Cookie the service emits passes validatePolicyCookieWrite.
 */
@Injectable()
export class ResponseCookies {
  private readonly deployment: { secure: boolean };

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.deployment = { secure: secureFor(config.http.publicUrl) };
  }

  read(req: Request): Record<string, string> {
    return parseCookieHeader(
      typeof req.headers.cookie === 'string' ? req.headers.cookie : undefined,
    );
  }

  set(res: Response, name: CookieName, value: string): void {
    const result = validatePolicyCookieWrite(name, value, this.deployment);
    if (!result.ok) {
      throw new AppError(
        'BadRequest',
        `cookie ${name}: ${result.errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
      );
    }
    res.append('Set-Cookie', result.header);
  }

  clear(res: Response, name: CookieName): void {
    res.append('Set-Cookie', serializeClearing(name, cookieOptionsFor(name, this.deployment)));
  }

  /** §4 Sign-out step 2 and After login step 7. */
  clearTokens(res: Response): void {
    for (const header of tokenCookieClearingHeaders(this.deployment))
      res.append('Set-Cookie', header);
  }
}
