import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AppError } from '../errors/app-error';
import {
  clearingHeaders,
  cookieValues,
  parseCookieHeader,
  serializeClearing,
  tokenCookieClearingHeaders,
} from './cookie-header';
import {
  CookieName,
  HOST_PREFIXED_COOKIES,
  cookieOptionsFor,
  formerWireNames,
  isAllowedCookieValue,
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
    {
      readonly header: string | undefined;
      readonly jar: Readonly<Record<string, string>>;
      readonly sessionIds: readonly string[];
    }
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
    return this.reading(req).jar;
  }

  /**
   * The session ids the browser sent, in order (sessionIdCandidates): a reader of the session asks
   * LiveSessions.sessionIdOf which of them is this browser's, never takes the first
   * (docs/security.md, a shadowed session cookie).
   */
  sessionIds(req: Request): readonly string[] {
    return this.reading(req).sessionIds;
  }

  private reading(req: Request) {
    const header = req.headers.cookie;
    const kept = this.readings.get(req);
    if (kept && kept.header === header) return kept;
    const reading = {
      header,
      jar: Object.freeze(serviceCookies(header, this.deployment)),
      sessionIds: Object.freeze(sessionIdCandidates(header, this.deployment)),
    };
    this.readings.set(req, reading);
    return reading;
  }

  /**
   * Writes `name` under its wire name; where it had another name before (the plain `sessionId` on
   * https, FORMERLY_PLAIN_COOKIES), that copy is cleared on the way, so a browser moves to the
   * prefixed cookie at its next sign-in.
   */
  set(res: Response, name: CookieName, value: string): void {
    const result = validatePolicyCookieWrite(name, value, this.deployment);
    if (!result.ok) {
      throw new AppError(
        'BadRequest',
        `cookie ${name}: ${result.errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
      );
    }
    res.append('Set-Cookie', result.header);
    const options = cookieOptionsFor(name, this.deployment);
    for (const former of formerWireNames(name, this.deployment))
      res.append('Set-Cookie', serializeClearing(former, options));
  }

  clear(res: Response, name: CookieName): void {
    for (const header of clearingHeaders(name, this.deployment)) res.append('Set-Cookie', header);
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
 * sibling subdomain (RFC 6265bis §4.1.3.2). `sessionId` is the prefixed one there too, or else the
 * first plain one a browser may still hold (FORMERLY_PLAIN_COOKIES): a key for a rate-limit bucket,
 * not who is signed in, since the first may be a sibling's (ResponseCookies.sessionIds,
 * docs/security.md, a shadowed session cookie).
 */
export function serviceCookies(
  header: unknown,
  deployment: { readonly secure: boolean },
): Record<string, string> {
  const jar = parseCookieHeader(typeof header === 'string' ? header : undefined);
  if (!deployment.secure) return jar;
  for (const name of HOST_PREFIXED_COOKIES) {
    const prefixed = jar[wireCookieName(name, deployment)];
    if (prefixed !== undefined) jar[name] = prefixed;
    else if (formerWireNames(name, deployment).length === 0) delete jar[name];
  }
  return jar;
}

/**
 * At most this many `sessionId` values are tried against the browser binding. A browser holds one
 * of ours; more come from a sibling subdomain that planted them (docs/security.md, a shadowed
 * session cookie), and each costs a store read. A sibling can push a browser's cookies out of its
 * jar anyway (browsers keep about 180 per site), so a higher cap would buy nothing.
 */
export const MAX_SESSION_ID_CANDIDATES = 4;

/**
 * The session ids a Cookie header offers, in the order sent (docs/security.md, a shadowed session
 * cookie). On https the `__Host-sessionId` cookie, which only this host can set, is the one, when
 * present. Otherwise (on http://localhost, or a browser still holding the plain name from before
 * the prefix) every distinct well-formed `sessionId` value, up to MAX_SESSION_ID_CANDIDATES: a
 * sibling's planted value comes first, so the first is not necessarily ours, and
 * LiveSessions.sessionIdOf takes the one that matches the browser binding.
 */
export function sessionIdCandidates(
  header: unknown,
  deployment: { readonly secure: boolean },
): string[] {
  const text = typeof header === 'string' ? header : undefined;
  const wellFormed = (name: string) =>
    cookieValues(text, name).filter((value) => isAllowedCookieValue('sessionId', value));
  const wire = wireCookieName('sessionId', deployment);
  const prefixed = wire === 'sessionId' ? [] : wellFormed(wire);
  if (prefixed.length > 0) return prefixed.slice(0, 1);
  return [...new Set(wellFormed('sessionId'))].slice(0, MAX_SESSION_ID_CANDIDATES);
}
