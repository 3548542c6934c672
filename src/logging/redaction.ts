/**
 * What never reaches a log line (docs/design.md "Tokens stay secret", ASVS 5.0 16.2.5): credentials in
 * headers, and the query values that carry tokens, codes, state or session ids.
 */
export const SENSITIVE_QUERY_KEYS: ReadonlySet<string> = new Set([
  't',
  // docs/security.md, the offer key: the key of a cross-site `t`'s offer (/signin/continue?k=…),
  // which names it.
  'k',
  'rt',
  'si',
  'code',
  'state',
  'access_token',
  'refresh_token',
  'id_token',
  'id_token_hint',
  'token',
  'client_secret',
  'code_verifier',
  'handoff_code',
  'password',
]);

export const REDACTED = '[Redacted]';

/**
 * Query parameters whose values are URLs of their own (§3 r and fr, OAuth's redirect URIs): their
 * own query and fragment are dropped, since a brand's return URL may carry its tokens or ids.
 */
export const URL_VALUED_QUERY_KEYS: ReadonlySet<string> = new Set([
  'r',
  'fr',
  'redirect_uri',
  'post_logout_redirect_uri',
]);

/**
 * Replaces the values of sensitive query parameters in a request path or URL, keeping the rest
 * readable for debugging. Keys are compared case-insensitively.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const hashAt = url.indexOf('#', q);
  const query = url.slice(q + 1, hashAt === -1 ? undefined : hashAt);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawKey = eq === -1 ? pair : pair.slice(0, eq);
      if (eq === -1) return pair;
      const key = queryKey(rawKey);
      if (SENSITIVE_QUERY_KEYS.has(key)) return `${rawKey}=${REDACTED}`;
      if (URL_VALUED_QUERY_KEYS.has(key)) return `${rawKey}=${redactNestedUrl(pair.slice(eq + 1))}`;
      return pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${redacted}${hashAt === -1 ? '' : url.slice(hashAt)}`;
}

/**
 * A query key as the comparison sees it: decoded, lower case. Most keys have nothing to decode, and
 * those skip the decoding (each access line redacts its URL and its Location, 10-15 keys on a hop).
 */
function queryKey(rawKey: string): string {
  if (!rawKey.includes('%') && !rawKey.includes('+')) return rawKey.toLowerCase();
  try {
    return decodeURIComponent(rawKey.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return rawKey.toLowerCase();
  }
}

/** A URL carried, encoded, as a query value: its own query and fragment go. */
function redactNestedUrl(encoded: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded.replace(/\+/g, ' '));
  } catch {
    return REDACTED;
  }
  const redacted = redactCallerUrl(decoded);
  return redacted === decoded ? encoded : encodeURIComponent(redacted);
}

/** Longest part of a caller's URL a log line keeps. */
const MAX_LOGGED_URL = 200;

/**
 * A caller-supplied URL as a log line may show it (ASVS 5.0 16.2.5): no query or fragment (they may
 * hold tokens or personal data), no userinfo, at most 200 characters. Enough to tell a brand which
 * link of theirs is off.
 */
export function redactCallerUrl(url: string): string {
  const withoutQuery = url.split(/[?#]/, 1)[0] ?? '';
  const withoutUserinfo = withoutQuery.replace(/^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)[^/@]*@/, '$1');
  const cut = withoutUserinfo.slice(0, MAX_LOGGED_URL);
  return cut.length < withoutUserinfo.length ? `${cut}…` : cut;
}
