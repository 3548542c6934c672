import { IdpAccount, accountClaims } from './oidc-configuration';

const account: IdpAccount = {
  id: 'u1',
  collectorsId: 100001,
  navisionId: 'C00100001',
  email: 'a@example.com',
  emailVerified: true,
  givenName: 'Pat',
  familyName: 'Pending',
  locale: 'en-US',
  isMigrating: false,
  mfaSetupRequired: true,
  surveyPending: true,
};

describe('the customer claims and what the collector put off (issue 14 item 6)', () => {
  it('nothing put off: the flags as the account has them, no promptMfaSignin', () => {
    const claims = accountClaims(account);
    expect(claims).toMatchObject({ setupMfa: true, showSurvey: true });
    expect(claims).not.toHaveProperty('promptMfaSignin');
  });

  it('"Not now": §3 promptMfaSignin=false, and the set-up is still required', () => {
    expect(accountClaims(account, ['setupMfa'])).toMatchObject({
      setupMfa: true,
      promptMfaSignin: false,
      showSurvey: true,
    });
  });

  it('a skipped survey is not to be shown again in that sign-in', () => {
    expect(accountClaims(account, ['survey'])).toMatchObject({ showSurvey: false });
  });

  it('no promptMfaSignin once no set-up is required', () => {
    expect(accountClaims({ ...account, mfaSetupRequired: false }, ['setupMfa'])).not.toHaveProperty(
      'promptMfaSignin',
    );
  });
});
