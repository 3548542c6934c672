import { ClientCookieWrite, clientCookieWrite } from './client-cookie-write';

const HTTPS = { secure: true };
/** §9: a plain-http localhost deployment writes cookies without Secure. */
const LOCALHOST = { secure: false };
const theme: ClientCookieWrite = { cookieName: 'theme', value: 'dark' };
const sid: ClientCookieWrite = { cookieName: 'QTM_SID', value: 'abc123' };
const PATH_MESSAGE =
  'path: may hold only letters, digits, "/" and -._~!$&\'()*+,=:@% (no quotes, <, >, \\, spaces, controls or ";")';

// Lets a row carry what only a JavaScript caller could send.
const untyped = (write: Record<string, unknown>) => write as unknown as ClientCookieWrite;

describe(clientCookieWrite.name, () => {
  describe('§5 Cookie writes reject invalid names, values, domain, path and expires', () => {
    const rejected: [string, ClientCookieWrite, { secure: boolean }, string][] = [
      // Names: the allowlist of non-credential cookies (§7, docs/design.md "Every write is validated").
      [
        'a credential cookie’s name',
        untyped({ cookieName: 'sessionId', value: 'x' }),
        HTTPS,
        'cookieName: is not a cookie the page may set',
      ],
      [
        'a name that is no cookie token',
        untyped({ cookieName: 'the me', value: 'dark' }),
        HTTPS,
        'cookieName: is not a cookie the page may set',
      ],
      // Values: cookie-octets, then the cookie's own values.
      [
        'a theme other than light or dark',
        { ...theme, value: 'blue' },
        HTTPS,
        'value: is not an allowed value for theme',
      ],
      [
        'an analytics id longer than 128 characters',
        { cookieName: 'QTM_UID', value: 'u'.repeat(129) },
        HTTPS,
        'value: is not an allowed value for QTM_UID',
      ],
      [
        'a value with a space (no cookie-octet)',
        { ...sid, value: 'abc 123' },
        HTTPS,
        'value: must contain only cookie-octets (RFC 6265 §4.1.1): no controls, whitespace, DQUOTE ' +
          '(except around the whole value), comma, semicolon, backslash or non-ASCII',
      ],
      [
        'a value that smuggles an attribute',
        { ...sid, value: 'abc;Domain=evil.example' },
        HTTPS,
        'value: must contain only cookie-octets (RFC 6265 §4.1.1): no controls, whitespace, DQUOTE ' +
          '(except around the whole value), comma, semicolon, backslash or non-ASCII',
      ],
      // Path.
      ['a relative path', { ...sid, path: 'app' }, HTTPS, 'path: must start with "/"'],
      [
        'a path that smuggles a Domain',
        { ...sid, path: '/;Domain=evil.example' },
        HTTPS,
        PATH_MESSAGE,
      ],
      ['a path with a quote (issue 15 item 8)', { ...sid, path: '/a"b' }, HTTPS, PATH_MESSAGE],
      ['a path with angle brackets', { ...sid, path: '/<x>' }, HTTPS, PATH_MESSAGE],
      ['a path with a backslash', { ...sid, path: '/a\\b' }, HTTPS, PATH_MESSAGE],
      [
        'SameSite=None without asking for Secure on an https site (never added quietly)',
        { ...sid, sameSite: 'none' },
        HTTPS,
        'sameSite: SameSite=None requires Secure',
      ],
      // Lifetime: Max-Age only (there is no expires to set), whole seconds from 0.
      [
        'a negative maxAge',
        { ...sid, maxAge: -1 },
        HTTPS,
        'maxAge: must not be negative (use 0 to delete a cookie)',
      ],
      [
        'a fractional maxAge',
        { ...sid, maxAge: 1.5 },
        HTTPS,
        'maxAge: must be a whole number of seconds',
      ],
      // Flags: §9 Secure except on localhost.
      [
        'dropping Secure on an https site',
        { ...theme, secure: false },
        HTTPS,
        'secure: cookies of this https site must be Secure',
      ],
      [
        'SameSite=None without Secure on localhost',
        { ...sid, sameSite: 'none' },
        LOCALHOST,
        'sameSite: SameSite=None requires Secure',
      ],
      // Every problem at once, as "field: reason; field: reason" (§8).
      [
        'a relative path and SameSite=None without Secure',
        { ...sid, path: 'app', sameSite: 'none' },
        LOCALHOST,
        'path: must start with "/"; sameSite: SameSite=None requires Secure',
      ],
    ];

    it.each(rejected)('refuses %s', (_why, write, deployment, message) => {
      expect(clientCookieWrite(write, deployment)).toEqual({ ok: false, message });
    });
  });

  describe('writes the allowed cookies with the attributes of their policy (§9) unless asked otherwise', () => {
    const written: [string, ClientCookieWrite, { secure: boolean }, string][] = [
      [
        'the theme on an https site',
        theme,
        HTTPS,
        'theme=dark; Max-Age=3155695200; Path=/; Secure; SameSite=Lax',
      ],
      [
        'the theme on localhost',
        theme,
        LOCALHOST,
        'theme=dark; Max-Age=3155695200; Path=/; SameSite=Lax',
      ],
      [
        'the analytics session id, a browser-session cookie',
        sid,
        HTTPS,
        'QTM_SID=abc123; Path=/; Secure; SameSite=Lax',
      ],
      [
        'a deletion with its own path and SameSite',
        { ...sid, path: '/', sameSite: 'strict', maxAge: 0 },
        LOCALHOST,
        'QTM_SID=abc123; Max-Age=0; Path=/; SameSite=Strict',
      ],
      [
        'HttpOnly when asked',
        { ...sid, httpOnly: true },
        HTTPS,
        'QTM_SID=abc123; Path=/; HttpOnly; Secure; SameSite=Lax',
      ],
      [
        'Secure when asked on localhost',
        { ...theme, secure: true },
        LOCALHOST,
        'theme=dark; Max-Age=3155695200; Path=/; Secure; SameSite=Lax',
      ],
      [
        'the theme, leaving out a Domain and Expires a JavaScript caller added (host-only, Max-Age)',
        untyped({ ...theme, domain: 'collectors.com', expires: new Date(0) }),
        HTTPS,
        'theme=dark; Max-Age=3155695200; Path=/; Secure; SameSite=Lax',
      ],
    ];

    it.each(written)('writes %s', (_what, write, deployment, header) => {
      expect(clientCookieWrite(write, deployment)).toEqual({ ok: true, header });
    });
  });
});
