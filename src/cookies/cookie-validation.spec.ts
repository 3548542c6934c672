import fc from 'fast-check';
import { isCookieOctets, isCookieValue } from './cookie-grammar';
import { parseCookieHeader } from './cookie-header';
import { cookieOptionsFor } from './cookie-policy';
import {
  CookieWrite,
  CookieWriteField,
  MAX_COOKIE_MAX_AGE,
  validateCookieWrite,
  validatePolicyCookieWrite,
} from './cookie-validation';

const JWT =
  'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJDb2xsZWN0b3JzSWQiOjEyMywic3ViIjoiYUBiLmMifQ.c2lnbmF0dXJl';

/** A valid baseline; each rejected row changes one thing. */
const base: CookieWrite = {
  name: 'theme',
  value: 'dark',
  path: '/',
  sameSite: 'lax',
  secure: true,
  httpOnly: false,
};

function fieldsOf(write: CookieWrite): CookieWriteField[] {
  const result = validateCookieWrite(write);
  return result.ok ? [] : result.errors.map((e) => e.field);
}

// Lets a row carry a wrongly typed value, as a JavaScript caller could.
const wrong = (value: unknown) => value as never;

describe(validateCookieWrite.name, () => {
  describe('rejects, naming the field (§5 Cookie writes)', () => {
    const rejected: [string, Partial<CookieWrite>, CookieWriteField][] = [
      // Names: RFC 6265 §4.1.1 tokens, never empty.
      ['empty name', { name: '' }, 'name'],
      ['space in name', { name: 'the me' }, 'name'],
      ['semicolon in name', { name: 'a;b' }, 'name'],
      ['equals in name', { name: 'a=b' }, 'name'],
      ['comma in name', { name: 'a,b' }, 'name'],
      ['tab in name', { name: 'a\tb' }, 'name'],
      ['CRLF injection in name', { name: 'a\r\nSet-Cookie: admin' }, 'name'],
      ['parenthesis in name', { name: '(a)' }, 'name'],
      ['DQUOTE in name', { name: 'a"b' }, 'name'],
      ['non-ASCII name', { name: 'café' }, 'name'],
      ['slash in name', { name: 'a/b' }, 'name'],
      ['at sign in name', { name: 'a@b' }, 'name'],
      ['name not a string', { name: wrong(42) }, 'name'],
      // Prefixes (RFC 6265bis §4.1.3, draft-ietf-httpbis-layered-cookies).
      ['__Host- without Secure', { name: '__Host-id', secure: false }, 'name'],
      ['__Host- with another path', { name: '__Host-id', path: '/app' }, 'name'],
      ['__Host- without Path', { name: '__Host-id', path: undefined }, 'name'],
      ['__Secure- without Secure', { name: '__Secure-id', secure: false }, 'name'],
      ['__host- in lower case without Secure', { name: '__host-id', secure: false }, 'name'],
      [
        '__SECURE- in upper case without Secure',
        { name: '__SECURE-id', secure: undefined },
        'name',
      ],
      ['__Host-Http- without HttpOnly', { name: '__Host-Http-id', httpOnly: false }, 'name'],
      ['__Http- without HttpOnly', { name: '__Http-id' }, 'name'],
      // Values: cookie-octets only.
      ['space in value', { value: 'a b' }, 'value'],
      ['semicolon in value', { value: 'a;b' }, 'value'],
      ['attribute injected through value', { value: 'x; Domain=evil.com' }, 'value'],
      ['comma in value', { value: 'a,b' }, 'value'],
      ['backslash in value', { value: 'a\\b' }, 'value'],
      ['inner DQUOTE', { value: 'a"b' }, 'value'],
      ['unbalanced DQUOTE', { value: '"abc' }, 'value'],
      ['lone DQUOTE', { value: '"' }, 'value'],
      ['quoted value with a space', { value: '"a b"' }, 'value'],
      ['CRLF header injection', { value: 'x\r\nSet-Cookie: admin=1' }, 'value'],
      ['NUL', { value: 'a\x00' }, 'value'],
      ['DEL', { value: 'a\x7f' }, 'value'],
      ['tab', { value: '\t' }, 'value'],
      ['non-ASCII letter', { value: 'é' }, 'value'],
      ['line separator U+2028', { value: 'a\u2028b' }, 'value'],
      ['emoji', { value: '🍪' }, 'value'],
      ['name + value over 4096 bytes (ASVS 3.3.5)', { value: 'x'.repeat(4092) }, 'value'],
      ['value not a string', { value: wrong(undefined) }, 'value'],
      // Paths.
      ['empty path', { path: '' }, 'path'],
      ['relative path', { path: 'app' }, 'path'],
      ['semicolon in path', { path: '/a;Domain=evil.com' }, 'path'],
      ['newline in path', { path: '/a\nb' }, 'path'],
      ['space in path', { path: '/a b' }, 'path'],
      ['non-ASCII path', { path: '/ä' }, 'path'],
      // Issue 15 item 8: RFC 6265 allows these; a path echoed into headers, logs and pages should not.
      ['double quote in path', { path: '/a"b' }, 'path'],
      ['angle brackets in path', { path: '/<script>' }, 'path'],
      ['backslash in path', { path: '/a\\b' }, 'path'],
      ['a tab in path', { path: '/a\tb' }, 'path'],
      ['path over 1024 characters', { path: '/' + 'a'.repeat(1024) }, 'path'],
      ['path not a string', { path: wrong(['/']) }, 'path'],
      // Domain: host-only cookies only.
      ['a domain', { domain: 'signin.collectors.com' }, 'domain'],
      ['a leading-dot domain', { domain: '.collectors.com' }, 'domain'],
      ['a public suffix', { domain: 'com' }, 'domain'],
      ['an IP literal', { domain: '127.0.0.1' }, 'domain'],
      ['an empty domain', { domain: '' }, 'domain'],
      // Max-Age: whole seconds, 0 … 3,155,695,200.
      ['negative Max-Age', { maxAge: -1 }, 'maxAge'],
      ['fractional Max-Age', { maxAge: 1.5 }, 'maxAge'],
      ['NaN Max-Age', { maxAge: NaN }, 'maxAge'],
      ['infinite Max-Age', { maxAge: Infinity }, 'maxAge'],
      ['Max-Age over the §9 theme lifetime', { maxAge: MAX_COOKIE_MAX_AGE + 1 }, 'maxAge'],
      ['Max-Age as a string', { maxAge: wrong('100') }, 'maxAge'],
      // Expires: a valid Date from 1970 to 9999.
      ['invalid Date', { expires: new Date(NaN) }, 'expires'],
      ['Expires before 1970', { expires: new Date(-1) }, 'expires'],
      ['Expires after 9999', { expires: new Date('+010000-01-01T00:00:00Z') }, 'expires'],
      ['Expires as a string', { expires: wrong('2030-01-01') }, 'expires'],
      // SameSite.
      ['SameSite=None without Secure', { sameSite: 'none', secure: false }, 'sameSite'],
      ['SameSite=None with Secure unset', { sameSite: 'none', secure: undefined }, 'sameSite'],
      ['SameSite in header case', { sameSite: wrong('Lax') }, 'sameSite'],
      ['unknown SameSite', { sameSite: wrong('sometimes') }, 'sameSite'],
      // Flags.
      ['Secure as a string', { secure: wrong('true') }, 'secure'],
      ['HttpOnly as a number', { httpOnly: wrong(1) }, 'httpOnly'],
      // The whole header.
      [
        'header over 4096 bytes with each part in bounds',
        // theme=<3060>; Path=/<1023>; Secure; SameSite=Lax is 4119 bytes.
        { value: 'x'.repeat(3060), path: '/' + 'p'.repeat(1023) },
        'header',
      ],
    ];

    it('has at least 40 rows', () => {
      expect(rejected.length).toBeGreaterThanOrEqual(40);
    });

    it.each(rejected)('%s → %s', (_label, change, field) => {
      expect(fieldsOf({ ...base, ...change })).toEqual([field]);
    });
  });

  it('reports every bad field at once, without echoing the input', () => {
    const result = validateCookieWrite({
      name: 'bad name',
      value: 'secret token',
      path: 'x',
      domain: 'evil.com',
      maxAge: -5,
      expires: new Date(NaN),
      sameSite: 'none',
      secure: false,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.field)).toEqual([
      'name',
      'value',
      'path',
      'domain',
      'maxAge',
      'expires',
      'sameSite',
    ]);
    for (const error of result.errors) {
      expect(error.message).not.toContain('secret');
      expect(error.message).not.toContain('evil');
    }
  });

  describe('accepts, producing the exact header', () => {
    const epoch = new Date(0);
    const accepted: [string, CookieWrite, string][] = [
      // §9 cookies as the policy writes them in production.
      [
        'accessToken (§9)',
        { name: 'accessToken', value: JWT, ...cookieOptionsFor('accessToken', { secure: true }) },
        `accessToken=${JWT}; Max-Age=8640000; Path=/; HttpOnly; Secure; SameSite=Lax`,
      ],
      [
        'refreshToken (§9)',
        {
          name: 'refreshToken',
          value: 'rt-Opaque_1',
          ...cookieOptionsFor('refreshToken', { secure: true }),
        },
        'refreshToken=rt-Opaque_1; Max-Age=8640000; Path=/; HttpOnly; Secure; SameSite=Lax',
      ],
      [
        'sessionId (§9)',
        { name: 'sessionId', value: 'sid123', ...cookieOptionsFor('sessionId', { secure: true }) },
        'sessionId=sid123; Max-Age=31536000; Path=/; HttpOnly; Secure; SameSite=Lax',
      ],
      [
        'sessionCookie (§3)',
        {
          name: 'sessionCookie',
          value: 'sc1',
          ...cookieOptionsFor('sessionCookie', { secure: true }),
        },
        'sessionCookie=sc1; Path=/; HttpOnly; Secure; SameSite=Lax',
      ],
      [
        'theme dark (§9)',
        { name: 'theme', value: 'dark', ...cookieOptionsFor('theme', { secure: true }) },
        'theme=dark; Max-Age=3155695200; Path=/; Secure; SameSite=Lax',
      ],
      [
        'theme light on localhost (§9 secure except on localhost)',
        { name: 'theme', value: 'light', ...cookieOptionsFor('theme', { secure: false }) },
        'theme=light; Max-Age=3155695200; Path=/; SameSite=Lax',
      ],
      [
        'accessToken on localhost',
        { name: 'accessToken', value: JWT, ...cookieOptionsFor('accessToken', { secure: false }) },
        `accessToken=${JWT}; Max-Age=8640000; Path=/; HttpOnly; SameSite=Lax`,
      ],
      [
        'QTM_SID',
        { name: 'QTM_SID', value: 'a1b2c3', ...cookieOptionsFor('QTM_SID', { secure: true }) },
        'QTM_SID=a1b2c3; Path=/; Secure; SameSite=Lax',
      ],
      [
        'QTM_UID',
        { name: 'QTM_UID', value: 'u-9', ...cookieOptionsFor('QTM_UID', { secure: true }) },
        'QTM_UID=u-9; Max-Age=31536000; Path=/; Secure; SameSite=Lax',
      ],
      [
        'a deletion',
        {
          name: 'accessToken',
          value: '',
          maxAge: 0,
          expires: epoch,
          path: '/',
          httpOnly: true,
          secure: true,
          sameSite: 'lax',
        },
        'accessToken=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
      ],
      ['name and value only', { name: 'a', value: 'b' }, 'a=b'],
      ['a DQUOTE-wrapped value', { name: 'q', value: '"abc"' }, 'q="abc"'],
      ['an empty DQUOTE-wrapped value', { name: 'q', value: '""' }, 'q=""'],
      [
        'every cookie-octet symbol',
        { name: 'sym', value: "!#$&'()*+-./:<=>?@[]^_`{|}~" },
        "sym=!#$&'()*+-./:<=>?@[]^_`{|}~",
      ],
      ['a percent sign, escaped so that it reads back', { name: 'p', value: '50%' }, 'p=50%25'],
      [
        'every token symbol in the name',
        { name: "!#$%&'*+-.^_`|~", value: '1' },
        "!#$%&'*+-.^_`|~=1",
      ],
      [
        'SameSite=None with Secure',
        { name: 'x', value: '1', secure: true, sameSite: 'none' },
        'x=1; Secure; SameSite=None',
      ],
      ['SameSite=Strict', { name: 'x', value: '1', sameSite: 'strict' }, 'x=1; SameSite=Strict'],
      [
        '__Host- with Secure and Path=/',
        { name: '__Host-sid', value: '1', path: '/', secure: true },
        '__Host-sid=1; Path=/; Secure',
      ],
      [
        '__Secure- with Secure',
        { name: '__Secure-sid', value: '1', secure: true },
        '__Secure-sid=1; Secure',
      ],
      [
        '__Host-Http- with Secure, HttpOnly and Path=/',
        { name: '__Host-Http-sid', value: '1', path: '/', secure: true, httpOnly: true },
        '__Host-Http-sid=1; Path=/; HttpOnly; Secure',
      ],
      [
        'the last valid Expires',
        { name: 'x', value: '1', expires: new Date('9999-12-31T23:59:59Z') },
        'x=1; Expires=Fri, 31 Dec 9999 23:59:59 GMT',
      ],
      [
        'Max-Age at the §9 bound and a deep path',
        { name: 'x', value: '1', maxAge: MAX_COOKIE_MAX_AGE, path: '/a/b-c/d.e' },
        'x=1; Max-Age=3155695200; Path=/a/b-c/d.e',
      ],
      [
        'a header of exactly 4096 bytes',
        { name: 'n', value: 'v'.repeat(4094) },
        `n=${'v'.repeat(4094)}`,
      ],
    ];

    it('has at least 15 rows', () => {
      expect(accepted.length).toBeGreaterThanOrEqual(15);
    });

    it.each(accepted)('%s', (_label, write, header) => {
      expect(validateCookieWrite(write)).toEqual({ ok: true, header });
    });
  });

  describe('properties', () => {
    const TOKEN_CHARS =
      "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".split('');
    const OCTETS = Array.from({ length: 0x7f - 0x21 }, (_, i) =>
      String.fromCharCode(0x21 + i),
    ).filter((c) => isCookieOctets(c));
    // Issue 15 item 8: the path's conservative set (RFC 3986 path characters, no ";").
    const PATH_CHARS = [
      ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
      ..."-._~!$&'()*+,=:@%/",
    ];

    const nameArb = fc.string({
      unit: fc.constantFrom(...TOKEN_CHARS),
      minLength: 1,
      maxLength: 30,
    });
    // Octets, with the %-sequences a decoding reader would act on mixed in.
    const octetsArb = fc
      .array(
        fc.oneof(fc.constantFrom(...OCTETS), fc.constantFrom('%41', '%25', '%2', '%E0%A4', '%%')),
        {
          maxLength: 60,
        },
      )
      .map((parts) => parts.join(''));
    const valueArb = fc.oneof(
      octetsArb,
      octetsArb.map((v) => `"${v}"`),
    );
    const pathArb = fc
      .string({ unit: fc.constantFrom(...PATH_CHARS), maxLength: 60 })
      .map((p) => `/${p}`);
    const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

    const goodWrite: fc.Arbitrary<CookieWrite> = fc.record({
      name: nameArb,
      value: valueArb,
      path: optional(pathArb),
      maxAge: optional(fc.integer({ min: 0, max: MAX_COOKIE_MAX_AGE })),
      expires: optional(
        fc.date({
          min: new Date(0),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        }),
      ),
      sameSite: optional(fc.constantFrom('lax' as const, 'strict' as const, 'none' as const)),
      secure: optional(fc.boolean()),
      httpOnly: optional(fc.boolean()),
    });

    // Strings aimed at the header: separators, CR/LF, attribute names, plus arbitrary text.
    const hostile = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom(
        '; Domain=evil.com',
        '\r\nSet-Cookie: admin=1',
        'a=b; c=d',
        '/; Path=/admin',
        '/x; evil=1',
        ', x=1',
        '\n',
        '\u0085',
        '%0d%0a',
      ),
      fc
        .tuple(octetsArb, fc.string({ unit: 'binary', maxLength: 3 }), octetsArb)
        .map((p) => p.join('')),
    );

    // How many attributes a write should produce: anything more was injected.
    const attributeCount = (w: CookieWrite) =>
      [w.maxAge, w.path, w.expires, w.sameSite].filter((x) => x !== undefined).length +
      [w.httpOnly, w.secure].filter((x) => x === true).length;

    it('(a) every accepted header reads back to the same name and value', () => {
      fc.assert(
        fc.property(goodWrite, (write) => {
          const result = validateCookieWrite(write);
          if (!result.ok) return; // only prefix and SameSite=None combinations are refused
          const pair = result.header.split('; ')[0] ?? '';
          expect(parseCookieHeader(pair)).toEqual({ [write.name]: write.value });
        }),
        { numRuns: 500 },
      );
    });

    it('most generated writes are accepted, so (a) is not vacuous', () => {
      const samples = fc.sample(goodWrite, { numRuns: 300, seed: 1 });
      const ok = samples.filter((w) => validateCookieWrite(w).ok).length;
      expect(ok).toBeGreaterThan(200);
    });

    it('(b) no accepted header carries CR, LF or a second pair injected through value, path or domain', () => {
      const attribute =
        /^(Max-Age=\d+|Path=\/[^;]*|Expires=[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|HttpOnly|Secure|SameSite=(Lax|Strict|None))$/;
      fc.assert(
        fc.property(
          goodWrite,
          hostile,
          hostile,
          optional(hostile),
          (write, value, path, domain) => {
            for (const candidate of [
              { ...write, value },
              { ...write, path },
              { ...write, domain },
              { ...write, value, path, domain },
            ]) {
              const result = validateCookieWrite(candidate);
              if (!result.ok) continue;
              expect(result.header).not.toMatch(/[\r\n]/);
              const [pair, ...attributes] = result.header.split(';').map((s) => s.trim());
              expect(pair).toBe(`${candidate.name}=${candidate.value.replaceAll('%', '%25')}`);
              for (const a of attributes) expect(a).toMatch(attribute);
              expect(attributes).toHaveLength(attributeCount(candidate));
            }
          },
        ),
        { numRuns: 500 },
      );
    });

    it('(c) any value with a character outside cookie-octet is rejected on value', () => {
      const badChar = fc
        .string({ unit: 'binary', minLength: 1, maxLength: 1 })
        .filter((c) => !isCookieOctets(c));
      fc.assert(
        fc.property(octetsArb, badChar, octetsArb, (before, bad, after) => {
          const value = before + bad + after;
          fc.pre(!isCookieValue(value)); // `"…"` around the whole value is the one allowed form
          expect(fieldsOf({ ...base, value })).toContain('value');
        }),
        { numRuns: 1000 },
      );
    });

    it('(d) SameSite=None without Secure is always rejected', () => {
      fc.assert(
        fc.property(goodWrite, fc.constantFrom(false, undefined), (write, secure) => {
          expect(fieldsOf({ ...write, sameSite: 'none', secure })).toContain('sameSite');
        }),
      );
    });

    it('never throws, whatever the input', () => {
      fc.assert(
        fc.property(
          fc.record({
            name: fc.anything(),
            value: fc.anything(),
            path: fc.anything(),
            domain: fc.anything(),
            maxAge: fc.anything(),
            expires: fc.oneof(fc.anything(), fc.date()),
            sameSite: fc.anything(),
            secure: fc.anything(),
            httpOnly: fc.anything(),
          }),
          (write) => {
            expect(() => validateCookieWrite(write as unknown as CookieWrite)).not.toThrow();
          },
        ),
        { numRuns: 2000 },
      );
    });
  });
});

describe(validatePolicyCookieWrite.name, () => {
  it('writes a policy cookie with its §9 attributes', () => {
    expect(validatePolicyCookieWrite('theme', 'dark', { secure: true })).toEqual({
      ok: true,
      header: 'theme=dark; Max-Age=3155695200; Path=/; Secure; SameSite=Lax',
    });
  });

  it.each([
    ['theme', 'blue'],
    ['theme', 'Dark'],
    ['QTM_SID', 'a/b'],
  ] as const)('refuses %s = %j on value', (name, value) => {
    const result = validatePolicyCookieWrite(name, value, { secure: true });
    expect(result.ok ? [] : result.errors.map((e) => e.field)).toEqual(['value']);
  });

  it.each(['toString', '__proto__', 'session'])(
    'refuses %j, a cookie outside the policy table',
    (name) => {
      const result = validatePolicyCookieWrite(name as never, 'x', { secure: true });
      expect(result.ok ? [] : result.errors.map((e) => e.field)).toEqual(['name']);
    },
  );

  it('reports grammar and policy problems together', () => {
    const result = validatePolicyCookieWrite('theme', 'a b', { secure: true });
    expect(result.ok ? [] : result.errors.map((e) => e.field)).toEqual(['value', 'value']);
  });
});
