import OktaJwtVerifier from '@okta/jwt-verifier';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { Browser } from '../support/browser';
import { locationOf, signInVia } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 31 item 2: a brand that tests against local or dev sees what it will see in prod. The
 * embedded IdP's access tokens verify with Okta's own verifier for Node, as a brand's server would
 * use it, and its userinfo answers the `t` a brand received, as Okta's does.
 */
const t = useTestApp();
let token: string;
beforeAll(async () => {
  const { landing } = await signInVia(t, new Browser(), 'b=psa');
  token = locationOf(landing).searchParams.get('t') ?? '';
}, 60_000);

it('a brand’s t verifies with @okta/jwt-verifier: issuer, audience, client id, signature, expiry', async () => {
  // Issued to psa's own client (issue 49 item 3): psa asserts its own client id.
  const psa = t.config.brandClients.psa?.clientId ?? '';
  const verifier = new OktaJwtVerifier({
    issuer: t.config.idp.issuer,
    clientId: psa,
    assertClaims: { cid: psa },
    // The embedded IdP of local and dev answers over plain HTTP on localhost.
    testing: { disableHttpsCheck: true },
  });
  const jwt = await verifier.verifyAccessToken(token, 'api://default');
  expect(jwt.claims).toMatchObject({
    iss: t.config.idp.issuer,
    aud: 'api://default',
    cid: psa,
    CollectorsId: 100001,
  });
  // The verifier refuses what it should: another audience.
  await expect(verifier.verifyAccessToken(token, 'api://other')).rejects.toThrow();
});

it('its userinfo answers the brand’s t with the collector’s claims (a 500 before)', async () => {
  expect(token.length).toBeGreaterThan(512);
  expect(decodeProtectedHeader(token).alg).toBe('RS256');
  const res = await fetch(`${t.config.idp.issuer}/v1/userinfo`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  // Its sub is the user id: the token's uid, not the token's sub (the login: issue 49 item 2).
  expect(await res.json()).toMatchObject({
    sub: decodeJwt(token).uid,
    CollectorsId: 100001,
    email: 'collector@example.com',
  });
});

it('its userinfo refuses a token it did not sign with 401 invalid_token', async () => {
  const [header, payload] = token.split('.');
  const forged = `${header}.${payload}.${'A'.repeat(342)}`;
  const res = await fetch(`${t.config.idp.issuer}/v1/userinfo`, {
    headers: { authorization: `Bearer ${forged}` },
  });
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  expect(await res.json()).toMatchObject({ error: 'invalid_token' });
});
