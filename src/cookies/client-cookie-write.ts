import {
  ClientSettableCookieName,
  SameSite,
  cookieOptionsFor,
  isAllowedCookieValue,
  isClientSettableCookie,
} from './cookie-policy';
import { validateCookieWrite } from './cookie-validation';

/**
 * §7 cookie.setCookie's payload once its shape is checked at the API edge. There is no `domain` and
 * no `expires`: every cookie is host-only and its lifetime is Max-Age (cookie-policy.ts).
 */
export interface ClientCookieWrite {
  readonly cookieName: ClientSettableCookieName;
  readonly value: string;
  readonly path?: string | undefined;
  readonly sameSite?: SameSite | undefined;
  readonly maxAge?: number | undefined;
  readonly secure?: boolean | undefined;
  readonly httpOnly?: boolean | undefined;
}

/** The Set-Cookie header to send, or why not as `field: reason; field: reason` (§8, as input errors). */
export type ClientCookieWriteOutcome =
  { readonly ok: true; readonly header: string } | { readonly ok: false; readonly message: string };

/**
 * §7 cookie.setCookie, §5 "Cookie writes reject invalid names, values, domain, path and expires":
 * a page may write only the non-credential cookies of the allowlist (docs/design.md "Every write is
 * validated"). Fields it leaves out take the cookie's policy (§9); every field is validated, and the
 * value must be one the policy allows (theme: light or dark).
 */
export function clientCookieWrite(
  write: ClientCookieWrite,
  deployment: { readonly secure: boolean },
): ClientCookieWriteOutcome {
  // The type says an allowlisted name; a JavaScript caller may still pass a credential cookie's.
  if (!isClientSettableCookie(write.cookieName)) {
    return { ok: false, message: 'cookieName: is not a cookie the page may set' };
  }
  // §9: Secure except on localhost. On an https site the page may not take it away.
  if (deployment.secure && write.secure === false) {
    return { ok: false, message: 'secure: cookies of this https site must be Secure' };
  }
  const policy = cookieOptionsFor(write.cookieName, deployment);
  const maxAge = write.maxAge ?? policy.maxAge;
  const result = validateCookieWrite({
    name: write.cookieName,
    value: write.value,
    path: write.path ?? policy.path,
    sameSite: write.sameSite ?? policy.sameSite,
    // RFC 6265bis §5.6.7: SameSite=None needs Secure. A caller asking for None must ask for Secure
    // too; the policy's Secure is not added quietly, so validation refuses it (issue 15 item 8).
    secure: write.secure ?? (write.sameSite === 'none' ? false : policy.secure),
    httpOnly: write.httpOnly ?? policy.httpOnly,
    ...(maxAge !== undefined ? { maxAge } : {}),
  });
  if (!result.ok) {
    return { ok: false, message: result.errors.map((e) => `${e.field}: ${e.message}`).join('; ') };
  }
  // Only a well-formed value is held against the policy, so one message names one problem.
  if (!isAllowedCookieValue(write.cookieName, write.value)) {
    return { ok: false, message: `value: is not an allowed value for ${write.cookieName}` };
  }
  return { ok: true, header: result.header };
}
