import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AppError } from '../errors/app-error';
import { parseCookieHeader, serializeClearing, tokenCookieClearingHeaders } from './cookie-header';
import {
  CookieName,
  HOST_PREFIXED_COOKIES,
  cookieOptionsFor,
  secureFor,
  wireCookieName,
} from './cookie-policy';
import { validatePolicyCookieWrite } from './cookie-validation';

/**
 * Reads and writes this service's cookies through the policy table (§9) and the write validation
 * (§5): every Set-Cookie the service emits passes validatePolicyCookieWrite.
 */
@Injectable()
export class ResponseCookies {
  private readonly deployment: { secure: boolean };
  private readonly readings = new WeakMap<
    Request,
    { readonly header: string | undefined; readonly jar: Readonly<Record<string, string>> }
  >();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.deployment = { secure: secureFor(config.http.publicUrl) };
  }

  /**
   * The request's cookies by this service's names (serviceCookies), frozen. A signed-in hop reads
   * them in the legacy-cookie middleware, the rate limit's session tracker and its controller, so
   * each request's header is parsed once and its reading kept with the request (parsing is about
   * 4 µs of a hop's 720 on Node 24).
   */
  read(req: Request): Readonly<Record<string, string>> {
    const header = req.headers.cookie;
    const kept = this.readings.get(req);
    if (kept && kept.header === header) return kept.jar;
    const jar = Object.freeze(serviceCookies(header, this.deployment));
    this.readings.set(req, { header, jar });
    return jar;
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
    res.append(
      'Set-Cookie',
      serializeClearing(
        wireCookieName(name, this.deployment),
        cookieOptionsFor(name, this.deployment),
      ),
    );
  }

  /** §4 Sign-out step 2 and After login step 7. */
  clearTokens(res: Response): void {
    for (const header of tokenCookieClearingHeaders(this.deployment))
      res.append('Set-Cookie', header);
  }
}

/**
 * A Cookie header as this service's cookies, by their names. Where the bindings carry `__Host-`
 * (https), only the prefixed cookie counts: a plain `signinBinding` could have been planted by a
 * sibling subdomain (issue 15 item 9).
 */
export function serviceCookies(
  header: unknown,
  deployment: { readonly secure: boolean },
): Record<string, string> {
  const jar = parseCookieHeader(typeof header === 'string' ? header : undefined);
  if (!deployment.secure) return jar;
  for (const name of HOST_PREFIXED_COOKIES) {
    const prefixed = jar[wireCookieName(name, deployment)];
    if (prefixed === undefined) delete jar[name];
    else jar[name] = prefixed;
  }
  return jar;
}
