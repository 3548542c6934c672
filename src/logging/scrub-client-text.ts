import { REDACTED } from './redaction';

/**
 * Text a browser sends us to log (§8 client error reports: a message and a path) is the attacker's or
 * the page's, and may hold whatever the page held: a token, a cookie header, a URL with `si`/`t`/`rt`,
 * a password field. ASVS 5.0 16.2.5: nothing of the kind reaches a log line. Each rule below replaces
 * the secret part with [Redacted] and is counted; what stays is enough to find the fault.
 */

/** Keys whose values are credentials wherever they appear (query, fragment, form, JSON). */
const EXACT_KEYS = new Set(['t', 'rt', 'si', 'sid', 'code', 'state', 'pwd', 'otp', 'pin', 'jwt']);
const KEY_WORDS =
  /token|secret|passw|session|cookie|^auth$|authori[sz]ation|credential|api[-_]?key|private[-_]?key/i;
const isCredentialKey = (key: string) => EXACT_KEYS.has(key.toLowerCase()) || KEY_WORDS.test(key);

interface Rule {
  readonly name: string;
  readonly pattern: RegExp;
  readonly replace: (match: string, ...groups: string[]) => string | undefined;
}

const RULES: readonly Rule[] = [
  {
    // A header line: everything after the name, to the end of the line (cookie lists included).
    name: 'header',
    pattern: /\b((?:set-)?cookie|authorization|proxy-authorization)(\s*:\s*)[^\r\n]*/gi,
    replace: (_m, name = '', sep = '') => `${name}${sep}${REDACTED}`,
  },
  {
    // An HTTP authentication scheme and its credentials, wherever it appears.
    name: 'scheme',
    pattern: /\b(bearer|basic|dpop)(\s+)[A-Za-z0-9\-._~+/]+=*/gi,
    replace: (_m, scheme = '', space = '') => `${scheme}${space}${REDACTED}`,
  },
  {
    // A JWT (header.payload.signature, base64url; an unsecured one may end with the last dot).
    name: 'jwt',
    pattern: /\beyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/g,
    replace: () => REDACTED,
  },
  {
    // "key": "value" and "key": value in JSON (or a JS object as printed).
    name: 'json',
    pattern:
      /(["']?)([A-Za-z0-9_.-]{1,64})\1(\s*:\s*)("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s,}\]]+)/g,
    replace: (_m, quote = '', key = '', sep = '', value = '') =>
      isCredentialKey(key) && !value.includes(REDACTED.slice(0, -1))
        ? `${quote}${key}${quote}${sep}"${REDACTED}"`
        : undefined,
  },
  {
    // key=value in a query, a fragment or form text, up to the next separator.
    name: 'pair',
    pattern: /([A-Za-z0-9_.-]{1,64})=([^&\s;,#"']*)/g,
    replace: (_m, key = '') => (isCredentialKey(key) ? `${key}=${REDACTED}` : undefined),
  },
];

export interface ScrubbedText {
  readonly text: string;
  /** How many secrets were replaced: logged as a count, never what they were. */
  readonly removed: number;
}

export function scrubClientText(text: string): ScrubbedText {
  let removed = 0;
  let out = text;
  for (const rule of RULES) {
    out = out.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      // The capture groups come before the offset and the whole string (the last two arguments).
      const groups = rest.slice(0, -2).map((g) => (typeof g === 'string' ? g : ''));
      const replacement = rule.replace(match, ...groups);
      if (replacement === undefined || replacement === match) return match;
      removed++;
      return replacement;
    });
  }
  return { text: out, removed };
}

/**
 * The page path of a report as a log line keeps it: no query and no fragment (a single-page app's
 * fragment may hold an implicit-flow token), and nothing a rule above would remove.
 */
export function scrubClientPath(path: string): ScrubbedText {
  const cut = path.search(/[?#]/);
  const bare = cut === -1 ? path : path.slice(0, cut);
  const scrubbed = scrubClientText(bare);
  return { text: scrubbed.text, removed: scrubbed.removed + (cut === -1 ? 0 : 1) };
}
