import fc from 'fast-check';
import {
  MAX_COOKIES,
  MAX_COOKIE_HEADER_BYTES,
  clearingHeaders,
  cookieValues,
  parseCookieHeader,
  serializeClearing,
  tokenCookieClearingHeaders,
} from './cookie-header';
import { cookieOptionsFor } from './cookie-policy';

describe(parseCookieHeader.name, () => {
  const table: [string, string | undefined, Record<string, string>][] = [
    ['no header', undefined, {}],
    ['an empty header', '', {}],
    ['one pair', 'theme=dark', { theme: 'dark' }],
    [
      'several pairs',
      'theme=dark; sessionId=abc; QTM_SID=1',
      { theme: 'dark', sessionId: 'abc', QTM_SID: '1' },
    ],
    ['separators without spaces', 'a=1;b=2', { a: '1', b: '2' }],
    ['the first occurrence wins', 'a=first; a=second', { a: 'first' }],
    ['spaces and tabs around names and values', ' a = 1 ;\tb\t=\t2\t', { a: '1', b: '2' }],
    ['an empty value', 'a=; b=2', { a: '', b: '2' }],
    ['a value holding "="', 'a=b=c', { a: 'b=c' }],
    ['a pair without "=" is ignored', 'flag; a=1', { a: '1' }],
    ['an empty name is ignored', '=x; a=1', { a: '1' }],
    ['a name that is not a token is ignored', 'bad name=1; a(b)=2; ok=3', { ok: '3' }],
    ['empty pairs are ignored', ';; a=1 ;;', { a: '1' }],
    ['valid %-encoding is decoded', 'a=%7B%22x%22%3A1%7D; b=%41', { a: '{"x":1}', b: 'A' }],
    ['invalid %-encoding is kept raw', 'a=%E0%A4%A; b=100%', { a: '%E0%A4%A', b: '100%' }],
    ['quotes are kept (RFC 6265 §5.2)', 'a="quoted"', { a: '"quoted"' }],
    [
      'a JSON legacy value',
      'accessToken={"accessToken":"x"}',
      { accessToken: '{"accessToken":"x"}' },
    ],
    ['names are case-sensitive', 'Theme=light; theme=dark', { Theme: 'light', theme: 'dark' }],
  ];
  it.each(table)('%s', (_label, header, expected) => {
    expect({ ...parseCookieHeader(header) }).toEqual(expected);
  });

  it('treats __proto__ and constructor as plain names', () => {
    const cookies = parseCookieHeader('__proto__=x; constructor=y; toString=z');
    expect(Object.getPrototypeOf(cookies)).toBeNull();
    expect(Object.keys(cookies)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(cookies['__proto__']).toBe('x');
  });

  it(`keeps at most ${MAX_COOKIES} cookies`, () => {
    const header = Array.from({ length: 150 }, (_, i) => `c${i}=${i}`).join('; ');
    const cookies = parseCookieHeader(header);
    expect(Object.keys(cookies)).toHaveLength(MAX_COOKIES);
    expect(cookies['c99']).toBe('99');
    expect(cookies['c100']).toBeUndefined();
  });

  it(`reads only pairs wholly within the first ${MAX_COOKIE_HEADER_BYTES} bytes`, () => {
    const filler = `pad=${'x'.repeat(MAX_COOKIE_HEADER_BYTES - 20)}`;
    const cookies = parseCookieHeader(`a=1; ${filler}; cut=abcdefghijklmnopqrstuvwxyz; late=1`);
    expect(cookies['a']).toBe('1');
    expect(cookies['pad']).toHaveLength(MAX_COOKIE_HEADER_BYTES - 20);
    // `cut` straddles the limit: a truncated value would be a wrong value, so it is dropped.
    expect(cookies['cut']).toBeUndefined();
    expect(cookies['late']).toBeUndefined();
  });

  it('keeps a pair that ends exactly at the limit', () => {
    const head = 'a=1; b=';
    const header = head + 'y'.repeat(MAX_COOKIE_HEADER_BYTES - head.length) + '; c=3';
    const cookies = parseCookieHeader(header);
    expect(cookies['b']).toHaveLength(MAX_COOKIE_HEADER_BYTES - head.length);
    expect(cookies['c']).toBeUndefined();
  });

  it('never throws and stays within its bounds for any input', () => {
    const pieces = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.constantFrom(';', '=', '%', '%E0', '; a=1', '__proto__=1', ' '),
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const cookies = parseCookieHeader(parts.join(''));
        expect(Object.keys(cookies).length).toBeLessThanOrEqual(MAX_COOKIES);
        for (const value of Object.values(cookies)) expect(typeof value).toBe('string');
      }),
      { numRuns: 500 },
    );
  });

  it('reads a huge header in bounded time', () => {
    const header = `a=${' '.repeat(1_000_000)}b; ${'x=1;'.repeat(500_000)}`;
    const started = Date.now();
    parseCookieHeader(header);
    expect(Date.now() - started).toBeLessThan(200);
  });
});

describe(serializeClearing.name, () => {
  it('clears with Max-Age=0, Expires in 1970 and the attributes of the policy', () => {
    expect(
      serializeClearing('accessToken', cookieOptionsFor('accessToken', { secure: true })),
    ).toBe(
      'accessToken=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
    );
    expect(serializeClearing('theme', cookieOptionsFor('theme', { secure: false }))).toBe(
      'theme=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax',
    );
  });

  it('throws on a name that could never have been written', () => {
    expect(() => serializeClearing('a;b', cookieOptionsFor('theme', { secure: true }))).toThrow(
      'Cannot clear cookie: invalid name',
    );
  });
});

describe(cookieValues.name, () => {
  const table: [string, string | undefined, string[]][] = [
    ['no header', undefined, []],
    ['none of that name', 'theme=dark; QTM_SID=1', []],
    ['one', 'theme=dark; sessionId=abc', ['abc']],
    // docs/security.md, a shadowed session cookie: a sibling's cookie with a longer path is sent
    // first; every one counts.
    [
      'several, in the order sent',
      'sessionId=planted; theme=dark; sessionId=ours',
      ['planted', 'ours'],
    ],
    ['the same value twice', 'sessionId=a; sessionId=a', ['a', 'a']],
    ['decoded as parseCookieHeader decodes', 'sessionId=%41; sessionId=%E0', ['A', '%E0']],
    ['names are case-sensitive', 'SessionId=x; sessionId=y', ['y']],
    ['an empty value', 'sessionId=; sessionId=b', ['', 'b']],
  ];
  it.each(table)('%s', (_label, header, expected) => {
    expect(cookieValues(header, 'sessionId')).toEqual(expected);
  });

  it(`keeps at most ${MAX_COOKIES} values, and only within the first ${MAX_COOKIE_HEADER_BYTES} bytes`, () => {
    expect(cookieValues('a=1; '.repeat(150), 'a')).toHaveLength(MAX_COOKIES);
    const filler = `pad=${'x'.repeat(MAX_COOKIE_HEADER_BYTES)}`;
    expect(cookieValues(`a=1; ${filler}; a=2`, 'a')).toEqual(['1']);
  });
});

describe(clearingHeaders.name, () => {
  it('clears a prefixed cookie under both names where it was plain before', () => {
    expect(clearingHeaders('sessionId', { secure: true })).toEqual([
      '__Host-sessionId=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
      'sessionId=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
    ]);
    expect(clearingHeaders('sessionId', { secure: false })).toEqual([
      'sessionId=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
    ]);
    // The bindings were never plain on https: only the prefixed name.
    expect(clearingHeaders('sessionBinding', { secure: true })).toEqual([
      '__Host-sessionBinding=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
    ]);
  });
});

describe(tokenCookieClearingHeaders.name, () => {
  it('§4 Sign-out step 2: clears the three token cookies (sessionId on https under both names)', () => {
    expect(tokenCookieClearingHeaders({ secure: true })).toEqual([
      'accessToken=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
      'refreshToken=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
      '__Host-sessionId=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
      'sessionId=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
    ]);
  });
});
