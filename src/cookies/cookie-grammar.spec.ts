import { isCookieNameToken, isCookieOctets, isCookieValue } from './cookie-grammar';

// Independent oracles, written from the ABNF of RFC 6265 §4.1.1, so that the property tests of the
// other specs can use the grammar functions as their reference.
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);
const COOKIE_OCTET_CODES = new Set([
  0x21,
  ...range(0x23, 0x2b),
  ...range(0x2d, 0x3a),
  ...range(0x3c, 0x5b),
  ...range(0x5d, 0x7e),
]);
const SEPARATORS = new Set('()<>@,;:\\"/[]?={} \t');
const isTokenChar = (code: number) =>
  code > 0x20 && code < 0x7f && !SEPARATORS.has(String.fromCharCode(code));

// Every Latin-1 code point, the start of the BMP beyond it, and a few that matter elsewhere.
const CODES = [...range(0, 0x3ff), 0x2028, 0x2029, 0xfeff, 0xff1b, 0x1f36a];

describe('cookie grammar (RFC 6265 §4.1.1)', () => {
  it.each(CODES.map((code) => [code.toString(16), code]))(
    'U+%s as a cookie-octet',
    (_hex, code) => {
      expect(isCookieOctets(String.fromCodePoint(code))).toBe(COOKIE_OCTET_CODES.has(code));
    },
  );

  it.each(CODES.map((code) => [code.toString(16), code]))(
    'U+%s as a token character',
    (_hex, code) => {
      expect(isCookieNameToken(String.fromCodePoint(code))).toBe(isTokenChar(code));
    },
  );

  it.each([
    ['', true],
    ['abc', true],
    ['"abc"', true],
    ['""', true],
    ['"', false],
    ['"abc', false],
    ['abc"', false],
    ['"a"b"', false],
    ['"a b"', false],
    ['a b', false],
  ])('cookie-value %j → %s', (value, expected) => {
    expect(isCookieValue(value)).toBe(expected);
  });

  it('a name is never empty; a run of octets may be', () => {
    expect(isCookieNameToken('')).toBe(false);
    expect(isCookieOctets('')).toBe(true);
  });
});
