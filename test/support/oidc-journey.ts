import * as client from 'openid-client';
import { Browser, BrowserResponse } from './browser';

export const SCOPE = 'openid customer offline_access';

/** openid-client against an issuer on plain http (local tests only). */
export async function discover(
  issuer: string,
  clientId: string,
  clientSecret: string,
): Promise<client.Configuration> {
  return client.discovery(new URL(issuer), clientId, clientSecret, undefined, {
    execute: [client.allowInsecureRequests],
  });
}

export interface AuthorizationStart {
  readonly url: URL;
  readonly verifier: string;
  readonly state: string;
  readonly nonce: string;
}

export async function startAuthorization(
  config: client.Configuration,
  redirectUri: string,
  extra: Record<string, string> = {},
): Promise<AuthorizationStart> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: SCOPE,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url, verifier, state, nonce };
}

/** Follows the browser through the IdP until it is sent to `redirectUri`; returns that URL. */
export async function untilRedirect(
  browser: Browser,
  from: BrowserResponse,
  redirectUri: string,
): Promise<{ page: BrowserResponse; callback?: URL }> {
  let callback: URL | undefined;
  const page = await browser.follow(from, (location) => {
    if (location.startsWith(redirectUri)) {
      callback = new URL(location);
      return true;
    }
    return false;
  });
  return { page, ...(callback ? { callback } : {}) };
}

/** Signs in through the EmailCheck and EnterPassword steps and returns the callback URL. */
export async function signInWithPassword(
  browser: Browser,
  start: AuthorizationStart,
  redirectUri: string,
  email: string,
  password: string,
): Promise<URL> {
  const first = await untilRedirect(browser, await browser.get(start.url.href), redirectUri);
  if (first.callback) return first.callback;
  const passwordPage = await browser.submit(first.page, { email });
  const done = await untilRedirect(
    browser,
    await submitRaw(browser, passwordPage, { password }),
    redirectUri,
  );
  if (!done.callback)
    throw new Error(
      `sign-in did not reach the client: ${done.page.status} ${done.page.url}\n${done.page.body.slice(0, 2000)}`,
    );
  return done.callback;
}

/** Posts the page's form without following redirects (so the caller can watch where it goes). */
export async function submitRaw(
  browser: Browser,
  page: BrowserResponse,
  values: Record<string, string>,
  action = 'submit',
): Promise<BrowserResponse> {
  const formAction = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1];
  if (!formAction)
    throw new Error(`no form on ${page.url}: ${page.status}\n${page.body.slice(0, 1500)}`);
  const csrf = /name="csrf" value="([^"]*)"/.exec(page.body)?.[1] ?? '';
  return browser.post(new URL(formAction.replace(/&amp;/g, '&'), page.url).href, {
    csrf,
    ...values,
    action,
  });
}

/** Signs in through the IdP's steps and exchanges the code with PKCE, state and nonce checks. */
export async function signInAndExchange(
  config: client.Configuration,
  redirectUri: string,
  email: string,
  password: string,
  browser = new Browser(),
): Promise<client.TokenEndpointResponse & client.TokenEndpointResponseHelpers> {
  const start = await startAuthorization(config, redirectUri);
  const callback = await signInWithPassword(browser, start, redirectUri, email, password);
  return client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: start.verifier,
    expectedState: start.state,
    expectedNonce: start.nonce,
  });
}
