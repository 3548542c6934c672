#!/usr/bin/env node
// `npm run sandbox` (issue 49 item 9): a brand team's sandbox on one machine. This service, built as
// `npm start` builds it, runs with APP_ENV=dev and IDP_MODE=external beside the Okta-shaped test
// identity provider (test/support/okta-idp/server.mjs: Okta's paths and token shapes, over TLS with
// the test certificate authority), which knows three collectors and a development client for every
// redirect brand. It prints the addresses, the collectors, the brand clients and the exact command
// that points examples/brand-site at it; Ctrl-C stops everything.
//
//   npm run sandbox                     build, then start the IdP and the service
//   npm run sandbox -- --brand-site     also start examples/brand-site as the sandbox's brand
//   npm run sandbox -- --no-build       use the build already in dist/
//
// Environment (all optional): SANDBOX_PORT (the service, 3333), SANDBOX_MANAGEMENT_PORT (its
// management listener: /healthz, /readyz, /metrics; 9000), SANDBOX_IDP_PORT (the IdP, 3334),
// SANDBOX_BRAND (the brand whose tokenURL and back-channel URI point at the brand site, psa),
// SANDBOX_BRAND_SITE_URL (http://127.0.0.1:4000), DATA_DIR (data/sandbox), LOG_LEVEL and LOG_FORMAT
// (the service's), SANDBOX_MAIN (the service's main.js, dist/src/main.js).
'use strict';
const { fork, spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
/** How production runs the service (`npm start`, the image): its Node flags and environment. */
const RUNTIME = require('./runtime.json');
const IDP_SERVER = path.join(ROOT, 'test', 'support', 'okta-idp', 'server.mjs');
const BRAND_SITE = path.join(ROOT, 'examples', 'brand-site', 'server.mjs');
const TLS_DIR = path.join(ROOT, 'test', 'fixtures', 'redis-tls');
/** The test certificate authority: the IdP's certificate (localhost, 127.0.0.1) is signed by it. */
const TEST_CA = path.join(TLS_DIR, 'ca.crt');
const TEST_TLS = { key: path.join(TLS_DIR, 'server.key'), cert: path.join(TLS_DIR, 'server.crt') };

/** The IdP's collectors: the same three as the external-IdP tests (test/support/okta-stack.ts). */
const COLLECTORS = [
  {
    uid: '00u1plainCollector',
    email: 'plain@example.com',
    password: 'Okta-shaped-1!',
    name: 'Plain Collector',
    collectorsId: '4242',
    claimsIn: 'idToken',
    about: 'the usual org: CollectorsId in both tokens (a string of digits)',
  },
  {
    uid: '00u2accessToken',
    email: 'access@example.com',
    password: 'Okta-shaped-2!',
    name: 'Access Claims',
    collectorsId: 5151,
    claimsIn: 'accessToken',
    flags: { setupMfa: true },
    about: 'every custom claim in the access token only; must set up a second factor',
  },
  {
    uid: '00u3userinfoOnly',
    email: 'userinfo@example.com',
    password: 'Okta-shaped-3!',
    name: 'Userinfo Claims',
    collectorsId: '6161',
    claimsIn: 'userinfo',
    flags: { isMigrating: true },
    about: 'no custom claim in any token, userinfo alone; account being migrated',
  },
];

const args = new Set(process.argv.slice(2));
const env = process.env;
const port = Number(env.SANDBOX_PORT || 3333);
const managementPort = Number(env.SANDBOX_MANAGEMENT_PORT || 9000);
const idpPort = Number(env.SANDBOX_IDP_PORT || 3334);
const brand = env.SANDBOX_BRAND || 'psa';
const brandSiteUrl = (env.SANDBOX_BRAND_SITE_URL || 'http://127.0.0.1:4000').replace(/\/+$/, '');
const publicUrl = `http://localhost:${port}`;
const issuer = `https://localhost:${idpPort}/oauth2/default`;
const serviceMain = path.resolve(env.SANDBOX_MAIN || path.join(ROOT, 'dist', 'src', 'main.js'));
const dataDir = path.resolve(env.DATA_DIR || path.join(ROOT, 'data', 'sandbox'));

/** The processes started, in order; stopped in reverse. */
const children = [];
let stopping = false;

function log(line = '') {
  process.stdout.write(`${line}\n`);
}

function build() {
  log('sandbox: building the service (npm run build)');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the build failed');
}

/** What the build knows: the redirect brands and their development clients (src/config/env-vars.ts). */
function productFacts() {
  const src = path.dirname(serviceMain);
  const { REDIRECT_BRANDS } = require(path.join(src, 'shared', 'brand.js'));
  const { developerBrandClients, DEVELOPER_SECRETS, EMBEDDED_CLIENT_ID } = require(
    path.join(src, 'config', 'env-vars.js'),
  );
  return {
    redirectBrands: REDIRECT_BRANDS,
    brandClients: developerBrandClients(),
    serviceClient: {
      clientId: EMBEDDED_CLIENT_ID,
      clientSecret: DEVELOPER_SECRETS.IDP_CLIENT_SECRET,
    },
  };
}

/** Starts the Okta-shaped IdP; resolves once it listens. */
function startIdp({ brandClients, serviceClient }) {
  const clients = [
    {
      ...serviceClient,
      redirectUris: [`${publicUrl}/handleloginredirect`],
      postLogoutRedirectUris: [`${publicUrl}/handlelogoutredirect`],
    },
    // A brand's app lists both landings: its hop's own grant, and the brand code redirect.
    ...Object.values(brandClients).map((client) => ({
      ...client,
      redirectUris: [`${publicUrl}/handleloginredirect`, `${publicUrl}/handlebrandtokenredirect`],
    })),
  ];
  const child = fork(IDP_SERVER, [], {
    env: {
      PATH: env.PATH ?? '',
      OKTA_IDP_CONFIG: JSON.stringify({
        port: idpPort,
        users: COLLECTORS.map(({ about: _about, ...user }) => user),
        clients,
        tls: TEST_TLS,
      }),
    },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  return started('the Okta-shaped IdP', child, (resolve) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      if (output.includes(`listening ${idpPort}`)) resolve();
    });
  });
}

/**
 * Starts the service as `npm start` runs it, with APP_ENV=dev; resolves once /readyz on its
 * management listener says ok (docs/operating.md "The management port").
 */
function startService({ brandClients, serviceClient }) {
  const child = spawn(process.execPath, [...RUNTIME.nodeFlags, serviceMain], {
    cwd: ROOT,
    env: {
      PATH: env.PATH ?? '',
      ...RUNTIME.env,
      APP_ENV: 'dev',
      IDP_MODE: 'external',
      PORT: String(port),
      MANAGEMENT_PORT: String(managementPort),
      PUBLIC_URL: publicUrl,
      IDP_ISSUER: issuer,
      IDP_CLIENT_ID: serviceClient.clientId,
      IDP_CLIENT_SECRET: serviceClient.clientSecret,
      BRAND_CLIENTS: JSON.stringify(brandClients),
      BRAND_URLS: JSON.stringify({ [brand]: { tokenURL: `${brandSiteUrl}/auth/signin-callback` } }),
      BACKCHANNEL_LOGOUT_URIS: JSON.stringify({ [brand]: `${brandSiteUrl}/backchannel-logout` }),
      // The IdP presents a certificate of the test authority, as Okta behind a private one would.
      NODE_EXTRA_CA_CERTS: TEST_CA,
      DATA_DIR: dataDir,
      LOG_FORMAT: env.LOG_FORMAT || (process.stdout.isTTY ? 'pretty' : 'json'),
      ...(env.LOG_LEVEL ? { LOG_LEVEL: env.LOG_LEVEL } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return started('the sign-on service', child, (resolve) => {
    const poll = async () => {
      if (child.exitCode !== null || stopping) return;
      try {
        const res = await fetch(`http://127.0.0.1:${managementPort}/readyz`);
        if (res.status === 200) return resolve();
      } catch {
        // not listening yet
      }
      setTimeout(() => void poll(), 200);
    };
    void poll();
  });
}

/** Starts examples/brand-site as the sandbox's brand; resolves once it listens. */
function startBrandSite(brandClients) {
  const child = spawn(process.execPath, [BRAND_SITE], {
    cwd: ROOT,
    env: { PATH: env.PATH ?? '', ...brandSiteEnv(brandClients) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return started('the brand site', child, (resolve) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      output += chunk.toString();
      if (output.includes('listening on')) resolve();
    });
  });
}

/** The environment examples/brand-site reads, for the sandbox's brand. */
function brandSiteEnv(brandClients) {
  const url = new URL(brandSiteUrl);
  const client = brandClients[brand];
  return {
    BRAND: brand,
    SIGNON_URL: publicUrl,
    IDP_ISSUER: issuer,
    CLIENT_ID: client.clientId,
    CLIENT_SECRET: client.clientSecret,
    PORT: url.port || (url.protocol === 'https:' ? '443' : '80'),
    BRAND_SITE_URL: brandSiteUrl,
    NODE_EXTRA_CA_CERTS: TEST_CA,
  };
}

/**
 * Tracks a child: resolves when `ready` says so; rejects if it exits first. Once the sandbox is up,
 * a child that exits stops the sandbox.
 */
function started(name, child, ready) {
  children.push({ name, child });
  return new Promise((resolve, reject) => {
    let up = false;
    child.once('exit', (code, signal) => {
      if (stopping) return;
      const why = `${name} exited (${signal ?? code})`;
      if (!up) return reject(new Error(why));
      // Ctrl-C in a terminal reaches the children too: a child that stopped on it is no failure.
      const asked = code === 0 || signal === 'SIGINT' || signal === 'SIGTERM';
      if (!asked) log(`sandbox: ${why}; stopping`);
      void stop(asked ? 0 : 1);
    });
    ready(() => {
      up = true;
      resolve();
    });
  });
}

/** How long the children get to stop on their own: Ctrl-C in a terminal reaches them as well. */
const OWN_STOP_MS = 1000;

async function stop(code) {
  if (stopping) return;
  stopping = true;
  const running = ({ child }) => child.exitCode === null && child.signalCode === null;
  const exited = ({ child }) => new Promise((resolve) => child.once('exit', resolve));
  await Promise.race([
    Promise.all(children.filter(running).map(exited)),
    new Promise((resolve) => setTimeout(resolve, OWN_STOP_MS)),
  ]);
  for (const entry of [...children].reverse()) {
    if (!running(entry)) continue;
    const gone = exited(entry);
    entry.child.kill('SIGTERM');
    const timer = setTimeout(() => entry.child.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(timer);
  }
  process.exit(code);
}

function banner({ brandClients }) {
  const shell = Object.entries(brandSiteEnv(brandClients))
    .map(([name, value]) => `${name}=${value}`)
    .join(' \\\n    ');
  const app = brandClients[`${brand}mobile`];
  const pad = (text, width) => String(text).padEnd(width);
  log();
  log('Brand sandbox ready (Ctrl-C stops everything)');
  log();
  log(`  Sign-on service   ${publicUrl}   (APP_ENV=dev, IDP_MODE=external)`);
  log(`  Okta-shaped IdP   ${issuer}`);
  log(`  IdP discovery     ${issuer}/.well-known/openid-configuration`);
  log(`  Its keys (t)      ${issuer}/v1/keys`);
  log(`  Logout-token keys ${publicUrl}/.well-known/jwks.json`);
  log(`  Test authority    ${TEST_CA}   (NODE_EXTRA_CA_CERTS)`);
  log();
  log('  Collectors at the IdP:');
  for (const c of COLLECTORS)
    log(`    ${pad(c.email, 22)} ${pad(c.password, 16)} uid ${pad(c.uid, 20)} ${c.about}`);
  log();
  log(
    '  Brand clients (every redirect brand: brand-<code>, local-dev-brand-secret-<code>-not-for-real-use):',
  );
  for (const code of [brand, `${brand}mobile`]) {
    const client = brandClients[code];
    if (client) log(`    ${pad(code, 10)} ${pad(client.clientId, 16)} ${client.clientSecret}`);
  }
  log();
  log(`  ${brand}'s tokenURL          ${brandSiteUrl}/auth/signin-callback`);
  log(`  ${brand}'s back-channel URI  ${brandSiteUrl}/backchannel-logout`);
  log();
  log('  Point examples/brand-site at it:');
  log(`    ${shell} \\`);
  if (app) log(`    APP_CLIENT_ID=${app.clientId} APP_CLIENT_SECRET=${app.clientSecret} \\`);
  log('    node examples/brand-site/server.mjs');
  log(`  then open ${brandSiteUrl}/ and sign in as plain@example.com.`);
  log();
  log('sandbox ready');
}

async function main() {
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop(0));
  // However this process ends, nothing it started outlives it.
  process.on('exit', () => {
    for (const { child } of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  if (!args.has('--no-build')) build();
  if (!fs.existsSync(serviceMain))
    throw new Error(`no build at ${serviceMain}: run it without --no-build (it builds first)`);
  const facts = productFacts();
  const missing = facts.redirectBrands.filter((code) => !facts.brandClients[code]);
  if (missing.length > 0) throw new Error(`no development client for ${missing.join(', ')}`);
  await startIdp(facts);
  await startService(facts);
  if (args.has('--brand-site')) await startBrandSite(facts.brandClients);
  banner(facts);
}

main().catch((error) => {
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  void stop(1);
});
