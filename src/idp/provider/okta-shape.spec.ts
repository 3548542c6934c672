import { oktaAccessTokenSubject } from './okta-shape';

describe(oktaAccessTokenSubject.name, () => {
  const account = { id: 'u-100001', email: 'collector@example.com' };
  // What oidc-provider signs before the customizer: the account id as `sub`.
  const signed = {
    jti: 'j1',
    sub: 'u-100001',
    iat: 1,
    exp: 2,
    iss: 'http://localhost:3333/oauth2/default',
    aud: 'api://default',
    cid: 'collectors-signon',
    scp: ['openid', 'customer'],
    CollectorsId: 100001,
  };

  it('Okta\'s "Tokens and claims": sub is the login, uid the user id', () => {
    expect(oktaAccessTokenSubject(signed, account)).toEqual({
      ...signed,
      sub: 'collector@example.com',
      uid: 'u-100001',
    });
  });

  it('takes the user id from the account, never from a sub or uid already there', () => {
    expect(
      oktaAccessTokenSubject({ ...signed, sub: 'someone-else', uid: 'forged' }, account),
    ).toMatchObject({ sub: 'collector@example.com', uid: 'u-100001' });
  });

  it('leaves the payload it was given as it was', () => {
    const before = { ...signed };
    oktaAccessTokenSubject(signed, account);
    expect(signed).toEqual(before);
  });
});
