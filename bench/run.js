// `npm run bench`: the product's hot paths under autocannon, beside a NestJS hello server measured in
// the same run, printing ratios (absolute numbers drift between machines; ratios do not). Loopback only.
'use strict';
const os = require('node:os');
const { CONNECTIONS, DEMO_PASSWORD, run, startApp, startHello } = require('./harness');
const { signIn } = require('./signin');

const DURATION = Number(process.env.BENCH_DURATION ?? 10);

function summary(name, r) {
  return {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    cpu: r.cpuPerRequest,
    statuses: { '2xx': r['2xx'], '3xx': r['3xx'], '4xx': r['4xx'], '5xx': r['5xx'] },
  };
}

async function main() {
  const results = [];
  const hello = await startHello();
  try {
    results.push(
      summary(
        'NestJS hello (reference)',
        await run({ duration: DURATION, url: `${hello.url}/`, pid: hello.pid }),
      ),
    );
  } finally {
    hello.stop();
  }

  const app = await startApp();
  try {
    // The floor: this service's own middleware stack (security headers, request ids, cookies, the
    // guard) on a route that does no work and writes no log line. No route can beat this ratio.
    results.push(
      summary(
        'floor: app /healthz (no work)',
        await run({ duration: DURATION, url: `${app.url}/healthz`, pid: app.pid }),
      ),
    );
    const cookie = await signIn(app.url, 'collector@example.com', DEMO_PASSWORD);
    const target = `${app.url}/signin?b=psa&r=${encodeURIComponent('https://dev.psacard.com/orders')}`;
    results.push(
      summary(
        'signed-in /signin -> brand redirect',
        await run({ duration: DURATION, url: target, headers: { cookie }, pid: app.pid }),
      ),
    );
    // Issue 6: the signed-in shell page, server-rendered with its hydration data.
    results.push(
      summary(
        '/collection (signed in, rendered)',
        await run({
          duration: DURATION,
          url: `${app.url}/collection`,
          headers: { cookie },
          pid: app.pid,
        }),
      ),
    );
    // Issue 5: a batched GET of account.status with two more queries (§7 has one query procedure).
    const batch = `${app.url}/api/collectors-web/trpc/account.status,account.status,account.status?batch=1&input=${encodeURIComponent('{}')}`;
    results.push(
      summary(
        'API: batched GET of 3 queries',
        await run({
          duration: DURATION,
          url: batch,
          headers: { cookie, 'x-locale': 'en-US' },
          pid: app.pid,
        }),
      ),
    );
  } finally {
    app.stop();
  }

  // Access tokens that are always stale (1 s lifetime, refreshed 30 s early): every request refreshes,
  // concurrent ones of the session share one refresh (single flight).
  const refreshing = await startApp({ IDP_ACCESS_TOKEN_TTL_SECONDS: '1' });
  try {
    const cookie = await signIn(refreshing.url, 'collector@example.com', DEMO_PASSWORD);
    const target = `${refreshing.url}/signin?b=psa`;
    results.push(
      summary(
        'expired token: /signin with refresh',
        await run({ duration: DURATION, url: target, headers: { cookie }, pid: refreshing.pid }),
      ),
    );
  } finally {
    refreshing.stop();
  }

  const reference = results[0].rps;
  const referenceCpu = results[0].cpu;
  const rows = results.map((r) => ({
    scenario: r.name,
    'req/s': Math.round(r.rps),
    'ratio to hello': (r.rps / reference).toFixed(2),
    // The steadier figure on a shared machine: the server's CPU time per request, and hello's
    // divided by it (what the req/s ratio would be if both had the core to themselves).
    'CPU µs/req': r.cpu === undefined ? '-' : Math.round(r.cpu),
    'CPU ratio':
      r.cpu === undefined || referenceCpu === undefined ? '-' : (referenceCpu / r.cpu).toFixed(2),
    'p50 ms': r.p50,
    'p99 ms': r.p99,
    errors: r.errors,
    statuses: Object.entries(r.statuses)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k}:${n}`)
      .join(' '),
  }));
  console.table(rows);
  const shell = results.find((r) => r.name.startsWith('/collection'));
  if (shell) {
    const shellRatio = shell.rps / reference;
    console.log(
      `/collection: ${shellRatio.toFixed(2)} x hello (target >= 0.30): ${shellRatio >= 0.3 && shell.errors === 0 && shell.statuses['5xx'] === 0 ? 'MET' : 'NOT MET'}`,
    );
  }
  const api = results.find((r) => r.name.startsWith('API'));
  if (api) {
    const apiRatio = api.rps / reference;
    console.log(
      `API batch: ${apiRatio.toFixed(2)} x hello (target >= 0.35): ${apiRatio >= 0.35 && api.errors === 0 ? 'MET' : 'NOT MET'}`,
    );
  }
  const signedIn = results.find((r) => r.name.startsWith('signed-in'));
  const ratio = signedIn.rps / reference;
  const ok =
    ratio >= 0.6 && signedIn.p99 < 50 && signedIn.errors === 0 && signedIn.statuses['5xx'] === 0;
  console.log(
    `signed-in redirect: ${ratio.toFixed(2)} x hello (target >= 0.60), p99 ${signedIn.p99} ms (target < 50): ${ok ? 'MET' : 'NOT MET'}`,
  );
  console.log(
    `${CONNECTIONS} connections, ${DURATION} s per scenario, ${os.cpus().length} cores, Node ${process.version}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
