import { isCookieNameToken, isCookieValue } from './cookie-grammar';
import {
  CookieName,
  SameSite,
  THEME_MAX_AGE,
  cookieOptionsFor,
  isAllowedCookieValue,
  isCookieName,
  wireCookieName,
} from './cookie-policy';

/**
 * §5 Cookie writes, docs/design.md "Every write is validated": one function checks a cookie write and,
 * only when every field is acceptable, returns the Set-Cookie header for it. All problems are
 * reported at once, each naming its field, so a 400 can say what to fix. Messages never echo the
 * input: values are tokens and rejected writes are logged (ASVS 5.0 16.2.5).
 *
 * Positions taken:
 * - Domain is always refused. This service sets host-only cookies only
 *   (draft-ietf-oauth-browser-based-apps §6.1.3.2: SHOULD NOT set Domain), which also removes every
 *   leading-dot, IP-literal and public-suffix trick at once.
 * - Max-Age is a whole number of seconds from 0 (delete) to 3,155,695,200 (§9 theme, the longest
 *   lifetime we write). Negative values are refused rather than read as "delete": say 0.
 * - Path is stricter than RFC 6265's `<any CHAR except CTLs or ";">`: printable ASCII without
 *   spaces, so that no browser trims or splits it differently from us.
 * - Names are RFC 6265 tokens and never empty; the `__Secure-`, `__Host-`, `__Http-` and
 *   `__Host-Http-` prefixes are matched case-insensitively, as current browsers do, and their
 *   requirements enforced.
 * - `%` is written as `%25`: it is the one cookie-octet our reader (`parseCookieHeader`, like
 *   Express) interprets, so escaping it makes every accepted value read back exactly.
 */

export interface CookieWrite {
  name: string;
  value: string;
  path?: string;
  domain?: string;
  /** Seconds, as in the header (not Express's milliseconds). */
  maxAge?: number;
  expires?: Date;
  sameSite?: SameSite;
  secure?: boolean;
  httpOnly?: boolean;
}

/** The field at fault; `header` when only the serialised header as a whole is too large. */
export type CookieWriteField = keyof CookieWrite | 'header';

export interface CookieWriteError {
  readonly field: CookieWriteField;
  readonly message: string;
}

export type CookieWriteResult =
  | { readonly ok: true; readonly header: string }
  | { readonly ok: false; readonly errors: CookieWriteError[] };

/** ASVS 5.0 3.3.5 (name plus value) and RFC 6265 §6.1 (the whole cookie): 4096 bytes. */
export const MAX_COOKIE_BYTES = 4096;
/** RFC 6265bis §5.6: attribute values over 1024 bytes are ignored by browsers. */
export const MAX_COOKIE_PATH_LENGTH = 1024;
export const MAX_COOKIE_MAX_AGE = THEME_MAX_AGE;
const LATEST_EXPIRES = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const SAME_SITE_ATTRIBUTE: Readonly<Record<SameSite, string>> = {
  lax: 'Lax',
  strict: 'Strict',
  none: 'None',
};

// A conservative set (issue 15 item 8): RFC 3986 path characters (unreserved, sub-delims except ";",
// ":", "@", "%" escapes and "/"). Quotes, angle brackets, backslashes, spaces and controls are refused
// although RFC 6265 §4.1.1 allows some: a path is echoed into headers, logs and pages.
const PATH_CHARACTERS = /^[A-Za-z0-9\-._~!$&'()*+,=:@%/]*$/;

interface PrefixRule {
  readonly prefix: string;
  readonly hostOnlyRoot: boolean;
  readonly httpOnly: boolean;
  readonly message: string;
}

// Longest first, so `__Host-Http-` is not mistaken for plain `__Host-`.
const PREFIX_RULES: readonly PrefixRule[] = [
  {
    prefix: '__host-http-',
    hostOnlyRoot: true,
    httpOnly: true,
    message: 'the __Host-Http- prefix requires Secure, HttpOnly, Path=/ and no Domain',
  },
  {
    prefix: '__host-',
    hostOnlyRoot: true,
    httpOnly: false,
    message: 'the __Host- prefix requires Secure, Path=/ and no Domain (RFC 6265bis §4.1.3.2)',
  },
  {
    prefix: '__http-',
    hostOnlyRoot: false,
    httpOnly: true,
    message: 'the __Http- prefix requires Secure and HttpOnly (draft-ietf-httpbis-layered-cookies)',
  },
  {
    prefix: '__secure-',
    hostOnlyRoot: false,
    httpOnly: false,
    message: 'the __Secure- prefix requires Secure (RFC 6265bis §4.1.3.1)',
  },
];

export function validateCookieWrite(write: CookieWrite): CookieWriteResult {
  const errors = [
    ...nameErrors(write),
    ...valueErrors(write),
    ...pathErrors(write.path),
    ...domainErrors(write.domain),
    ...maxAgeErrors(write.maxAge),
    ...expiresErrors(write.expires),
    ...flagErrors(write),
  ];
  if (errors.length > 0) return { ok: false, errors };
  const header = serializeSetCookie(write);
  if (header.length > MAX_COOKIE_BYTES) {
    return {
      ok: false,
      errors: [
        {
          field: 'header',
          message: `the Set-Cookie header must not exceed ${MAX_COOKIE_BYTES} bytes`,
        },
      ],
    };
  }
  return { ok: true, header };
}

/**
 * A write of one of our own cookies with the attributes of its policy (§9): the value must also be
 * one the policy allows (theme: light or dark). Used for §4 token storage and by cookie.setCookie.
 */
export function validatePolicyCookieWrite(
  name: CookieName,
  value: string,
  deployment: { readonly secure: boolean },
): CookieWriteResult {
  // The type says CookieName; a JavaScript caller may still pass anything.
  if (!isCookieName(name)) {
    return {
      ok: false,
      errors: [{ field: 'name', message: 'is not a cookie this service writes' }],
    };
  }
  const result = validateCookieWrite({
    name: wireCookieName(name, deployment),
    value,
    ...cookieOptionsFor(name, deployment),
  });
  if (typeof value === 'string' && !isAllowedCookieValue(name, value)) {
    const policyError: CookieWriteError = {
      field: 'value',
      message: `is not an allowed value for the ${name} cookie`,
    };
    return { ok: false, errors: result.ok ? [policyError] : [...result.errors, policyError] };
  }
  return result;
}

function nameErrors({ name, secure, httpOnly, path, domain }: CookieWrite): CookieWriteError[] {
  if (typeof name !== 'string') return [{ field: 'name', message: 'must be a string' }];
  if (name === '') return [{ field: 'name', message: 'must not be empty' }];
  if (!isCookieNameToken(name)) {
    return [{ field: 'name', message: 'must be a cookie-name token (RFC 6265 §4.1.1)' }];
  }
  const lower = name.toLowerCase();
  const rule = PREFIX_RULES.find((r) => lower.startsWith(r.prefix));
  if (rule === undefined) return [];
  const met =
    secure === true &&
    (!rule.httpOnly || httpOnly === true) &&
    (!rule.hostOnlyRoot || (path === '/' && domain === undefined));
  return met ? [] : [{ field: 'name', message: rule.message }];
}

function valueErrors({ name, value }: CookieWrite): CookieWriteError[] {
  if (typeof value !== 'string') return [{ field: 'value', message: 'must be a string' }];
  if (!isCookieValue(value)) {
    return [
      {
        field: 'value',
        message:
          'must contain only cookie-octets (RFC 6265 §4.1.1): no controls, whitespace, DQUOTE ' +
          '(except around the whole value), comma, semicolon, backslash or non-ASCII',
      },
    ];
  }
  if (typeof name === 'string' && name.length + escapeValue(value).length > MAX_COOKIE_BYTES) {
    return [
      {
        field: 'value',
        message: `name and value together must not exceed ${MAX_COOKIE_BYTES} bytes (ASVS 3.3.5)`,
      },
    ];
  }
  return [];
}

function pathErrors(path: unknown): CookieWriteError[] {
  if (path === undefined) return [];
  if (typeof path !== 'string') return [{ field: 'path', message: 'must be a string' }];
  if (!path.startsWith('/')) return [{ field: 'path', message: 'must start with "/"' }];
  if (!PATH_CHARACTERS.test(path)) {
    return [
      {
        field: 'path',
        message:
          'may hold only letters, digits, "/" and -._~!$&\'()*+,=:@% (no quotes, <, >, \\, spaces, controls or ";")',
      },
    ];
  }
  if (path.length > MAX_COOKIE_PATH_LENGTH) {
    return [{ field: 'path', message: `must not exceed ${MAX_COOKIE_PATH_LENGTH} characters` }];
  }
  return [];
}

function domainErrors(domain: unknown): CookieWriteError[] {
  if (domain === undefined) return [];
  return [
    {
      field: 'domain',
      message:
        'must not be set: this service writes host-only cookies only ' +
        '(draft-ietf-oauth-browser-based-apps §6.1.3.2)',
    },
  ];
}

function maxAgeErrors(maxAge: unknown): CookieWriteError[] {
  if (maxAge === undefined) return [];
  if (typeof maxAge !== 'number' || !Number.isSafeInteger(maxAge)) {
    return [{ field: 'maxAge', message: 'must be a whole number of seconds' }];
  }
  if (maxAge < 0) {
    return [{ field: 'maxAge', message: 'must not be negative (use 0 to delete a cookie)' }];
  }
  if (maxAge > MAX_COOKIE_MAX_AGE) {
    return [{ field: 'maxAge', message: `must not exceed ${MAX_COOKIE_MAX_AGE} seconds (§9)` }];
  }
  return [];
}

function expiresErrors(expires: unknown): CookieWriteError[] {
  if (expires === undefined) return [];
  if (!(expires instanceof Date) || Number.isNaN(expires.getTime())) {
    return [{ field: 'expires', message: 'must be a valid Date' }];
  }
  const time = expires.getTime();
  if (time < 0) return [{ field: 'expires', message: 'must not be before 1970-01-01' }];
  if (time > LATEST_EXPIRES) return [{ field: 'expires', message: 'must not be after 9999-12-31' }];
  return [];
}

function flagErrors({ sameSite, secure, httpOnly }: CookieWrite): CookieWriteError[] {
  const errors: CookieWriteError[] = [];
  if (secure !== undefined && typeof secure !== 'boolean') {
    errors.push({ field: 'secure', message: 'must be a boolean' });
  }
  if (httpOnly !== undefined && typeof httpOnly !== 'boolean') {
    errors.push({ field: 'httpOnly', message: 'must be a boolean' });
  }
  if (sameSite === undefined) return errors;
  // The typeof guard first: hasOwn would call toString on an object (and it may throw).
  if (typeof sameSite !== 'string' || !Object.hasOwn(SAME_SITE_ATTRIBUTE, sameSite)) {
    errors.push({ field: 'sameSite', message: 'must be one of lax, strict or none' });
  } else if (sameSite === 'none' && secure !== true) {
    // RFC 6265bis §5.6.7: browsers drop SameSite=None cookies that are not Secure.
    errors.push({ field: 'sameSite', message: 'SameSite=None requires Secure' });
  }
  return errors;
}

function escapeValue(value: string): string {
  return value.replaceAll('%', '%25');
}

// Attribute order: Name=Value; Max-Age; Domain; Path; Expires; HttpOnly; Secure; SameSite. Domain
// never appears: validation refuses it.
function serializeSetCookie(write: CookieWrite): string {
  const parts = [`${write.name}=${escapeValue(write.value)}`];
  if (write.maxAge !== undefined) parts.push(`Max-Age=${write.maxAge}`);
  if (write.path !== undefined) parts.push(`Path=${write.path}`);
  if (write.expires !== undefined) parts.push(`Expires=${write.expires.toUTCString()}`);
  if (write.httpOnly === true) parts.push('HttpOnly');
  if (write.secure === true) parts.push('Secure');
  if (write.sameSite !== undefined) parts.push(`SameSite=${SAME_SITE_ATTRIBUTE[write.sameSite]}`);
  return parts.join('; ');
}
