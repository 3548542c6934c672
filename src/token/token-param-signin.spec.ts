import type { AccessTokenClaims } from './token-verifier';
import { offeredAccount, spelledOut } from './token-param-signin';

/**
 * docs/security.md, a look-alike account: the confirmation page names the account from the token
 * alone, whole, and spells out a login whose characters a reader cannot tell from others.
 */
describe(spelledOut.name, () => {
  it.each([
    ['a plain address', 'collector@example.com', 'collector@example.com'],
    ['a look-alike, but plain', 'cx@example.com', 'cx@example.com'],
    ['a Cyrillic с for a Latin c', 'сollector@example.com', '[U+0441]ollector@example.com'],
    ['a zero-width space', 'collector\u200b@example.com', 'collector[U+200B]@example.com'],
    ['a space', 'collector @example.com', 'collector[U+0020]@example.com'],
    ['a letter outside the BMP', 'c𝐨llector@example.com', 'c[U+1D428]llector@example.com'],
    ['an accented letter', 'josé@example.com', 'jos[U+00E9]@example.com'],
  ])('%s: %s', (_name, login, expected) => {
    expect(spelledOut(login)).toBe(expected);
  });
});

describe(offeredAccount.name, () => {
  const claims = (extra: Partial<AccessTokenClaims>): AccessTokenClaims => ({
    cid: 'client',
    exp: 0,
    ...extra,
  });
  it.each([
    [
      'the whole login and the collector number',
      claims({ sub: 'collector@example.com', CollectorsId: 100001 }),
      { login: 'collector@example.com', collectorsId: 100001 },
    ],
    [
      'no collector number when the token has none',
      claims({ sub: 'cx@example.com' }),
      { login: 'cx@example.com' },
    ],
    [
      'a long login, never cut',
      claims({ sub: `${'a'.repeat(400)}@example.com` }),
      { login: `${'a'.repeat(400)}@example.com` },
    ],
    [
      'a login that only looks like another, spelled out',
      claims({ sub: 'сollector@example.com', CollectorsId: 100077 }),
      {
        login: 'сollector@example.com',
        spelledOut: '[U+0441]ollector@example.com',
        collectorsId: 100077,
      },
    ],
  ])('%s', (_name, input, expected) => {
    expect(offeredAccount(input)).toEqual(expected);
  });
});
