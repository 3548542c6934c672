import { isCookieNameToken } from './cookie-grammar';
import {
  CookieAttributes,
  CookieName,
  TOKEN_COOKIES,
  cookieOptionsFor,
  formerWireNames,
  wireCookieName,
} from './cookie-policy';
import { validateCookieWrite } from './cookie-validation';

/**
 * Reading the Cookie request header and writing deletions. The reader is built for hostile input:
 * bounded work, no prototype keys, no throwing.
 */

/**
 * Only this much of a Cookie header is read. Node hands header values over as latin1, one
 * character per byte, so this is a byte count.
 */
export const MAX_COOKIE_HEADER_BYTES = 8192;
/** At most this many cookies are returned. */
export const MAX_COOKIES = 100;

/**
 * Parses `name=value; name2=value2` (RFC 6265 §5.4 cookie-string) into a map:
 * - the first occurrence of a name wins (RFC 6265 §5.4 sends the more specific path first);
 * - pairs without `=`, or whose name is not an RFC 6265 token, are ignored;
 * - spaces and tabs around names and values are dropped; quotes are kept, as RFC 6265 §5.2 does;
 * - `%XX` escapes are decoded when the whole value decodes, otherwise the raw value is kept;
 * - only the pairs that lie wholly within the first 8192 bytes count, and at most 100 cookies.
 * The result has no prototype, so a cookie named `__proto__` or `constructor` is just a key.
 */
export function parseCookieHeader(header: string | undefined): Record<string, string> {
  const cookies = Object.create(null) as Record<string, string>;
  let count = 0;
  for (const [name, value] of cookiePairs(header)) {
    if (count >= MAX_COOKIES) break;
    if (Object.hasOwn(cookies, name)) continue;
    cookies[name] = decodeValue(value);
    count += 1;
  }
  return cookies;
}

/**
 * Every value of `name` in a Cookie header, in the order the browser sent them (docs/security.md, a
 * shadowed session cookie). A browser holds one cookie per name, domain and path, and sends them
 * all, the longest path first (RFC 6265 §5.4): a sibling subdomain's `sessionId=x;
 * Domain=.collectors.com; Path=/collection` arrives before this service's own, and
 * parseCookieHeader, which keeps the first, reads the planted one. Within the same bounds as
 * parseCookieHeader: the first 8192 bytes, at most 100 values.
 */
export function cookieValues(header: string | undefined, name: string): string[] {
  const values: string[] = [];
  for (const [pairName, value] of cookiePairs(header)) {
    if (values.length >= MAX_COOKIES) break;
    if (pairName === name) values.push(decodeValue(value));
  }
  return values;
}

/**
 * The `name=value` pairs of a Cookie header, in order: only those wholly within the first 8192
 * bytes, without the pairs that have no `=` or whose name is not an RFC 6265 token; spaces and tabs
 * around names and values dropped, values still encoded.
 */
function* cookiePairs(header: string | undefined): Generator<[string, string]> {
  if (typeof header !== 'string' || header === '') return;
  for (const pair of boundedPairs(header)) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const name = trimSpaces(pair.slice(0, eq));
    if (!isCookieNameToken(name)) continue;
    yield [name, trimSpaces(pair.slice(eq + 1))];
  }
}

/**
 * The Set-Cookie header that deletes `name` (§4 Sign-out step 2, §4 After login step 7): an empty
 * value, Max-Age=0 and an Expires in 1970 for browsers that predate Max-Age. Path, SameSite, Secure
 * and HttpOnly are those the cookie was written with, since a browser only replaces a cookie whose
 * name, domain and path match. Throws on a name or options that could never have been written:
 * that is a programming error, not input.
 */
export function serializeClearing(name: string, options: CookieAttributes): string {
  const result = validateCookieWrite({
    name,
    value: '',
    path: options.path,
    sameSite: options.sameSite,
    secure: options.secure,
    httpOnly: options.httpOnly,
    maxAge: 0,
    expires: new Date(0),
  });
  if (!result.ok) {
    const fields = result.errors.map((e) => e.field).join(', ');
    throw new Error(`Cannot clear cookie: invalid ${fields}`);
  }
  return result.header;
}

/**
 * The headers that clear `name` in this deployment: under its wire name (`__Host-sessionId` on
 * https), and under each name an earlier version wrote it with there (the plain `sessionId`), which
 * a browser may still hold (docs/security.md, a shadowed session cookie).
 */
export function clearingHeaders(
  name: CookieName,
  deployment: { readonly secure: boolean },
): string[] {
  const options = cookieOptionsFor(name, deployment);
  return [wireCookieName(name, deployment), ...formerWireNames(name, deployment)].map((wire) =>
    serializeClearing(wire, options),
  );
}

/** §4 Sign-out step 2: the headers that clear "the three token cookies". */
export function tokenCookieClearingHeaders(deployment: { readonly secure: boolean }): string[] {
  return TOKEN_COOKIES.flatMap((name) => clearingHeaders(name, deployment));
}

function boundedPairs(header: string): string[] {
  if (header.length <= MAX_COOKIE_HEADER_BYTES) return header.split(';');
  const pairs = header.slice(0, MAX_COOKIE_HEADER_BYTES).split(';');
  // A pair cut at the limit would read as a shorter, wrong value: drop it.
  if (header[MAX_COOKIE_HEADER_BYTES] !== ';') pairs.pop();
  return pairs;
}

// A loop rather than /[ \t]+$/, which backtracks quadratically on long runs of inner spaces.
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start += 1;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end -= 1;
  return text.slice(start, end);
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

function decodeValue(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
