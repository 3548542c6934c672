import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { Browser } from '../support/browser';
import { freePort } from '../support/free-port';
import { OKTA_USERS, throughOkta } from '../support/okta-stack';
import { buildApp, eventually } from '../support/process-app';
import { throughBrandGrant } from '../support/signin-journey';
import { tempDataDir } from '../support/test-config';
import { trustingFetch } from '../support/tls-front';

const SANDBOX = path.resolve(__dirname, '../../scripts/sandbox.js');

/**
 * Issue 49 item 9: `npm run sandbox`, a brand team's one command, starts this service (APP_ENV=dev,
 * IDP_MODE=external) beside the Okta-shaped IdP and, with --brand-site, the reference brand site;
 * each answers, and one Ctrl-C (SIGINT) stops them all. With the run's build (--no-build): the
 * script's own `npm run build` is what `npm start` runs too.
 */
describe('npm run sandbox (scripts/sandbox.js)', () => {
  let child: ChildProcess;
  let output = '';
  const ports = { service: 0, management: 0, idp: 0, brandSite: 0 };
  let exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  beforeAll(async () => {
    ports.service = await freePort();
    ports.management = await freePort();
    ports.idp = await freePort();
    ports.brandSite = await freePort();
    child = spawn(process.execPath, [SANDBOX, '--no-build', '--brand-site'], {
      env: {
        PATH: process.env.PATH ?? '',
        SANDBOX_MAIN: buildApp(),
        SANDBOX_PORT: String(ports.service),
        SANDBOX_MANAGEMENT_PORT: String(ports.management),
        SANDBOX_IDP_PORT: String(ports.idp),
        SANDBOX_BRAND_SITE_URL: `http://127.0.0.1:${ports.brandSite}`,
        DATA_DIR: tempDataDir(),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    exit = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    await eventually(
      'the sandbox is ready',
      () => Promise.resolve(/^sandbox ready$/m.test(output)),
      40_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${output}`);
    });
  }, 60_000);
  afterAll(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exit;
  });

  it('starts the service, the IdP and the brand site, and says how to point a brand site at them', async () => {
    const ready = await fetch(`http://127.0.0.1:${ports.management}/readyz`);
    expect(ready.status).toBe(200);
    const issuer = `https://localhost:${ports.idp}/oauth2/default`;
    const discovery = await trustingFetch(`${issuer}/.well-known/openid-configuration`);
    expect(await discovery.json()).toMatchObject({ issuer, jwks_uri: `${issuer}/v1/keys` });
    // The service sends a collector to that IdP, with its own client.
    const signin = await fetch(`http://127.0.0.1:${ports.service}/signin?b=psa`, {
      redirect: 'manual',
    });
    expect(signin.status).toBe(302);
    expect(signin.headers.get('location')).toMatch(new RegExp(`^${issuer}/v1/authorize\\?`));
    expect((await fetch(`http://127.0.0.1:${ports.brandSite}/healthz`)).status).toBe(200);
    // The printed command names the brand site's configuration.
    expect(output).toContain(`SIGNON_URL=http://localhost:${ports.service}`);
    expect(output).toContain(`IDP_ISSUER=${issuer}`);
    expect(output).toContain('CLIENT_ID=brand-psa');
    expect(output).toContain('CLIENT_SECRET=local-dev-brand-secret-psa-not-for-real-use');
    expect(output).toContain('plain@example.com');
  });

  it('signs a demo collector in to the sandbox’s brand, whose t has production’s (Okta’s) shape', async () => {
    // A brand team's browser: a cookie jar, the sandbox's IdP trusted through the test authority.
    const browser = new Browser({}, trustingFetch);
    const service = `http://localhost:${ports.service}`;
    const issuer = `https://localhost:${ports.idp}/oauth2/default`;
    const start = await browser.get(`${service}/signin?b=psa`);
    const callback = await throughOkta(browser, start, OKTA_USERS.plain);
    const landed = await throughBrandGrant(browser, await browser.get(callback.href));
    expect(landed.status).toBe(302);
    const target = new URL(landed.headers.get('location') ?? '', landed.url);
    // The sandbox's brand (psa) is the brand site: its tokenURL receives si, t and rt.
    expect(`${target.origin}${target.pathname}`).toBe(
      `http://127.0.0.1:${ports.brandSite}/auth/signin-callback`,
    );
    expect(target.searchParams.get('si')).toEqual(expect.any(String));
    expect(target.searchParams.get('rt')).toEqual(expect.any(String));
    const t = target.searchParams.get('t') ?? '';
    // Verified as a brand does (docs/brand-contract.md §4): the IdP's keys, issuer, audience.
    const keys = (await (await trustingFetch(`${issuer}/v1/keys`)).json()) as JSONWebKeySet;
    const { payload, protectedHeader } = await jwtVerify(t, createLocalJWKSet(keys), {
      issuer,
      audience: 'api://default',
      algorithms: ['RS256'],
    });
    // Okta's shape (§5 there): no typ, sub the login, uid the user id, the collector number, and
    // cid the brand's own development client.
    expect(decodeProtectedHeader(t)).not.toHaveProperty('typ');
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({
      iss: issuer,
      sub: 'plain@example.com',
      uid: '00u1plainCollector',
      CollectorsId: '4242',
      cid: 'brand-psa',
    });
  }, 30_000);

  it('stops everything on Ctrl-C (SIGINT)', async () => {
    child.kill('SIGINT');
    expect(await exit).toEqual({ code: 0, signal: null });
    await expect(fetch(`http://127.0.0.1:${ports.service}/healthz`)).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${ports.management}/healthz`)).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${ports.brandSite}/healthz`)).rejects.toThrow();
    await expect(
      trustingFetch(`https://localhost:${ports.idp}/oauth2/default/v1/keys`),
    ).rejects.toThrow();
  }, 20_000);
});
