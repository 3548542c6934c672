import {
  BACKCHANNEL_LOGOUT_EVENT,
  jtiMemorySeconds,
  logoutTokenClaims,
  logoutTokenProblem,
} from './logout-token';

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
    ['no iat', { ...good, iat: '1800000000' }],
    // OIDC Back-Channel Logout 1.0 §2.4 makes exp REQUIRED; an iat ahead of the clock beyond the
    // skew is refused.
    ['no exp', { ...good, exp: undefined }],
    ['no exp', { ...good, exp: Number.POSITIVE_INFINITY }],
    ['issued in the future', { ...good, iat: NOW + 61 }],
    ['issued in the future', { ...good, iat: NOW + 86_400, exp: NOW + 86_520 }],
    ['issued too long ago', { ...good, iat: NOW - 3600 }],
    ['issued too long ago', { ...good, iat: NOW - 181 }],
  ])('refuses a token with %s', (problem, claims) => {
    expect(logoutTokenProblem(claims, NOW)).toBe(problem);
  });

  it.each([
    ['issued now', NOW],
    ['issued up to the clock skew ahead', NOW + 60],
    ['issued its lifetime and the skew ago', NOW - 180],
  ])('accepts a token %s', (_label, iat) => {
    expect(logoutTokenProblem({ ...good, iat, exp: iat + 120 }, NOW)).toBeUndefined();
  });

  it('accepts a token naming only the sid, or only the sub', () => {
    expect(logoutTokenProblem({ ...good, sub: undefined }, NOW)).toBeUndefined();
    expect(logoutTokenProblem({ ...good, sid: undefined }, NOW)).toBeUndefined();
  });
});

/**
 * §2.6 step 7, OIDC Back-Channel Logout 1.0 §2.4: a jti is remembered for as long as its token
 * could be accepted, so a replay is refused whenever the token itself would not be.
 */
describe('jtiMemorySeconds', () => {
  it.each([
    ['until its exp, plus the skew', { iat: NOW, exp: NOW + 120 }, 180],
    ['until a short exp', { iat: NOW, exp: NOW + 10 }, 70],
    ['until it is too old, when its exp is later', { iat: NOW, exp: NOW + 86_400 }, 240],
    ['from an iat ahead of the clock', { iat: NOW + 60, exp: NOW + 180 }, 240],
    ['at least a second', { iat: NOW - 200, exp: NOW - 100 }, 1],
  ])('%s', (_label, claims, seconds) => {
    expect(jtiMemorySeconds(claims, NOW)).toBe(seconds);
    // Never forgotten while the token would still be accepted (jose allows 5 s past exp).
    const acceptedAt = (later: number) =>
      later <= claims.exp + 5 && logoutTokenProblem({ ...good, ...claims }, later) === undefined;
    for (let later = NOW; later <= NOW + 600; later++)
      if (acceptedAt(later)) expect(later).toBeLessThan(NOW + seconds);
  });
});
