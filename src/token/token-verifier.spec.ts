import type { OidcClient } from '../oidc/oidc-client';
import { testConfig } from '../../test/support/test-config';
import {
  MAX_TOKEN_LENGTH,
  TOKEN_PROBLEM_MESSAGES,
  TokenProblem,
  TokenVerifier,
} from './token-verifier';

describe('TOKEN_PROBLEM_MESSAGES', () => {
  // §8 "A missing token gives the message 'access token must be specified'"; the rest are ours.
  const table: [TokenProblem, string][] = [
    ['missing', 'access token must be specified'],
    ['too-large', 'access token is too large'],
    ['malformed', 'access token is not a compact JWS'],
    ['expired', 'access token has expired'],
    ['invalid', 'access token is invalid'],
  ];
  it.each(table)('%s says "%s"', (problem, message) => {
    expect(TOKEN_PROBLEM_MESSAGES[problem]).toBe(message);
  });

  it('has exactly one message per problem, each distinct', () => {
    expect(Object.keys(TOKEN_PROBLEM_MESSAGES).sort()).toEqual(table.map(([p]) => p).sort());
    expect(new Set(Object.values(TOKEN_PROBLEM_MESSAGES)).size).toBe(table.length);
  });
});

describe(TokenVerifier.name, () => {
  // These are refused before any key is fetched: an IdP that is touched fails the test.
  const untouchedIdp = {
    jwksUri: () => Promise.reject(new Error('the IdP must not be asked')),
  } as unknown as OidcClient;
  const verifier = new TokenVerifier(testConfig(), untouchedIdp);

  it.each([
    ['no token', undefined, 'missing'],
    ['an empty token', '', 'missing'],
    ['a repeated t', ['a', 'b'], 'missing'],
    ['a number', 42, 'missing'],
    ['a token over the size limit', 'x'.repeat(MAX_TOKEN_LENGTH + 1), 'too-large'],
    // Issue 15 item 1: three base64url segments and nothing else, checked before parsing.
    ['a Bearer prefix', 'Bearer aaa.bbb.ccc', 'malformed'],
    ['leading whitespace', ' aaa.bbb.ccc', 'malformed'],
    ['a trailing CR LF', 'aaa.bbb.ccc\r\n', 'malformed'],
    ['a NUL', 'aaa.bbb.ccc\u0000', 'malformed'],
    ['two tokens with a comma', 'aaa.bbb.ccc,ddd.eee.fff', 'malformed'],
    ['an empty signature (alg none)', 'aaa.bbb.', 'malformed'],
    ['two segments', 'aaa.bbb', 'malformed'],
    ['four segments', 'aaa.bbb.ccc.ddd', 'malformed'],
    ['standard base64 characters', 'aa+a.bb/b.cc=c', 'malformed'],
    [
      'a size just over the cap that is also malformed',
      ' '.repeat(MAX_TOKEN_LENGTH + 1),
      'too-large',
    ],
  ] as const)('refuses %s as %s', async (_name, token, reason) => {
    await expect(verifier.verify(token)).resolves.toEqual({ ok: false, reason });
  });
});
