import { accountStatus, pendingStepOf, promptMfaSigninOf } from './account-status';
import type { SessionRecord } from './sessions';

/** An ID token as the session keeps it (validated at the landing; only its claims are read here). */
function idToken(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'RS256' })}.${part(claims)}.sig`;
}

function session(
  claims: Record<string, unknown>,
  extra: Partial<SessionRecord> = {},
): SessionRecord {
  return {
    brand: 'collectors',
    sub: 'u1',
    createdAt: 0,
    lastUsedAt: 0,
    tokens: { accessToken: 'a', idToken: idToken(claims), expiresAt: 0 },
    ...extra,
  };
}

describe('the account state of a session (§3) and its pending step (§2)', () => {
  it('reads the flags as the IdP states them: nothing is hidden for a session (issue 14 item 10)', () => {
    expect(
      accountStatus(session({ isMigrating: true, setupMfa: true, showSurvey: true })),
    ).toMatchObject({ isSignedIn: true, isMigrating: true, setupMfa: true, showSurvey: true });
  });

  it.each([
    ['nothing pending', {}, {}, 'collectors', undefined],
    ['migrating', { isMigrating: true, setupMfa: true }, {}, 'collectors', 'migrating'],
    ['a second factor', { setupMfa: true }, {}, 'collectors', 'setup-mfa'],
    ['a second factor put off', { setupMfa: true }, { promptMfaSignin: false }, 'psa', undefined],
    ['a second factor, Japan brand', { setupMfa: true }, {}, 'psajapan', undefined],
    [
      'put off, then a survey',
      { setupMfa: true, showSurvey: true },
      { promptMfaSignin: false },
      'psa',
      'survey',
    ],
    ['a survey, a brand it is not for', { showSurvey: true }, {}, 'pcgs', undefined],
  ] as const)('%s', (_case, claims, extra, brand, expected) => {
    expect(pendingStepOf(session(claims, extra), brand)).toBe(expected);
  });

  it('reads the claims of the token set it is given: a refresh that brings new claims changes the state', () => {
    const before = session({ setupMfa: true });
    expect(accountStatus(before)).toMatchObject({ setupMfa: true });
    // Touched: the same token set in a new record; the claims are those already read.
    expect(accountStatus({ ...before, lastUsedAt: 1 })).toMatchObject({ setupMfa: true });
    // Refreshed: a new token set whose ID token no longer asks for the set-up.
    const refreshed = { ...before, tokens: { ...before.tokens, idToken: idToken({}) } };
    expect(accountStatus(refreshed)).toMatchObject({ setupMfa: false });
    expect(accountStatus(before)).toMatchObject({ setupMfa: true });
  });

  it('an ID token that cannot be read, or none, states no flags and no id', () => {
    const unreadable = session(
      {},
      { tokens: { accessToken: 'a', idToken: 'not.a-jwt', expiresAt: 0 } },
    );
    const none = session({}, { tokens: { accessToken: 'a', expiresAt: 0 } });
    for (const record of [unreadable, unreadable, none]) {
      expect(accountStatus(record)).toEqual({
        isSignedIn: true,
        isMigrating: false,
        setupMfa: false,
        showSurvey: false,
      });
    }
  });

  it("promptMfaSignin is 'false' only when the session holds the collector's \"Not now\" (issue 14 item 6)", () => {
    expect(promptMfaSigninOf(session({}, { promptMfaSignin: false }))).toBe('false');
    expect(promptMfaSigninOf(session({}))).toBeUndefined();
    expect(promptMfaSigninOf(undefined)).toBeUndefined();
  });
});
