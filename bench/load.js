// `npm run bench:load` (issue 7 item 7): a bounded soak over the main paths, twice in a row, against
// the real app as a production-like child process, with the NestJS hello server measured first as the
// reference. It reports errors (must be 0), requests/s as a ratio to hello, and the app's memory
// (RSS) before and after each soak: at most 250 MB, and no growth from the first soak to the second.
// BENCH_SOAK_SECONDS shortens the soaks (default 60). Loopback only. Exits 1 when a limit is missed.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const { CONNECTIONS, run, signedIn, startApp, startHello } = require('./harness');

const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const COLLECTORS = 10;
const RSS_LIMIT_MB = 250;
/** Growth from the end of the first soak to the end of the second that still counts as none. */
const GROWTH_TOLERANCE_MB = 15;
/** The process is left alone this long after a soak before its memory is read ("after"). */
const SETTLE_MS = 5000;

function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}

/** The main paths, each collector's cookie in turn: the sign-in redirect, the shell page, the API, probes, assets. */
function requests(app, cookies, asset) {
  const batch = `/api/collectors-web/trpc/account.status,account.status,account.status?batch=1&input=${encodeURIComponent('{}')}`;
  const paths = [
    `/signin?b=psa&r=${encodeURIComponent('https://dev.psacard.com/orders')}`,
    '/collection',
    batch,
    '/healthz',
    asset,
  ];
  let n = 0;
  return paths.map((path) => ({
    method: 'GET',
    path,
    setupRequest: (req) => ({
      ...req,
      headers: { ...req.headers, cookie: cookies[n++ % cookies.length], 'x-locale': 'en-US' },
    }),
  }));
}

function failures(r) {
  // Every answer of these paths is 2xx or 3xx; anything else, and any socket error, is a failure.
  return r.errors + r.timeouts + r['4xx'] + r['5xx'];
}

async function main() {
  const hello = await startHello();
  let reference;
  try {
    reference = (await run({ url: `${hello.url}/`, duration: 10 })).requests.average;
  } finally {
    hello.stop();
  }

  const app = await startApp();
  const rows = [];
  let ok = true;
  try {
    const cookies = [];
    for (let i = 0; i < COLLECTORS; i++) {
      cookies.push((await signedIn(app.url)).cookie);
    }
    const page = await (
      await fetch(`${app.url}/collection`, { headers: { cookie: cookies[0] } })
    ).text();
    const asset = /<script type="module" src="([^"]+)"/.exec(page)?.[1] ?? '/healthz';
    // Warm up (JIT, caches) so the first reading is not the cold start.
    await run({ url: app.url, duration: 5, requests: requests(app, cookies, asset) });
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const before = rssMb(app.pid);
    const after = [];
    let peak = before;
    for (let soak = 1; soak <= 2; soak++) {
      // The highest RSS while the soak runs, sampled twice a second.
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(app.pid))), 500);
      const r = await run({
        url: app.url,
        duration: SOAK_SECONDS,
        requests: requests(app, cookies, asset),
      }).finally(() => clearInterval(sampler));
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      after.push(rssMb(app.pid));
      rows.push({
        soak,
        'req/s': Math.round(r.requests.average),
        'ratio to hello': (r.requests.average / reference).toFixed(2),
        'p99 ms': r.latency.p99,
        requests: r.requests.total,
        errors: failures(r),
        'RSS MB after': after[soak - 1],
        'peak RSS MB so far': peak,
      });
      if (failures(r) > 0) ok = false;
    }
    console.table(rows);
    const growth = Math.round((after[1] - after[0]) * 10) / 10;
    console.log(
      `RSS: ${before} MB before, ${after.join(' MB, ')} MB after the soaks, peak ${peak} MB during them (limit ${RSS_LIMIT_MB} MB); growth from soak 1 to 2: ${growth} MB (tolerance ${GROWTH_TOLERANCE_MB} MB)`,
    );
    if (peak > RSS_LIMIT_MB || growth > GROWTH_TOLERANCE_MB) ok = false;
    console.log(
      `${CONNECTIONS} connections, ${SOAK_SECONDS} s per soak, ${COLLECTORS} collectors, ${os.cpus().length} cores, Node ${process.version}: ${ok ? 'PASSED' : 'FAILED'}`,
    );
  } finally {
    app.stop();
  }
  if (!ok) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
