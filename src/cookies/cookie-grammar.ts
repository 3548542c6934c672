/**
 * The character classes of RFC 6265 §4.1.1, written as allowlists (docs/design.md "Every write is
 * validated", ASVS 5.0 2.2.1 positive validation). Shared by the writer, the reader and the legacy
 * unwrapper so that all three agree on what a cookie name and a cookie value may hold.
 */

// token (RFC 2616 §2.2) = 1*<any CHAR except CTLs or separators>; what is left is letters, digits
// and these 15 symbols. No space, tab, `=`, `;`, `,`, quotes, slashes or brackets.
const COOKIE_NAME_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

// cookie-octet = %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E: printable US-ASCII without
// DQUOTE, comma, semicolon and backslash. No whitespace, no controls, nothing above 0x7E.
const COOKIE_OCTETS = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;

/** RFC 6265 §4.1.1 cookie-name: a non-empty token. */
export function isCookieNameToken(name: string): boolean {
  return COOKIE_NAME_TOKEN.test(name);
}

/** Zero or more cookie-octets (no DQUOTE at all). */
export function isCookieOctets(text: string): boolean {
  return COOKIE_OCTETS.test(text);
}

/** RFC 6265 §4.1.1 cookie-value: `*cookie-octet` or `DQUOTE *cookie-octet DQUOTE`. */
export function isCookieValue(value: string): boolean {
  if (isCookieOctets(value)) return true;
  return (
    value.length >= 2 &&
    value.startsWith('"') &&
    value.endsWith('"') &&
    isCookieOctets(value.slice(1, -1))
  );
}
