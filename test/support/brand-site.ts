import { ChildProcess, spawn } from 'node:child_process';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { freePort } from './free-port';
import { TEST_CA } from './okta-idp';
import { TlsFront, startTlsFront } from './tls-front';

/** The reference brand site (issue 49 item 8): examples/brand-site, what a brand team copies. */
export const BRAND_SITE_MAIN = path.resolve(__dirname, '../../examples/brand-site/server.mjs');

/** Where the brand site takes a sign-in back: its tokenURL. */
export const BRAND_CALLBACK_PATH = '/auth/signin-callback';

export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** A session as the brand site's test hook reports it (GET /__state): never its tokens. */
export interface BrandSiteSession {
  readonly id: string;
  readonly clientId: string;
  readonly via: 'tokens-in-url' | 'handoff-code' | 'app';
  readonly uid: string;
  readonly sub: string;
  readonly collectorsId?: number;
  readonly si?: string;
  readonly accessTokenJti: string;
  readonly verifiedBy: string[];
  readonly endedBy?: string;
  readonly refreshes: {
    status?: number;
    error?: string;
    accessTokenJti?: string;
    previousJti?: string;
  }[];
}

/** A logout token the brand site received: decoded as sent, and whether it verified. */
export interface ReceivedLogoutToken {
  readonly ok: boolean;
  readonly error?: string;
  readonly header?: Record<string, unknown>;
  readonly claims?: Record<string, unknown>;
  readonly endedSessions?: number;
}

export interface BrandSiteState {
  readonly brand: string;
  /** The Node version the brand site runs on (`v24.9.0`). */
  readonly node: string;
  readonly clientId: string;
  readonly sessions: BrandSiteSession[];
  readonly logoutTokens: ReceivedLogoutToken[];
  readonly redemptions: { via: string; ok: boolean; status?: number; error?: string }[];
}

/**
 * A brand site's public address, chosen before the service starts so that BRAND_URLS can name it.
 * Its port stays reserved (a placeholder listens on it) until the brand site, or its TLS front,
 * takes it: the service's start in between picks free ports of its own, and so do the other test
 * files running beside this one.
 */
export interface BrandSiteAddress {
  /** Its public origin: `http://127.0.0.1:<port>`, or `https://…` behind a TLS front. */
  readonly url: string;
  /** The public port: the brand site's own, or its TLS front's. */
  readonly publicPort: number;
  /** Behind a TLS front (qa's rules: tokens and logout tokens travel over https only). */
  readonly tls: boolean;
  /** Frees the reserved port, for the brand site (or its front) to listen on at once. */
  release(): Promise<void>;
}

export interface BrandSite {
  /** Its public origin. */
  readonly url: string;
  /** The port the brand site itself listens on (plain HTTP, 127.0.0.1): its test hook's. */
  readonly port: number;
  /** The test hook's view (BRAND_SITE_TEST=1). */
  state(): Promise<BrandSiteState>;
  /**
   * Refreshes a session's refresh token at the IdP with the brand's client, as its refresh action
   * does; for a session a new sign-in replaced, the refresh token it held then.
   */
  refreshSession(id: string): Promise<{ status?: number; error?: string }>;
  /** POST /app/redeem: what the brand's app back end does with the app's one-time code. */
  redeemAppCode(code: string): Promise<{ status: number; body: Record<string, unknown> }>;
  output(): string;
  close(): Promise<void>;
}

/** A free address for a brand site, reserved: another origin than the service's `localhost`. */
export async function brandSiteAddress(options: { tls?: boolean } = {}): Promise<BrandSiteAddress> {
  const placeholder = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => placeholder.listen(0, '127.0.0.1', resolve));
  // A reservation that is never taken (a hook failed before) keeps no test process alive.
  placeholder.unref();
  const publicPort = (placeholder.address() as AddressInfo).port;
  let released: Promise<void> | undefined;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${publicPort}`,
    publicPort,
    tls: options.tls ?? false,
    release: () =>
      (released ??= new Promise<void>((resolve) => placeholder.close(() => resolve()))),
  };
}

/**
 * Starts examples/brand-site as a real process (on `node`, the test runner's by default), configured
 * by its environment variables only, as its README says; resolves once it listens. Behind a TLS front
 * it trusts the test authority (NODE_EXTRA_CA_CERTS), as a brand trusts a private one.
 */
export async function startBrandSite(options: {
  readonly address: BrandSiteAddress;
  readonly brand: string;
  readonly signonUrl: string;
  readonly idpIssuer: string;
  readonly client: ClientCredentials;
  readonly app?: ClientCredentials;
  readonly node?: string;
}): Promise<BrandSite> {
  const { address } = options;
  // Behind a front, the brand site listens on a port of its own and the front on the public one.
  const port = address.tls ? await freePort() : address.publicPort;
  if (!address.tls) await address.release();
  const child: ChildProcess = spawn(options.node ?? process.execPath, [BRAND_SITE_MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      BRAND: options.brand,
      SIGNON_URL: options.signonUrl,
      IDP_ISSUER: options.idpIssuer,
      CLIENT_ID: options.client.clientId,
      CLIENT_SECRET: options.client.clientSecret,
      ...(options.app
        ? { APP_CLIENT_ID: options.app.clientId, APP_CLIENT_SECRET: options.app.clientSecret }
        : {}),
      PORT: String(port),
      BRAND_SITE_URL: address.url,
      BRAND_SITE_TEST: '1',
      NODE_EXTRA_CA_CERTS: TEST_CA,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      output += d.toString();
      if (output.includes('listening on')) resolve();
    });
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => reject(new Error(`the brand site exited (${code}):\n${output}`)));
  });
  let front: TlsFront | undefined;
  if (address.tls) {
    await address.release();
    front = await startTlsFront(port, address.publicPort);
  }
  const local = `http://127.0.0.1:${port}`;
  const json = async (res: Response) => (await res.json()) as Record<string, unknown>;
  return {
    url: address.url,
    port,
    state: async () => (await (await fetch(`${local}/__state`)).json()) as BrandSiteState,
    refreshSession: async (id) =>
      json(
        await fetch(`${local}/__test/sessions/${encodeURIComponent(id)}/refresh`, {
          method: 'POST',
        }),
      ),
    redeemAppCode: async (code) => {
      const res = await fetch(`${local}/app/redeem`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ code }).toString(),
      });
      return { status: res.status, body: await json(res) };
    },
    output: () => output,
    close: async () => {
      await front?.close();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
