import { OktaIdp, startOktaIdp } from './okta-idp';
import { BRAND_CLIENTS, OKTA_USERS, SERVICE_CLIENT } from './okta-stack';
import type { RawEnv } from '../../src/config/config.schema';

/**
 * The Okta-shaped IdP (okta-idp.ts, no code shared with src/idp/) over plain HTTP, for an app
 * started in this process (startTestApp) rather than behind the qa stack's TLS front: every user of
 * OKTA_USERS, this service's client and each brand's, with redirect URIs for the app on each of
 * `ports`. What it answers is Okta's shape all the same, faults included (OktaIdp.fault).
 */
export function startOktaIdpOverHttp(
  ports: readonly number[],
  accessTokenTtlSeconds = 3600,
): Promise<OktaIdp> {
  const urls = ports.map((port) => `http://localhost:${port}`);
  return startOktaIdp({
    tls: false,
    accessTokenTtlSeconds,
    users: Object.values(OKTA_USERS),
    clients: [
      {
        ...SERVICE_CLIENT,
        redirectUris: urls.map((url) => `${url}/handleloginredirect`),
        postLogoutRedirectUris: urls.map((url) => `${url}/handlelogoutredirect`),
      },
      ...Object.values(BRAND_CLIENTS).map((brand) => ({
        ...brand,
        redirectUris: urls.flatMap((url) => [
          `${url}/handleloginredirect`,
          `${url}/handlebrandtokenredirect`,
        ]),
      })),
    ],
  });
}

/** The configuration of an app on `port` that signs in at `idp` as it would at Okta (dev). */
export function externalIdpEnv(port: number, idp: OktaIdp, env: RawEnv = {}): RawEnv {
  return {
    APP_ENV: 'dev',
    PORT: String(port),
    PUBLIC_URL: `http://localhost:${port}`,
    IDP_MODE: 'external',
    IDP_ISSUER: idp.issuer,
    IDP_CLIENT_ID: SERVICE_CLIENT.clientId,
    IDP_CLIENT_SECRET: SERVICE_CLIENT.clientSecret,
    BRAND_CLIENTS: JSON.stringify(BRAND_CLIENTS),
    ...env,
  };
}
