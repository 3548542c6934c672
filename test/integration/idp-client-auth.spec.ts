import { generateKeyPairSync } from 'node:crypto';
import { DEVELOPER_SECRETS, EMBEDDED_CLIENT_ID } from '../../src/config/config.schema';
import { Browser } from '../support/browser';
import { ProcessApp, buildApp, removeBuild, startProcessApp } from '../support/process-app';
import {
  basicAuth,
  signOutFromThisSite,
  throughBrandGrant,
  throughIdp,
} from '../support/signin-journey';

/**
 * docs/okta.md "Client authentication", in local and dev: the embedded IdP registers the service's
 * client with the method IDP_CLIENT_AUTH_METHOD names, as the Okta app would be, so a developer
 * runs private_key_jwt end to end without an Okta org. The service runs as `npm start` runs it (a
 * process of its own: oidc-provider checks that a client's keys are plain objects of its own realm,
 * which Jest's module sandbox is not).
 */
describe('the embedded IdP with IDP_CLIENT_AUTH_METHOD=private_key_jwt', () => {
  let main: string;
  let app: ProcessApp;
  beforeAll(async () => {
    main = buildApp();
    app = await startProcessApp(main, {
      IDP_CLIENT_AUTH_METHOD: 'private_key_jwt',
      IDP_CLIENT_PRIVATE_KEY: JSON.stringify({
        ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }),
        kid: 'signon-dev-1',
      }),
    });
  }, 180_000);
  afterAll(async () => {
    await app?.kill();
    removeBuild(main);
  });

  it('signs a collector in and out, the service proving itself with its key', async () => {
    const browser = new Browser();
    const start = await browser.get(`${app.url}/signin?b=collectors`);
    const callback = await throughIdp(browser, start);
    const landing = await throughBrandGrant(browser, await browser.get(callback.href));
    expect(landing.status).toBe(302);
    expect(new URL(landing.headers.get('location') ?? '', app.url).pathname).toBe('/collection');
    const out = await signOutFromThisSite(browser, `${app.url}/logout/collectorsid?b=collectors`);
    const logout = new URL(out.headers.get('location') ?? '', app.url);
    expect(logout.pathname).toBe('/oauth2/default/v1/logout');
    expect(logout.searchParams.get('id_token_hint')).toBeTruthy();
  });

  it('the client holds no secret there: the developer secret is refused (invalid_client)', async () => {
    const res = await fetch(`${app.url}/oauth2/default/v1/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basicAuth(EMBEDDED_CLIENT_ID, DEVELOPER_SECRETS.IDP_CLIENT_SECRET),
      },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x' }).toString(),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });
});
