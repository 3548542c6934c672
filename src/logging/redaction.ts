/**
 * What never reaches a log line (DESIGN.md "Tokens stay secret", ASVS 5.0 16.2.5): credentials in
 * headers, and the query values that carry tokens, codes, state or session ids.
 */
export const SENSITIVE_QUERY_KEYS: ReadonlySet<string> = new Set([
  't',
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
      let key: string;
      try {
        key = decodeURIComponent(rawKey.replace(/\+/g, ' ')).toLowerCase();
      } catch {
        key = rawKey.toLowerCase();
      }
      return SENSITIVE_QUERY_KEYS.has(key) && eq !== -1 ? `${rawKey}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${redacted}${hashAt === -1 ? '' : url.slice(hashAt)}`;
}
