import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type JWTPayload, SignJWT, exportJWK, generateKeyPair } from 'jose';
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

describe('access tokens as Okta and as RFC 9068 issue them (issue 31 item 1)', () => {
  const issuer = 'https://login.example/oauth2/default';
  let server: http.Server;
  let sign: (claims: JWTPayload, header?: Record<string, unknown>) => Promise<string>;
  let jwksUri = '';

  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/keys`;
    sign = (claims, header = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'k1', ...header })
        .sign(privateKey);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const verifierFor = (env: Record<string, string> = {}) =>
    new TokenVerifier(
      testConfig({
        APP_ENV: 'qa',
        IDP_ISSUER: issuer,
        ...env,
      }),
      { jwksUri: () => Promise.resolve(jwksUri) } as unknown as OidcClient,
    );
  const now = () => Math.floor(Date.now() / 1000);
  /** An access token of Okta's default authorization server. */
  const okta = (extra: JWTPayload = {}): JWTPayload => ({
    ver: 1,
    jti: 'AT.1',
    iss: issuer,
    aud: 'api://default',
    iat: now(),
    exp: now() + 3600,
    cid: '0oa-signon',
    uid: '00u1',
    scp: ['openid', 'customer', 'offline_access'],
    auth_time: now(),
    sub: 'collector@example.com',
    CollectorsId: 4242,
    ...extra,
  });

  it.each([
    ['Okta’s: no typ at all', okta(), {}, 4242],
    ['RFC 9068’s at+jwt', okta(), { typ: 'at+jwt' }, 4242],
    ['application/at+jwt in capitals', okta(), { typ: 'application/AT+JWT' }, 4242],
    ['CollectorsId as a numeric string', okta({ CollectorsId: '4242' }), {}, 4242],
    [
      'no CollectorsId (the ID token or userinfo states it)',
      okta({ CollectorsId: undefined }),
      {},
      undefined,
    ],
  ])('takes %s', async (_name, claims, header, collectorsId) => {
    const check = await verifierFor().verify(await sign(claims, header));
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.claims.CollectorsId).toBe(collectorsId);
  });

  it.each([
    ['typ JWT', okta(), { typ: 'JWT' }],
    ['a logout token’s typ', okta(), { typ: 'logout+jwt' }],
    [
      'an ID token (a client audience, nonce, at_hash), untyped as Okta’s are',
      okta({ aud: '0oa-signon', nonce: 'n', at_hash: 'h' }),
      {},
    ],
    ['an ID token’s nonce on the access audience', okta({ nonce: 'n' }), {}],
    ['an ID token’s at_hash', okta({ at_hash: 'h' }), {}],
    [
      'a logout token’s events',
      okta({ events: { 'http://schemas.openid.net/event/backchannel-logout': {} } }),
      {},
    ],
    ['another audience', okta({ aud: 'api://other' }), {}],
    ['a CollectorsId that is no number', okta({ CollectorsId: '12a' }), {}],
    ['a CollectorsId that is a fraction', okta({ CollectorsId: 1.5 }), {}],
    ['another issuer', okta({ iss: 'https://evil.example/oauth2/default' }), {}],
  ])('refuses %s', async (_name, claims, header) => {
    await expect(verifierFor().verify(await sign(claims, header))).resolves.toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('checks the configured audience (IDP_AUDIENCE), not api://default', async () => {
    const custom = verifierFor({ IDP_AUDIENCE: 'https://api.collectors.com' });
    expect((await custom.verify(await sign(okta({ aud: 'https://api.collectors.com' })))).ok).toBe(
      true,
    );
    expect((await custom.verify(await sign(okta()))).ok).toBe(false);
  });
});
