import { REDACTED } from './redaction';

/**
 * Text a browser sends us to log (§8 client error reports: a message and a path) is the attacker's or
 * the page's, and may hold whatever the page held: a token, a cookie header, a URL with `si`/`t`/`rt`,
 * a password field. ASVS 5.0 16.2.5: nothing of the kind reaches a log line. Each rule below replaces
 * the secret part with [Redacted] and is counted; what stays is enough to find the fault.
 */

/**
 * Keys whose values are credentials wherever they appear (query, fragment, form, JSON); `k` is the
 * offer key of the page that asks before a cross-site `t` signs in (docs/security.md, the offer
 * key).
 */
const EXACT_KEYS = new Set([
  't',
  'k',
  'rt',
  'si',
  'sid',
  'code',
  'state',
  'pwd',
  'otp',
  'pin',
  'jwt',
]);
const KEY_WORDS =
  /token|secret|passw|session|cookie|^auth$|authori[sz]ation|credential|api[-_]?key|private[-_]?key/i;
const isCredentialKey = (key: string) => EXACT_KEYS.has(key.toLowerCase()) || KEY_WORDS.test(key);

/**
 * A run of token characters that a line break may interrupt (issue 32 item 7: a token copied across
 * lines, `t=eyJhbGc` then `iOiJ…` on the next, was only half redacted). A break counts as part of the
 * run only between two token characters, so the next line's words stay when the run ended before it.
 */
const RUN = String.raw`[A-Za-z0-9_\-~+/]+(?:[ \t]*\r?\n[ \t]*[A-Za-z0-9_\-~+/]+)*=*`;
/** One base64url segment of a JWT, line breaks allowed inside it. */
const SEGMENT = String.raw`[A-Za-z0-9_-]+(?:[ \t]*\r?\n[ \t]*[A-Za-z0-9_-]+)*`;
/** A JWT, line breaks allowed inside and around its dots. */
const JWT_RUN = String.raw`eyJ${SEGMENT}\s*\.\s*${SEGMENT}\s*\.(?:${SEGMENT})?`;
/**
 * A name that says its value is a secret, as a pattern (the names of EXACT_KEYS and KEY_WORDS): only
 * such a name may start a named run, so that ordinary words never swallow the text after them.
 */
const SECRET_NAME = String.raw`(?:[A-Za-z0-9_.-]*(?:token|secret|passw|session|cookie|credential|api[-_]?key|private[-_]?key)[A-Za-z0-9_.-]*|t|k|rt|si|sid|code|state|pwd|otp|pin|jwt|auth|authori[sz]ation)`;
/** A secret's name, then `=`, `:` or a space, then a long run of token characters. */
const NAMED_RUN_MIN = 16;

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
    // key=value, key: value or "key value" where the key names a secret and the value is a long run
    // of token characters, line breaks allowed inside it (a split `t=`, `refresh_token: abc…`).
    name: 'named-run',
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9_.-])(${SECRET_NAME})([ \t]*[=:]?[ \t]*\r?\n?[ \t]*)(${JWT_RUN}|${RUN})`,
      'gi',
    ),
    replace: (_m, key = '', sep = '', value = '') =>
      isCredentialKey(key) &&
      !/^(bearer|basic|dpop)$/i.test(key) &&
      value.replace(/\s/g, '').length >= NAMED_RUN_MIN &&
      (sep.includes('=') || sep.includes(':') || /[0-9_-]/.test(value))
        ? `${key}${sep.replace(/[ \t]*\r?\n[ \t]*/, '') || ' '}${REDACTED}`
        : undefined,
  },
  {
    // A JWT (header.payload.signature, base64url; an unsecured one may end with the last dot), line
    // breaks allowed inside and around its dots.
    name: 'jwt',
    pattern: new RegExp(String.raw`\b${JWT_RUN}`, 'g'),
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
    // key=value in a query, a fragment or form text, up to the next separator; a line break followed
    // by more of the value continues it (issue 32 item 7).
    name: 'pair',
    pattern:
      /([A-Za-z0-9_.-]{1,64})=([^&\s;,#"']*(?:[ \t]*\r?\n[ \t]*[^&\s;,#"'=]+(?=[&\s;,#"']|$))*)/g,
    replace: (_m, key = '', value = '') =>
      isCredentialKey(key) && value.trim() !== '' && value.trim() !== REDACTED
        ? `${key}=${REDACTED}`
        : undefined,
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
