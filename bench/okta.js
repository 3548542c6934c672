// The external-IdP side of `npm run bench:journeys` (issue 35 item 4): production's shape on one
// machine, as test/support/okta-stack.ts builds it for the tests. The service runs as `npm start`
// runs it with APP_ENV=qa and IDP_MODE=external; the IdP is issue 31's Okta-shaped test IdP
// (test/support/okta-idp/server.mjs), in a process of its own, over TLS with the test authority's
// certificate, which the service trusts through NODE_EXTRA_CA_CERTS as a platform team trusts a
// private one. Loopback only.
//
// In production TLS is terminated in front of the service (TRUST_PROXY=1), so the service itself
// never pays for it. The bench's browser plays that ingress without TLS: a request to the public URL
// goes over plain HTTP to the service's port with X-Forwarded-Proto and X-Forwarded-For, as an
// ingress sets them. What the service pays for its own TLS, to the IdP's token endpoint, it pays here
// as in production.
'use strict';
const { createHash } = require('node:crypto');
const { fork } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const path = require('node:path');
const { CookieJar } = require('tough-cookie');
const { ROOT, freePort, startApp } = require('./harness');
const { requestParts } = require('./signin');
const PRODUCTION_ENV = require('../test/support/production-env.json');

const TLS_DIR = path.join(ROOT, 'test/fixtures/redis-tls');
const TEST_CA = path.join(TLS_DIR, 'ca.crt');
const SERVER = path.join(ROOT, 'test/support/okta-idp/server.mjs');

/** This service's client at the IdP, as okta-stack.ts names it (a made-up secret qa accepts). */
const SERVICE_CLIENT = {
  clientId: '0oa-signon-qa',
  clientSecret: createHash('sha256').update('okta-stack client secret signon').digest('base64url'),
};

/** Where the sign-ins end: psa, whose grading site is GRADING_BASE_URL below. */
const BRAND_ORIGIN = 'https://www.psacard.com';
const BRAND_LINK = `/signin?b=psa&r=${encodeURIComponent(`${BRAND_ORIGIN}/orders`)}`;

/**
 * A complete qa configuration: every address and secret qa requires, as the qa tests start the
 * service (test/support/production-env.json), with this run's addresses and the Okta-shaped IdP.
 */
function qaEnv(publicUrl, issuer) {
  return {
    ...PRODUCTION_ENV.env,
    APP_ENV: 'qa',
    PUBLIC_URL: publicUrl,
    GRADING_BASE_URL: BRAND_ORIGIN,
    IDP_MODE: 'external',
    IDP_ISSUER: issuer,
    IDP_CLIENT_ID: SERVICE_CLIENT.clientId,
    IDP_CLIENT_SECRET: SERVICE_CLIENT.clientSecret,
    NODE_EXTRA_CA_CERTS: TEST_CA,
    // Production's level: the access line and the sign-in events are written (to /dev/null here).
    LOG_LEVEL: 'info',
  };
}

/** Starts the Okta-shaped IdP with `users`; resolves once it listens. */
async function startOktaIdp(users, publicUrl) {
  const port = await freePort();
  const child = fork(SERVER, [], {
    env: {
      PATH: process.env.PATH,
      OKTA_IDP_CONFIG: JSON.stringify({
        port,
        users,
        clients: [
          {
            ...SERVICE_CLIENT,
            redirectUris: [`${publicUrl}/handleloginredirect`],
            postLogoutRedirectUris: [`${publicUrl}/handlelogoutredirect`],
          },
          // Each brand's own client (issue 49 item 3): a brand hop's tokens are issued to it.
          ...Object.values(JSON.parse(PRODUCTION_ENV.env.BRAND_CLIENTS)).map((brand) => ({
            ...brand,
            redirectUris: [
              `${publicUrl}/handleloginredirect`,
              `${publicUrl}/handlebrandtokenredirect`,
            ],
          })),
        ],
        tls: { key: path.join(TLS_DIR, 'server.key'), cert: path.join(TLS_DIR, 'server.crt') },
      }),
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      output += d;
      if (output.includes(`listening ${port}`)) resolve();
    });
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) =>
      reject(new Error(`the Okta-shaped IdP exited (${code}):\n${output}`)),
    );
  });
  return {
    issuer: `https://localhost:${port}/oauth2/default`,
    pid: child.pid,
    output: () => output,
    stop: () => child.kill('SIGTERM'),
  };
}

/**
 * A browser behind the ingress: `request(jar, url, form)` as bench/signin.js's, over node:http(s)
 * with keep-alive (a browser keeps its connections), trusting the test authority for the IdP, and
 * sending what is addressed to the public URL to the service's own port as an ingress would.
 */
function browser(publicUrl, appUrl) {
  const ca = fs.readFileSync(TEST_CA);
  const agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true, ca }),
  };
  const publicOrigin = new URL(publicUrl).origin;
  const app = new URL(appUrl);
  return async function request(jar, url, form) {
    const target = new URL(url);
    const { headers, body } = await requestParts(jar, url, form);
    let options;
    if (target.origin === publicOrigin) {
      headers.host = target.host;
      headers['x-forwarded-proto'] = 'https';
      headers['x-forwarded-for'] = '127.0.0.1';
      options = {
        protocol: 'http:',
        hostname: '127.0.0.1',
        port: app.port,
        agent: agents['http:'],
      };
    } else {
      options = {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        agent: agents[target.protocol],
      };
    }
    const res = await new Promise((resolve, reject) => {
      const req = (options.protocol === 'https:' ? https : http).request(
        {
          ...options,
          method: form ? 'POST' : 'GET',
          path: target.pathname + target.search,
          headers,
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => resolve({ res, body: Buffer.concat(chunks).toString('utf8') }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    const setCookies = res.res.headers['set-cookie'] ?? [];
    for (const c of setCookies) await jar.setCookie(c, url, { ignoreError: true });
    return {
      status: res.res.statusCode,
      url,
      location: res.res.headers.location ?? null,
      body: res.body,
    };
  };
}

/**
 * Production's shape with the Okta-shaped IdP: the IdP with `users`, the service in qa against it.
 * `signIn(user)` is one complete password sign-in in a fresh browser: the brand's link, Okta's sign-in
 * form, the landing, the brand redirect; it returns the URL the brand received and the requests made.
 */
async function startOktaStack(users, extraEnv = {}) {
  const publicUrl = `https://localhost:${await freePort()}`;
  const idp = await startOktaIdp(users, publicUrl);
  let app;
  try {
    app = await startApp({ ...qaEnv(publicUrl, idp.issuer), ...extraEnv });
  } catch (error) {
    idp.stop();
    throw error;
  }
  const request = browser(publicUrl, app.url);

  async function follow(jar, res, hops) {
    while (res.status >= 300 && res.status < 400 && res.location) {
      const next = new URL(res.location, res.url);
      if (next.origin === BRAND_ORIGIN) return res;
      hops.count++;
      res = await request(jar, next.href);
    }
    return res;
  }

  async function signIn(user) {
    const jar = new CookieJar();
    const hops = { count: 1 };
    const form = await follow(jar, await request(jar, `${publicUrl}${BRAND_LINK}`), hops);
    const action = /<form method="post" action="([^"]+)"/.exec(form.body)?.[1];
    if (form.status !== 200 || !action)
      throw new Error(
        `no Okta sign-in form at ${form.url} (${form.status}): ${form.body.slice(0, 300)}`,
      );
    hops.count++;
    const end = await follow(
      jar,
      await request(jar, new URL(action, form.url).href, {
        username: user.email,
        password: user.password,
      }),
      hops,
    );
    const location = end.location && new URL(end.location, end.url);
    if (end.status !== 302 || location?.origin !== BRAND_ORIGIN)
      throw new Error(
        `the sign-in did not end at the brand: ${end.status} ${end.url} ${end.body.slice(0, 300)}`,
      );
    return { brandUrl: location, requests: hops.count };
  }

  return {
    app,
    idp,
    signIn,
    stop: async () => {
      await app.stopped();
      idp.stop();
    },
  };
}

/** Collectors of the Okta-shaped org, as okta-stack.ts's usual one: the §3 claims in the ID token. */
function oktaUsers(count, run) {
  return Array.from({ length: count }, (_, i) => ({
    uid: `00ubench${run}${i}`,
    email: `bench-${run}-${i}@example.com`,
    password: `Okta-bench-${i}!`,
    name: `Bench Collector ${i}`,
    collectorsId: String(7000 + i),
    claimsIn: 'idToken',
  }));
}

module.exports = { oktaUsers, startOktaStack };
