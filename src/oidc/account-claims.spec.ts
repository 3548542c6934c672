import {
  accountClaimsFrom,
  collectorsIdOf,
  flagOf,
  statedClaimsOf,
  tokensStateEveryClaim,
} from './account-claims';

describe('§3 CollectorsId as an IdP states it (issue 31 item 1)', () => {
  it.each([
    ['a number', 4242, 4242],
    ['a numeric string (Okta’s expression language)', '4242', 4242],
    ['the largest safe integer', Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    ['zero', 0, undefined],
    ['a negative number', -4, undefined],
    ['a fraction', 1.5, undefined],
    ['a string with letters', '12a', undefined],
    ['an empty string', '', undefined],
    ['a string with a sign', '+12', undefined],
    ['digits past 2^53', '9007199254740993', undefined],
    ['a boolean', true, undefined],
    ['nothing', undefined, undefined],
  ])('%s → %p', (_name, value, expected) => {
    expect(collectorsIdOf(value)).toBe(expected);
  });
});

describe('a §3 flag', () => {
  it.each([
    [true, true],
    [false, false],
    ['true', true],
    ['false', false],
    ['yes', undefined],
    [1, undefined],
    [null, undefined],
  ])('%p → %p', (value, expected) => {
    expect(flagOf(value)).toBe(expected);
  });
});

describe('which source wins: ID token, then access token, then userinfo', () => {
  const none = { isMigrating: false, setupMfa: false, showSurvey: false };
  it.each([
    ['nothing anywhere', {}, none],
    [
      'the ID token alone',
      { idToken: { CollectorsId: 1, setupMfa: true } },
      { ...none, collectorsId: 1, setupMfa: true },
    ],
    [
      'the access token alone',
      { accessToken: { CollectorsId: '2', isMigrating: true } },
      { ...none, collectorsId: 2, isMigrating: true },
    ],
    [
      'userinfo alone',
      { userinfo: { CollectorsId: 3, showSurvey: true } },
      { ...none, collectorsId: 3, showSurvey: true },
    ],
    [
      'the ID token over the access token over userinfo',
      {
        idToken: { CollectorsId: 1 },
        accessToken: { CollectorsId: 2 },
        userinfo: { CollectorsId: 3 },
      },
      { ...none, collectorsId: 1 },
    ],
    [
      'an ID token’s false over userinfo’s true',
      { idToken: { setupMfa: false }, userinfo: { setupMfa: true } },
      none,
    ],
    [
      'a value of the wrong type states nothing, so a later source may',
      {
        idToken: { CollectorsId: 'x', setupMfa: 'maybe' },
        userinfo: { CollectorsId: 3, setupMfa: true },
      },
      { ...none, collectorsId: 3, setupMfa: true },
    ],
    [
      'promptMfaSignin false, kept',
      { idToken: { promptMfaSignin: false } },
      { ...none, promptMfaSignin: false },
    ],
  ])('%s', (_name, sources, expected) => {
    expect(accountClaimsFrom(sources)).toEqual(expected);
  });
});

describe('what a session keeps of userinfo', () => {
  it('only the §3 claims, no name or email', () => {
    expect(
      statedClaimsOf({
        sub: 'u',
        email: 'a@b.c',
        name: 'A',
        CollectorsId: '7',
        isMigrating: true,
        extra: {},
      }),
    ).toEqual({ CollectorsId: '7', isMigrating: true });
  });

  it('whether the tokens state every claim (then userinfo is not read again at a refresh)', () => {
    const all = { CollectorsId: 1, isMigrating: false, setupMfa: false, showSurvey: false };
    expect(tokensStateEveryClaim({ idToken: all })).toBe(true);
    expect(
      tokensStateEveryClaim({
        idToken: { CollectorsId: 1 },
        accessToken: { isMigrating: false, setupMfa: false, showSurvey: false },
      }),
    ).toBe(true);
    expect(tokensStateEveryClaim({ accessToken: { CollectorsId: 1 } })).toBe(false);
  });
});
