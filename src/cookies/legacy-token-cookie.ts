import { isCookieOctets } from './cookie-grammar';
import { TokenCookieName } from './cookie-policy';

/**
 * §4 Token handling: "Legacy JSON-wrapped cookies are unwrapped and rewritten." Older versions
 * stored a token cookie as JSON: `{"accessToken":"<jwt>"}`, `{"token":…}`, `{"value":…}`, a JSON
 * string literal `"<jwt>"`, Express's object form `j:{…}`, sometimes URI-encoded once or twice.
 * This reads the token out so the caller can rewrite the cookie plain; it does not verify the token
 * (the token module does, DESIGN.md flow 5).
 *
 * - `value` is the token, or `undefined` when none can be read (§8 "An unreadable token gives empty
 *   tokens"). A returned token is always non-empty cookie-octets, so it can be written back as is.
 * - `wasWrapped` is true when the raw value was in a legacy JSON form, readable or not: the caller
 *   rewrites the cookie plain, or clears it when `value` is undefined.
 * - A plain value (a JWT, an opaque refresh token) comes back unchanged with `wasWrapped` false.
 *   A bare JSON number or keyword (`123`, `true`) is plain too: legacy wrapping was always an
 *   object or a string, and the token check will refuse it.
 * - Never throws.
 */

export type LegacyUnwrapResult =
  | { readonly value: string; readonly wasWrapped: boolean }
  | { readonly value: undefined; readonly wasWrapped: boolean };

/** Longer raw values are refused unread: a browser never sends a cookie this large. */
export const MAX_LEGACY_COOKIE_LENGTH = 8192;
// URI-decoding rounds and nested JSON-string layers tried before giving up.
const MAX_DECODE_ROUNDS = 2;
const MAX_JSON_LAYERS = 3;

// Keys under which each cookie's token was stored, then the generic ones.
const OWN_KEYS: Readonly<Record<TokenCookieName, readonly string[]>> = {
  accessToken: ['accessToken', 'access_token'],
  refreshToken: ['refreshToken', 'refresh_token'],
  sessionId: ['sessionId', 'session_id'],
};
const GENERIC_KEYS: readonly string[] = ['token', 'value'];
const ALL_KEYS: readonly string[] = [...Object.values(OWN_KEYS).flat(), ...GENERIC_KEYS];

const NOTHING_PLAIN: LegacyUnwrapResult = { value: undefined, wasWrapped: false };

/**
 * @param cookieName which cookie `raw` came from; when given, an object holding several tokens
 *   (`{"accessToken":…,"refreshToken":…}`) yields that cookie's own one. Without it such an object
 *   is ambiguous and unreadable, rather than risk using a refresh token as an access token.
 */
export function unwrapLegacyTokenCookie(
  raw: string,
  cookieName?: TokenCookieName,
): LegacyUnwrapResult {
  if (typeof raw !== 'string' || raw === '' || raw.length > MAX_LEGACY_COOKIE_LENGTH) {
    return NOTHING_PLAIN;
  }
  const json = legacyJsonText(uriDecoded(raw));
  if (json === undefined) return isToken(raw) ? { value: raw, wasWrapped: false } : NOTHING_PLAIN;
  return { value: tokenFromJson(json, cookieName, 1), wasWrapped: true };
}

function uriDecoded(raw: string): string {
  let text = raw;
  for (let round = 0; round < MAX_DECODE_ROUNDS && text.includes('%'); round += 1) {
    try {
      text = decodeURIComponent(text);
    } catch {
      break;
    }
  }
  return text;
}

/** The JSON text when `text` is in a legacy wrapped form, else undefined. */
function legacyJsonText(text: string): string | undefined {
  const trimmed = text.trim();
  // Express's res.cookie(name, object) writes 'j:' + JSON.stringify(object).
  const json = trimmed.startsWith('j:') ? trimmed.slice(2).trim() : trimmed;
  const first = json.charAt(0);
  return first === '{' || first === '"' || first === '[' ? json : undefined;
}

function tokenFromJson(
  json: string,
  cookieName: TokenCookieName | undefined,
  layer: number,
): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  const inner = typeof parsed === 'string' ? parsed : tokenFromObject(parsed, cookieName);
  if (inner === undefined) return undefined;
  // A JSON string that is itself JSON: a value that was stringified twice.
  const nested = layer < MAX_JSON_LAYERS ? legacyJsonText(inner) : undefined;
  if (nested !== undefined) return tokenFromJson(nested, cookieName, layer + 1);
  return isToken(inner) ? inner : undefined;
}

function tokenFromObject(
  parsed: unknown,
  cookieName: TokenCookieName | undefined,
): string | undefined {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const record = parsed as Record<string, unknown>;
  if (cookieName !== undefined) {
    const own = stringsUnder(record, OWN_KEYS[cookieName]);
    if (own.size > 0) return single(own);
    return single(stringsUnder(record, GENERIC_KEYS));
  }
  return single(stringsUnder(record, ALL_KEYS));
}

function stringsUnder(record: Record<string, unknown>, keys: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const key of keys) {
    const value = Object.hasOwn(record, key) ? record[key] : undefined;
    if (typeof value === 'string') found.add(value);
  }
  return found;
}

/** The one distinct value, or undefined when there are none or they disagree. */
function single(values: Set<string>): string | undefined {
  if (values.size !== 1) return undefined;
  const [value] = values;
  return value;
}

function isToken(value: string): boolean {
  return value !== '' && isCookieOctets(value);
}
