import fc from 'fast-check';
import { isCookieOctets } from './cookie-grammar';
import { TokenCookieName } from './cookie-policy';
import {
  LegacyUnwrapResult,
  MAX_LEGACY_COOKIE_LENGTH,
  unwrapLegacyTokenCookie,
} from './legacy-token-cookie';

const JWT =
  'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJDb2xsZWN0b3JzSWQiOjEyMywic3ViIjoiYUBiLmMifQ.c2lnbmF0dXJl';
const REFRESH = 'Xr7_fQ-9zLm2kP4s';
const enc = encodeURIComponent;

const plain = (value: string): LegacyUnwrapResult => ({ value, wasWrapped: false });
const unwrapped = (value: string): LegacyUnwrapResult => ({ value, wasWrapped: true });
const unreadableWrapped: LegacyUnwrapResult = { value: undefined, wasWrapped: true };
const unreadablePlain: LegacyUnwrapResult = { value: undefined, wasWrapped: false };

describe(unwrapLegacyTokenCookie.name, () => {
  // §4 Token handling: "Legacy JSON-wrapped cookies are unwrapped and rewritten"; §8 "An unreadable
  // token gives empty tokens".
  const table: [string, string, LegacyUnwrapResult][] = [
    // Already plain: returned unchanged, nothing to rewrite.
    ['a plain JWT', JWT, plain(JWT)],
    ['a plain opaque refresh token', REFRESH, plain(REFRESH)],
    ['a plain value that happens to be a JSON number', '12345', plain('12345')],
    ['a plain value with an undecodable %', 'abc%E0%A4%A', plain('abc%E0%A4%A')],
    // Wrapped forms: the token comes out, the caller rewrites the cookie plain.
    ['{"accessToken": …}', `{"accessToken":"${JWT}"}`, unwrapped(JWT)],
    ['{"token": …}', `{"token":"${JWT}"}`, unwrapped(JWT)],
    ['{"value": …}', `{"value":"${JWT}"}`, unwrapped(JWT)],
    ['{"refreshToken": …}', `{"refreshToken":"${REFRESH}"}`, unwrapped(REFRESH)],
    ['{"access_token": …}', `{"access_token":"${JWT}"}`, unwrapped(JWT)],
    ['a JSON string literal', `"${JWT}"`, unwrapped(JWT)],
    ['JSON with whitespace', `{ "accessToken" : "${JWT}" }`, unwrapped(JWT)],
    ['extra non-token keys', `{"accessToken":"${JWT}","expiresAt":123}`, unwrapped(JWT)],
    ['the same token under two keys', `{"accessToken":"${JWT}","token":"${JWT}"}`, unwrapped(JWT)],
    ['URI-encoded object', enc(`{"accessToken":"${JWT}"}`), unwrapped(JWT)],
    ['URI-encoded string literal', enc(`"${JWT}"`), unwrapped(JWT)],
    ['URI-encoded twice', enc(enc(`{"token":"${JWT}"}`)), unwrapped(JWT)],
    ["Express's j: object form", `j:{"accessToken":"${JWT}"}`, unwrapped(JWT)],
    ["Express's j: form, URI-encoded", enc(`j:{"accessToken":"${JWT}"}`), unwrapped(JWT)],
    ['stringified twice', JSON.stringify(JSON.stringify({ accessToken: JWT })), unwrapped(JWT)],
    // Wrapped but unreadable: the caller clears the cookie.
    ['broken JSON', `{"accessToken":"${JWT}"`, unreadableWrapped],
    ['broken URI-encoded JSON', enc(`{"accessToken":"${JWT}"`), unreadableWrapped],
    ['JSON without a token key', `{"foo":"${JWT}"}`, unreadableWrapped],
    ['a non-string token', '{"accessToken":12345}', unreadableWrapped],
    ['a nested object token', `{"accessToken":{"value":"${JWT}"}}`, unreadableWrapped],
    ['null token', '{"accessToken":null}', unreadableWrapped],
    ['an array', `["${JWT}"]`, unreadableWrapped],
    ['an empty token', '{"accessToken":""}', unreadableWrapped],
    ['an empty string literal', '""', unreadableWrapped],
    ['a token with a space', '{"accessToken":"a b"}', unreadableWrapped],
    ['a token with CRLF', '{"accessToken":"a\\r\\nSet-Cookie: x=1"}', unreadableWrapped],
    ['a token with a semicolon', '"a;b"', unreadableWrapped],
    ['a non-ASCII token', '{"accessToken":"t\\u00e9"}', unreadableWrapped],
    [
      'two different tokens and no cookie name',
      `{"accessToken":"${JWT}","refreshToken":"${REFRESH}"}`,
      unreadableWrapped,
    ],
    ['a key only on the prototype', `{"__proto__":{"accessToken":"${JWT}"}}`, unreadableWrapped],
    [
      'stringified four times',
      JSON.stringify(JSON.stringify(JSON.stringify(JSON.stringify({ token: JWT })))),
      unreadableWrapped,
    ],
    // Unreadable plain values.
    ['empty', '', unreadablePlain],
    ['a plain value with a space', 'a b', unreadablePlain],
    ['a plain value with a comma', 'a,b', unreadablePlain],
    ['a plain non-ASCII value', 'tökén', unreadablePlain],
    ['too long', 'a'.repeat(MAX_LEGACY_COOKIE_LENGTH + 1), unreadablePlain],
    [
      'too long even when wrapped',
      `{"accessToken":"${'a'.repeat(MAX_LEGACY_COOKIE_LENGTH)}"}`,
      unreadablePlain,
    ],
  ];

  it('has at least 12 rows', () => {
    expect(table.length).toBeGreaterThanOrEqual(12);
  });

  it.each(table)('%s', (_label, raw, expected) => {
    expect(unwrapLegacyTokenCookie(raw)).toEqual(expected);
  });

  it('accepts the longest value allowed', () => {
    const longest = 'a'.repeat(MAX_LEGACY_COOKIE_LENGTH);
    expect(unwrapLegacyTokenCookie(longest)).toEqual(plain(longest));
  });

  describe('with the cookie name, picks that cookie’s token from an object holding several', () => {
    const both = `{"accessToken":"${JWT}","refreshToken":"${REFRESH}"}`;
    const rows: [TokenCookieName, string, LegacyUnwrapResult][] = [
      ['accessToken', both, unwrapped(JWT)],
      ['refreshToken', both, unwrapped(REFRESH)],
      ['sessionId', both, unreadableWrapped],
      ['refreshToken', `{"accessToken":"${JWT}"}`, unreadableWrapped],
      ['refreshToken', `{"token":"${REFRESH}"}`, unwrapped(REFRESH)],
      ['sessionId', '{"sessionId":"s-1"}', unwrapped('s-1')],
      ['accessToken', JWT, plain(JWT)],
    ];
    it.each(rows)('%s from %s', (name, raw, expected) => {
      expect(unwrapLegacyTokenCookie(raw, name)).toEqual(expected);
    });
  });

  describe('properties', () => {
    const isSafe = (result: LegacyUnwrapResult) =>
      result.value === undefined || (result.value !== '' && isCookieOctets(result.value));

    it('(e) never throws on arbitrary strings, and a returned value is cookie-octets', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary' }), (raw) => {
          expect(isSafe(unwrapLegacyTokenCookie(raw))).toBe(true);
        }),
        { numRuns: 1000 },
      );
    });

    it('(e) never throws on arbitrary JSON, raw or URI-encoded, and a returned value is cookie-octets', () => {
      fc.assert(
        fc.property(
          fc.json(),
          fc.boolean(),
          fc.constantFrom(undefined, ...(['accessToken', 'refreshToken', 'sessionId'] as const)),
          (json, encode, name) => {
            expect(isSafe(unwrapLegacyTokenCookie(encode ? enc(json) : json, name))).toBe(true);
          },
        ),
        { numRuns: 1000 },
      );
    });

    it('unwraps any cookie-octet token from every legacy form', () => {
      const octets = fc
        .string({
          unit: fc.constantFrom(...'ABCxyz0189-_.~!$&+/=:@'.split('')),
          minLength: 1,
          maxLength: 80,
        })
        .filter((t) => !t.startsWith('j:'));
      const wrap = fc.constantFrom(
        (t: string) => JSON.stringify({ accessToken: t }),
        (t: string) => JSON.stringify({ token: t }),
        (t: string) => JSON.stringify({ value: t }),
        (t: string) => JSON.stringify(t),
        (t: string) => enc(JSON.stringify({ accessToken: t })),
        (t: string) => `j:${JSON.stringify({ accessToken: t })}`,
      );
      fc.assert(
        fc.property(octets, wrap, (token, wrapper) => {
          expect(unwrapLegacyTokenCookie(wrapper(token))).toEqual(unwrapped(token));
        }),
      );
    });

    it('returns a plain cookie-octet value unchanged', () => {
      const plainToken = fc.string({
        unit: fc.constantFrom(...'ABCxyz0189-_.'.split('')),
        minLength: 1,
        maxLength: 200,
      });
      fc.assert(
        fc.property(plainToken, (token) => {
          expect(unwrapLegacyTokenCookie(token)).toEqual(plain(token));
        }),
      );
    });

    it('never throws on a non-string', () => {
      fc.assert(
        fc.property(
          fc.anything().filter((x) => typeof x !== 'string'),
          (raw) => {
            expect(unwrapLegacyTokenCookie(raw as string)).toEqual(unreadablePlain);
          },
        ),
      );
    });
  });
});
