import * as client from 'openid-client';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { SigningKeys } from '../../src/idp/provider/signing-keys';
import { createIdpStateStore } from '../../src/idp/provider/idp-state-store';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import { Browser } from '../support/browser';
import {
  SCOPE,
  discover,
  signInAndExchange,
  signInWithPassword,
  startAuthorization,
  untilRedirect,
} from '../support/oidc-journey';
import { TestApp, startTestApp } from '../support/test-app';

describe('embedded IdP: the OpenID Connect cycle with openid-client', () => {
  let t: TestApp;
  let oidc: client.Configuration;
  let redirectUri: string;

  beforeAll(async () => {
    t = await startTestApp();
    redirectUri = `${t.config.http.publicUrl}/handleloginredirect`;
    oidc = await discover(t.config.idp.issuer, t.config.idp.clientId, t.config.idp.clientSecret);
  }, 30_000);
  afterAll(async () => {
    await t.close();
  });

  it('publishes Okta-shaped discovery at /oauth2/default', () => {
    const meta = oidc.serverMetadata();
    expect(meta.issuer).toBe(`${t.config.http.publicUrl}/oauth2/default`);
    for (const [key, path] of [
      ['authorization_endpoint', '/v1/authorize'],
      ['token_endpoint', '/v1/token'],
      ['jwks_uri', '/v1/keys'],
      ['userinfo_endpoint', '/v1/userinfo'],
      ['end_session_endpoint', '/v1/logout'],
      ['revocation_endpoint', '/v1/revoke'],
      ['introspection_endpoint', '/v1/introspect'],
    ] as const) {
      expect(meta[key]).toBe(`${meta.issuer}${path}`);
    }
    expect(meta.scopes_supported).toEqual(
      expect.arrayContaining(['openid', 'customer', 'offline_access', 'email', 'profile']),
    );
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('code + PKCE, refresh with rotation, revoke, introspect and RP-initiated logout', async () => {
    const browser = new Browser();
    const tokens = await signInAndExchange(
      oidc,
      redirectUri,
      'collector@example.com',
      DEMO_PASSWORD,
      browser,
    );

    // Okta-shaped RS256 JWT access token for api://default (§3 access-token claims).
    const jwks = createRemoteJWKSet(new URL(oidc.serverMetadata().jwks_uri ?? ''));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
      issuer: oidc.serverMetadata().issuer,
      audience: 'api://default',
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({
      cid: t.config.idp.clientId,
      CollectorsId: expect.any(Number),
      NavisionId: expect.stringMatching(/^C\d{8}$/),
    });
    expect(payload.scp).toEqual(expect.arrayContaining(['openid', 'customer', 'offline_access']));
    // Okta's "Tokens and claims" (issue 49 item 2): the access token's sub is the login, uid the
    // user id, which is the ID token's sub.
    expect(payload.sub).toBe('collector@example.com');
    expect(payload.uid).toEqual(expect.any(String));
    expect(payload.uid).not.toBe(payload.sub);
    expect(typeof payload.exp).toBe('number');

    // ID token with the account flags the shell needs.
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      sub: payload.uid,
      isMigrating: false,
      setupMfa: false,
      showSurvey: false,
      CollectorsId: payload.CollectorsId,
      NavisionId: payload.NavisionId,
    });
    // Only the scopes asked for. §7 fixes them (openid customer offline_access), so `customer`
    // carries who signed in (name, email, second factors) for the landing (issue 16 item 4); what
    // only `profile` carries (locale) stays out.
    expect(claims).toMatchObject({ email: 'collector@example.com', name: 'Casey Collector' });
    expect(claims?.locale).toBeUndefined();
    expect(claims?.email_verified).toBeUndefined();

    // offline_access granted the Okta way: a refresh token, and it rotates.
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const refreshed = await client.refreshTokenGrant(oidc, tokens.refresh_token ?? '', {
      scope: 'offline_access openid customer',
    });
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).toEqual(expect.any(String));
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.id_token).toEqual(expect.any(String));

    // Introspection and revocation.
    const active = await client.tokenIntrospection(oidc, refreshed.refresh_token ?? '');
    expect(active.active).toBe(true);
    await client.tokenRevocation(oidc, refreshed.refresh_token ?? '');
    expect((await client.tokenIntrospection(oidc, refreshed.refresh_token ?? '')).active).toBe(
      false,
    );
    await expect(
      client.refreshTokenGrant(oidc, refreshed.refresh_token ?? ''),
    ).rejects.toMatchObject({ error: 'invalid_grant' });

    // RP-initiated logout ends the IdP session: prompt=none then answers login_required.
    const logoutTo = `${t.config.http.publicUrl}/handlelogoutredirect`;
    const endSession = client.buildEndSessionUrl(oidc, {
      id_token_hint: refreshed.id_token ?? '',
      post_logout_redirect_uri: logoutTo,
      state: 'bye',
    });
    const logoutPage = await browser.get(endSession.href);
    expect(logoutPage.status).toBe(200);
    const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(logoutPage.body);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(form?.[2] ?? '')?.[1] ?? '';
    const confirm = await browser.post(new URL(form?.[1] ?? '', endSession).href, {
      xsrf,
      logout: 'yes',
    });
    const landed = await untilRedirect(browser, confirm, logoutTo);
    expect(landed.callback?.searchParams.get('state')).toBe('bye');

    const silent = await startAuthorization(oidc, redirectUri, { prompt: 'none' });
    const answer = await untilRedirect(browser, await browser.get(silent.url.href), redirectUri);
    expect(answer.callback?.searchParams.get('error')).toBe('login_required');
  }, 60_000);

  it('reusing a rotated-out refresh token fails and revokes its successor (RFC 9700 §4.14 reuse detection)', async () => {
    const tokens = await signInAndExchange(
      oidc,
      redirectUri,
      'collector@example.com',
      DEMO_PASSWORD,
    );
    const rotated = await client.refreshTokenGrant(oidc, tokens.refresh_token ?? '');
    await expect(client.refreshTokenGrant(oidc, tokens.refresh_token ?? '')).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect((await client.tokenIntrospection(oidc, rotated.refresh_token ?? '')).active).toBe(false);
  }, 60_000);

  it('refuses a code exchange with a wrong PKCE verifier, and a replayed code', async () => {
    const start = await startAuthorization(oidc, redirectUri);
    const callback = await signInWithPassword(
      new Browser(),
      start,
      redirectUri,
      'collector@example.com',
      DEMO_PASSWORD,
    );
    await expect(
      client.authorizationCodeGrant(oidc, callback, {
        pkceCodeVerifier: client.randomPKCECodeVerifier(),
        expectedState: start.state,
        expectedNonce: start.nonce,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    const tokens = await client.authorizationCodeGrant(oidc, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
      expectedNonce: start.nonce,
    });
    expect(tokens.access_token).toEqual(expect.any(String));
    // A replayed code is refused.
    await expect(
      client.authorizationCodeGrant(oidc, callback, {
        pkceCodeVerifier: start.verifier,
        expectedState: start.state,
        expectedNonce: start.nonce,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  }, 60_000);

  it('prompt=none with an IdP session answers with a code, and keeps offline_access', async () => {
    const browser = new Browser();
    const first = await startAuthorization(oidc, redirectUri);
    await signInWithPassword(browser, first, redirectUri, 'collector@example.com', DEMO_PASSWORD);
    const silent = await startAuthorization(oidc, redirectUri, { prompt: 'none' });
    const answer = await untilRedirect(browser, await browser.get(silent.url.href), redirectUri);
    expect(answer.callback?.searchParams.get('code')).toEqual(expect.any(String));
    const tokens = await client.authorizationCodeGrant(
      oidc,
      answer.callback ?? new URL(redirectUri),
      {
        pkceCodeVerifier: silent.verifier,
        expectedState: silent.state,
        expectedNonce: silent.nonce,
      },
    );
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(decodeJwt(tokens.access_token).scp).toEqual(expect.arrayContaining(['offline_access']));
  }, 60_000);

  it('prompt=none without an IdP session answers login_required', async () => {
    const silent = await startAuthorization(oidc, redirectUri, { prompt: 'none' });
    const browser = new Browser();
    const answer = await untilRedirect(browser, await browser.get(silent.url.href), redirectUri);
    expect(answer.callback?.searchParams.get('error')).toBe('login_required');
    expect(answer.callback?.searchParams.get('state')).toBe(silent.state);
    // No sign-in page was shown on the way.
    expect(browser.history.every((r) => r.status !== 200)).toBe(true);
  });

  it('a brand client uses the code flow without PKCE (§4 brand code redirect)', async () => {
    const brand = t.config.brandClients.pcgs;
    if (!brand) throw new Error('pcgs has a brand client in local');
    const brandOidc = await discover(t.config.idp.issuer, brand.clientId, brand.clientSecret);
    const brandRedirect = `${t.config.http.publicUrl}/handlebrandtokenredirect`;
    const browser = new Browser();
    // Signed in at the IdP first, then the brand's silent code request.
    await signInWithPassword(
      browser,
      await startAuthorization(oidc, redirectUri),
      redirectUri,
      'collector@example.com',
      DEMO_PASSWORD,
    );
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(brandOidc, {
      redirect_uri: brandRedirect,
      scope: SCOPE,
      state,
      prompt: 'none',
      response_type: 'code',
    });
    const answer = await untilRedirect(browser, await browser.get(url.href), brandRedirect);
    const tokens = await client.authorizationCodeGrant(
      brandOidc,
      answer.callback ?? new URL(brandRedirect),
      { expectedState: state },
    );
    expect(decodeJwt(tokens.access_token).cid).toBe(brand.clientId);
  }, 60_000);

  it('key rotation: the new signer was published before it signs, and old tokens keep verifying', async () => {
    const issue = async () => {
      return signInAndExchange(oidc, redirectUri, 'collector@example.com', DEMO_PASSWORD);
    };
    const before = await issue();
    const publishedBefore = (
      (await (await fetch(oidc.serverMetadata().jwks_uri ?? '')).json()) as {
        keys: { kid: string }[];
      }
    ).keys.map((k) => k.kid);
    const oldKid = decodeProtectedHeader(before.access_token).kid;
    expect(publishedBefore[0]).toBe(oldKid);

    const port = new URL(t.url).port;
    const dataDir = t.config.dataDir;
    await t.close();
    // What `npm run idp:rotate-keys` does, on the stopped service's IdP state store.
    const store = await createIdpStateStore(t.config);
    await new SigningKeys(store).rotate();
    await store.close();
    t = await startTestApp({ PORT: port, DATA_DIR: dataDir });
    oidc = await discover(t.config.idp.issuer, t.config.idp.clientId, t.config.idp.clientSecret);

    const after = await issue();
    const newKid = decodeProtectedHeader(after.access_token).kid;
    expect(newKid).not.toBe(oldKid);
    expect(publishedBefore).toContain(newKid);
    const jwks = createRemoteJWKSet(new URL(oidc.serverMetadata().jwks_uri ?? ''));
    await expect(
      jwtVerify(before.access_token, jwks, { audience: 'api://default' }),
    ).resolves.toBeDefined();
    await expect(
      jwtVerify(after.access_token, jwks, { audience: 'api://default' }),
    ).resolves.toBeDefined();
  }, 90_000);

  it("a client can neither introspect nor revoke another client's tokens", async () => {
    const tokens = await signInAndExchange(
      oidc,
      redirectUri,
      'collector@example.com',
      DEMO_PASSWORD,
    );
    const brand = t.config.brandClients.psa;
    if (!brand) throw new Error('psa has a brand client in local');
    const other = await discover(t.config.idp.issuer, brand.clientId, brand.clientSecret);
    expect((await client.tokenIntrospection(other, tokens.refresh_token ?? '')).active).toBe(false);
    await client.tokenRevocation(other, tokens.refresh_token ?? '').catch(() => undefined);
    expect((await client.tokenIntrospection(oidc, tokens.refresh_token ?? '')).active).toBe(true);
  }, 60_000);

  it('keeps accounts, sessions, grants and refresh tokens across a restart', async () => {
    const browser = new Browser();
    const tokens = await signInAndExchange(
      oidc,
      redirectUri,
      'japan@example.com',
      DEMO_PASSWORD,
      browser,
    );
    const keysBefore = await (await fetch(oidc.serverMetadata().jwks_uri ?? '')).json();
    const port = new URL(t.url).port;
    const dataDir = t.config.dataDir;
    await t.close();
    t = await startTestApp({ PORT: port, DATA_DIR: dataDir });
    oidc = await discover(t.config.idp.issuer, t.config.idp.clientId, t.config.idp.clientSecret);
    expect(await (await fetch(oidc.serverMetadata().jwks_uri ?? '')).json()).toEqual(keysBefore);
    const refreshed = await client.refreshTokenGrant(oidc, tokens.refresh_token ?? '');
    expect(decodeJwt(refreshed.access_token)).toMatchObject({
      sub: decodeJwt(tokens.access_token).sub,
      uid: decodeJwt(tokens.access_token).uid,
    });
    // The IdP session survived too: a silent request gets a code.
    const silent = await startAuthorization(oidc, redirectUri, { prompt: 'none' });
    const answer = await untilRedirect(browser, await browser.get(silent.url.href), redirectUri);
    expect(answer.callback?.searchParams.get('code')).toEqual(expect.any(String));
  }, 60_000);
});
