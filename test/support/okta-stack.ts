import { createHash } from 'node:crypto';
import { REDIRECT_BRANDS } from '../../src/shared/brand';
import { Browser, BrowserResponse } from './browser';
import { freePort } from './free-port';
import {
  IdpFault,
  OktaClient,
  OktaClientAuthMethod,
  OktaIdp,
  OktaUser,
  TEST_CA,
  startOktaIdp,
} from './okta-idp';
import { ProcessApp, startProcessApp } from './process-app';
import { Runtime, testRunnerRuntime } from './runtimes';
import { throughBrandGrant } from './signin-journey';
import { productionEnv } from './test-config';
import { TlsFront, startTlsFront, trustingFetch } from './tls-front';

/**
 * A made-up client secret that qa accepts (issue 50 item 10: random-looking, no two alike): 43
 * characters of base64url from the client's name, the same in every run.
 */
const madeUpSecret = (clientId: string): string =>
  createHash('sha256').update(`okta-stack client secret ${clientId}`).digest('base64url');

/** This service's client at the Okta-shaped IdP, and a brand client (pcgs) for the code redirect. */
export const SERVICE_CLIENT = { clientId: '0oa-signon-qa', clientSecret: madeUpSecret('signon') };
export const PCGS_CLIENT = { clientId: '0oa-pcgs-qa', clientSecret: madeUpSecret('pcgs') };
/** A mobile app's client: it exchanges handoff codes at this service. */
export const PSAMOBILE_CLIENT = {
  clientId: '0oa-psamobile-qa',
  clientSecret: madeUpSecret('psamobile'),
};
/**
 * Every redirect brand's own client at the org (issue 49 item 3: a brand's tokens are issued to it,
 * and qa refuses to start without one per redirect brand), pcgs and psamobile among them.
 */
export const BRAND_CLIENTS: Readonly<Record<string, { clientId: string; clientSecret: string }>> = {
  ...Object.fromEntries(
    REDIRECT_BRANDS.map((brand) => [
      brand,
      { clientId: `0oa-${brand}-qa`, clientSecret: madeUpSecret(brand) },
    ]),
  ),
  pcgs: PCGS_CLIENT,
  psamobile: PSAMOBILE_CLIENT,
};

/** Collectors of the Okta-shaped org, one per place the org may put the §3 claims. */
export const OKTA_USERS = {
  /** The usual org: CollectorsId in both tokens (as a numeric string), the flags in the ID token. */
  plain: {
    uid: '00u1plainCollector',
    email: 'plain@example.com',
    password: 'Okta-shaped-1!',
    name: 'Plain Collector',
    collectorsId: '4242',
    claimsIn: 'idToken',
  },
  /** Every custom claim in the access token only. */
  inAccessToken: {
    uid: '00u2accessToken',
    email: 'access@example.com',
    password: 'Okta-shaped-2!',
    name: 'Access Claims',
    collectorsId: 5151,
    claimsIn: 'accessToken',
    flags: { setupMfa: true },
  },
  /** No custom claim in any token: userinfo alone states them. */
  inUserinfo: {
    uid: '00u3userinfoOnly',
    email: 'userinfo@example.com',
    password: 'Okta-shaped-3!',
    name: 'Userinfo Claims',
    collectorsId: '6161',
    claimsIn: 'userinfo',
    flags: { isMigrating: true },
  },
} as const satisfies Record<string, OktaUser>;

export interface OktaStack {
  readonly idp: OktaIdp;
  readonly app: ProcessApp;
  readonly front: TlsFront;
  /** The service's public URL (https, through the TLS front). */
  readonly url: string;
  /** A browser that trusts the test authority, as a collector's browser trusts a real one. */
  browser(): Browser;
  fault(mode: IdpFault, path?: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Production's shape on one machine (issue 31 item 2): the service as `npm start` runs it with
 * APP_ENV=qa and IDP_MODE=external, behind a TLS front (TRUST_PROXY=1), against the Okta-shaped IdP
 * of okta-idp.ts in a process of its own, trusting the test authority through NODE_EXTRA_CA_CERTS as
 * a platform team trusts a private one (docs/okta.md).
 */
export async function startOktaStack(
  options: {
    env?: Record<string, string>;
    accessTokenTtlSeconds?: number;
    /** The Node the service runs on, and its build: the test runner's by default (runtimes.ts). */
    runtime?: Runtime;
    /**
     * How the service's app is registered at the org: the one client authentication method it
     * takes (client_secret_basic when not said, as Okta's default) and, for private_key_jwt, its
     * public keys (docs/okta.md "Client authentication").
     */
    serviceClientAuth?: Pick<OktaClient, 'tokenEndpointAuthMethod' | 'jwks'>;
    /** The one method each named brand's app takes (client_secret_basic for the others). */
    brandClientAuth?: Readonly<Record<string, OktaClientAuthMethod>>;
  } = {},
): Promise<OktaStack> {
  const [appPort, frontPort] = [await freePort(), await freePort()];
  const publicUrl = `https://localhost:${frontPort}`;
  const idp = await startOktaIdp({
    users: Object.values(OKTA_USERS),
    clients: [
      {
        ...SERVICE_CLIENT,
        redirectUris: [`${publicUrl}/handleloginredirect`],
        postLogoutRedirectUris: [`${publicUrl}/handlelogoutredirect`],
        ...options.serviceClientAuth,
      },
      // A brand's app lists both landings: its hop's own grant, and the brand code redirect.
      ...Object.entries(BRAND_CLIENTS).map(([brand, credentials]) => ({
        ...credentials,
        redirectUris: [`${publicUrl}/handleloginredirect`, `${publicUrl}/handlebrandtokenredirect`],
        tokenEndpointAuthMethod: options.brandClientAuth?.[brand],
      })),
    ],
    ...(options.accessTokenTtlSeconds
      ? { accessTokenTtlSeconds: options.accessTokenTtlSeconds }
      : {}),
  });
  const runtime = options.runtime ?? testRunnerRuntime();
  let app: ProcessApp | undefined;
  try {
    app = await startProcessApp(
      runtime.main,
      {
        ...productionEnv('qa'),
        PORT: String(appPort),
        PUBLIC_URL: publicUrl,
        IDP_MODE: 'external',
        IDP_ISSUER: idp.issuer,
        IDP_CLIENT_ID: SERVICE_CLIENT.clientId,
        IDP_CLIENT_SECRET: SERVICE_CLIENT.clientSecret,
        BRAND_CLIENTS: JSON.stringify(BRAND_CLIENTS),
        NODE_EXTRA_CA_CERTS: TEST_CA,
        LOG_LEVEL: 'info',
        // Revocations the IdP did not take are retried soon, so a test sees it happen.
        REVOCATION_RETRY_MS: '300',
        ...options.env,
      },
      runtime.node,
    );
  } catch (error) {
    await idp.close();
    throw error;
  }
  const front = await startTlsFront(appPort, frontPort);
  const started = app;
  return {
    idp,
    app: started,
    front,
    url: publicUrl,
    browser: () => new Browser({}, trustingFetch),
    fault: (mode, path) => idp.fault(mode, path),
    close: async () => {
      await front.close();
      await started.kill();
      await idp.close();
    },
  };
}

/**
 * A collector's way through Okta's sign-in page, from the service's redirect to the IdP until the IdP
 * sends the browser back to `landingPath`: email and password on the sign-in form; every other hop
 * is a redirect. Returns the landing URL (not yet visited).
 */
export async function throughOkta(
  browser: Browser,
  start: BrowserResponse,
  user: OktaUser,
  landingPath = '/handleloginredirect',
): Promise<URL> {
  let res = start;
  for (let step = 0; step < 6; step++) {
    let landing: URL | undefined;
    res = await browser.follow(res, (next) => {
      const url = new URL(next);
      if (url.pathname !== landingPath) return false;
      landing = url;
      return true;
    });
    if (landing) return landing;
    const action = /<form method="post" action="([^"]+)"/.exec(res.body)?.[1];
    if (res.status !== 200 || !action)
      throw new Error(`Okta answered ${res.status} at ${res.url}:\n${res.body.slice(0, 800)}`);
    res = await browser.post(new URL(action, res.url).href, {
      username: user.email,
      password: user.password,
    });
  }
  throw new Error(`Okta did not send ${user.email} back to ${landingPath}`);
}

/** A signed-in browser: /signin?<query> through Okta, and the landing's answer. */
export async function signInThroughOkta(
  stack: OktaStack,
  user: OktaUser,
  query = 'b=collectors',
  browser = stack.browser(),
): Promise<{ browser: Browser; landed: BrowserResponse }> {
  const start = await browser.get(`${stack.url}/signin?${query}`);
  const landing = await throughOkta(browser, start, user);
  const landed = await throughBrandGrant(browser, await browser.get(landing.href));
  return { browser, landed };
}

/** account.status as the page's client asks it, with the browser's cookies. */
export async function accountStatusOf(
  stack: OktaStack,
  browser: Browser,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await browser.get(`${stack.url}/api/collectors-web/trpc/account.status`);
  return { status: res.status, body: JSON.parse(res.body) as Record<string, unknown> };
}
