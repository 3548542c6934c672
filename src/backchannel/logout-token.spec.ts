import { BACKCHANNEL_LOGOUT_EVENT, logoutTokenClaims, logoutTokenProblem } from './logout-token';

const NOW = 1_800_000_000;
const good = logoutTokenClaims(
  'https://signin.example',
  'brand-psa',
  { sub: 'u1', sid: 's1' },
  NOW,
  'j1',
);

describe('logout tokens (OIDC Back-Channel Logout 1.0 §2.4, §2.6)', () => {
  it('carries iss, aud, iat, exp, jti, sub, sid and the event', () => {
    expect(good).toEqual({
      iss: 'https://signin.example',
      aud: 'brand-psa',
      iat: NOW,
      exp: NOW + 120,
      jti: 'j1',
      sub: 'u1',
      sid: 's1',
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
    });
    expect(logoutTokenProblem(good, NOW)).toBeUndefined();
  });

  it('leaves sid out when the session had none', () => {
    expect(logoutTokenClaims('i', 'a', { sub: 'u' }, NOW)).not.toHaveProperty('sid');
  });

  it.each([
    ['no events claim', { ...good, events: undefined }],
    ['no events claim', { ...good, events: { other: {} } }],
    ['no events claim', { ...good, events: { [BACKCHANNEL_LOGOUT_EVENT]: 'yes' } }],
    ['has a nonce', { ...good, nonce: 'n' }],
    ['no sub or sid', { ...good, sub: undefined, sid: undefined }],
    ['no jti', { ...good, jti: undefined }],
    ['no jti', { ...good, jti: '' }],
    ['no iat', { ...good, iat: undefined }],
    ['issued too long ago', { ...good, iat: NOW - 3600 }],
  ])('refuses a token with %s', (problem, claims) => {
    expect(logoutTokenProblem(claims, NOW)).toBe(problem);
  });

  it('accepts a token naming only the sid, or only the sub', () => {
    expect(logoutTokenProblem({ ...good, sub: undefined }, NOW)).toBeUndefined();
    expect(logoutTokenProblem({ ...good, sid: undefined }, NOW)).toBeUndefined();
  });
});
