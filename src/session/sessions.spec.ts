import { SESSION_TTL_SECONDS, sessionTtlSeconds } from './sessions';

/**
 * How long the store keeps a session (issue 14 item 7): a year while a refresh token can renew it,
 * else exactly its access token's remaining lifetime.
 */
describe(sessionTtlSeconds.name, () => {
  const now = 1_800_000_000_000;
  const inSeconds = (s: number) => now / 1000 + s;

  it.each([
    ['a refresh token', { refreshToken: 'rt', expiresAt: inSeconds(60) }, SESSION_TTL_SECONDS],
    [
      'a refresh token, expired access token',
      { refreshToken: 'rt', expiresAt: inSeconds(-60) },
      SESSION_TTL_SECONDS,
    ],
    ['no refresh token, an hour left', { expiresAt: inSeconds(3600) }, 3600],
    ['no refresh token, half a second left', { expiresAt: inSeconds(0.5) }, 1],
    ['no refresh token, expired', { expiresAt: inSeconds(-10) }, 1],
    [
      'no refresh token, two years left',
      { expiresAt: inSeconds(2 * SESSION_TTL_SECONDS) },
      SESSION_TTL_SECONDS,
    ],
  ])('%s: %d s', (_name, tokens, expected) => {
    expect(sessionTtlSeconds({ accessToken: 'at', ...tokens }, now)).toBe(expected);
  });
});
