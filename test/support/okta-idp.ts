import { ChildProcess, fork } from 'node:child_process';
import * as path from 'node:path';
import { freePort } from './free-port';

const SERVER = path.join(__dirname, 'okta-idp', 'server.mjs');
const TLS_DIR = path.resolve(__dirname, '../fixtures/redis-tls');

/** The test certificate authority: the Okta-shaped IdP and the TLS front present its certificate. */
export const TEST_CA = path.join(TLS_DIR, 'ca.crt');
export const TEST_TLS = {
  key: path.join(TLS_DIR, 'server.key'),
  cert: path.join(TLS_DIR, 'server.crt'),
};

/** Where a user's §3 custom claims go, as an Okta org's claim settings put them. */
export type ClaimsIn = 'idToken' | 'accessToken' | 'userinfo';

export interface OktaUser {
  /** Okta's user id (the ID token's `sub`, the access token's `uid`). */
  readonly uid: string;
  /** The login (the access token's `sub`). */
  readonly email: string;
  readonly password: string;
  readonly name: string;
  /** §3 CollectorsId as the org's expression yields it: a number or a numeric string. */
  readonly collectorsId: number | string;
  readonly claimsIn: ClaimsIn;
  readonly flags?: Readonly<Record<string, boolean>>;
}

/** The client authentication methods an Okta app may be registered with, here. */
export type OktaClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

export interface OktaClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUris: readonly string[];
  readonly postLogoutRedirectUris?: readonly string[];
  /**
   * The one method the app takes (okta-idp/okta-rules.mjs), Okta's default client_secret_basic
   * when not said; private_key_jwt with `jwks`, the public keys registered on the app.
   */
  readonly tokenEndpointAuthMethod?: OktaClientAuthMethod;
  readonly jwks?: { readonly keys: readonly object[] };
}

/** One client-authenticated request (token, revocation, introspection) and how it authenticated. */
export interface ClientAuthentication {
  readonly path: string;
  readonly client_id?: string;
  readonly method: OktaClientAuthMethod | 'none';
  readonly status: number;
}

export type IdpFault = 'none' | 'down' | '503' | 'hang' | '429';

/** One request the IdP received, as it answered it (faulted ones too). */
export interface IdpRequest {
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

export interface TokenRequest {
  readonly grant_type: string;
  readonly scope?: string;
  readonly client_id?: string;
  readonly status: number;
}

export interface OktaIdp {
  readonly issuer: string;
  readonly port: number;
  /**
   * Switches the IdP's behaviour; resolves once it is in effect. `path` limits a fault to one
   * endpoint (e.g. '/oauth2/default/v1/userinfo'). '429' answers as Okta's rate limit does (429,
   * `X-Rate-Limit-Limit`, `X-Rate-Limit-Remaining: 0`, `X-Rate-Limit-Reset` in epoch seconds, and
   * the E0000047 JSON body), with a Reset `resetSeconds` (default 3) after the window's first
   * request.
   */
  fault(mode: IdpFault, path?: string, options?: { readonly resetSeconds?: number }): Promise<void>;
  /** What its token endpoint was asked so far. */
  tokenRequests(): Promise<TokenRequest[]>;
  /** Every request so far, faulted ones too, optionally only those to one path. */
  requests(path?: string): Promise<IdpRequest[]>;
  /** How clients authenticated at its token, revocation and introspection endpoints so far. */
  clientAuthentications(): Promise<ClientAuthentication[]>;
  output(): string;
  close(): Promise<void>;
}

/**
 * Starts test/support/okta-idp/server.mjs, an OpenID Connect server that issues tokens the way Okta
 * does and shares no code with src/idp/ (issue 31 item 2), in a process of its own, over TLS with the
 * test authority's certificate. Resolves once it listens.
 */
export async function startOktaIdp(options: {
  readonly users: readonly OktaUser[];
  readonly clients: readonly OktaClient[];
  readonly accessTokenTtlSeconds?: number;
  readonly audience?: string;
  readonly tls?: boolean;
}): Promise<OktaIdp> {
  const port = await freePort();
  const tls = options.tls ?? true;
  const child: ChildProcess = fork(SERVER, [], {
    env: {
      PATH: process.env.PATH ?? '',
      OKTA_IDP_CONFIG: JSON.stringify({
        port,
        users: options.users,
        clients: options.clients,
        accessTokenTtlSeconds: options.accessTokenTtlSeconds,
        audience: options.audience,
        ...(tls ? { tls: TEST_TLS } : {}),
      }),
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      output += d.toString();
      if (output.includes(`listening ${port}`)) resolve();
    });
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) =>
      reject(new Error(`the Okta-shaped IdP exited (${code}):\n${output}`)),
    );
  });
  await listening;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    issuer: `${tls ? 'https' : 'http'}://localhost:${port}/oauth2/default`,
    port,
    output: () => output,
    fault: (mode, path, faultOptions) =>
      new Promise<void>((resolve) => {
        const onMessage = (message: unknown) => {
          if ((message as { fault?: string }).fault !== mode) return;
          child.off('message', onMessage);
          resolve();
        };
        child.on('message', onMessage);
        child.send({ fault: mode, ...(path ? { path } : {}), ...faultOptions });
      }),
    requests: (path) =>
      new Promise<IdpRequest[]>((resolve) => {
        const onMessage = (message: unknown) => {
          const list = (message as { requests?: IdpRequest[] }).requests;
          if (!list) return;
          child.off('message', onMessage);
          resolve(path ? list.filter((r) => r.path === path) : list);
        };
        child.on('message', onMessage);
        child.send({ report: 'requests' });
      }),
    tokenRequests: () =>
      new Promise<TokenRequest[]>((resolve) => {
        const onMessage = (message: unknown) => {
          const list = (message as { tokenRequests?: TokenRequest[] }).tokenRequests;
          if (!list) return;
          child.off('message', onMessage);
          resolve(list);
        };
        child.on('message', onMessage);
        child.send({ report: 'token-requests' });
      }),
    clientAuthentications: () =>
      new Promise<ClientAuthentication[]>((resolve) => {
        const onMessage = (message: unknown) => {
          const list = (message as { clientAuthentications?: ClientAuthentication[] })
            .clientAuthentications;
          if (!list) return;
          child.off('message', onMessage);
          resolve(list);
        };
        child.on('message', onMessage);
        child.send({ report: 'client-authentications' });
      }),
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
