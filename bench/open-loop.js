// An open-loop load: requests leave at a fixed arrival rate, one every 1/rate seconds, whether or not
// earlier ones have been answered (issue 35 item 3). autocannon's `overallRate` is not that: each of
// its connections sends its share of a second's requests back to back as soon as the second starts,
// then waits for the next one (node_modules/autocannon/lib/httpClient.js, `reqsMadeThisSecond`), so a
// run at half a path's capacity arrives as one burst a second and its p99 is the burst's queue: in a
// run of 2026-11-28 the floors themselves showed p99s of 238-374 ms at half their capacity.
//
// Each request's latency counts from the moment it was due to leave, not from when it left, so a
// generator or a connection pool that falls behind shows as latency instead of hiding it
// (coordinated omission). Loopback only.
'use strict';
const http = require('node:http');

/**
 * Runs `rate` requests a second to `url` for `seconds`, over at most `connections` keep-alive
 * connections; returns the shape bench/harness.js's `run` returns (autocannon's fields used here),
 * with the CPU per request of `pid` when given.
 */
async function openLoop({ url, headers = {}, rate, seconds, connections, cpuMicros, pid }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(url);
  const latencies = [];
  const statuses = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
  let errors = 0;
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;

  const send = (dueAt) =>
    new Promise((resolve) => {
      const req = http.get(
        {
          agent,
          hostname: target.hostname,
          port: target.port,
          path: `${target.pathname}${target.search}`,
          headers,
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - dueAt);
            statuses[`${Math.floor(res.statusCode / 100)}xx`] += 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors += 1;
        resolve();
      });
    });

  const cpuBefore = pid === undefined ? undefined : cpuMicros(pid);
  const started = performance.now();
  const requests = [];
  while (requests.length < total) {
    // Every request due by now leaves now, each stamped with the moment it was due.
    const due = Math.min(total, Math.floor((performance.now() - started) / interval) + 1);
    while (requests.length < due) requests.push(send(started + requests.length * interval));
    const nextDue = started + requests.length * interval;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, nextDue - performance.now())));
  }
  await Promise.all(requests);
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = pid === undefined ? undefined : cpuMicros(pid);
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const at = (share) =>
    latencies.length === 0
      ? NaN
      : Math.round(latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))]);
  const answered = latencies.length;
  return {
    requests: { average: answered / elapsed, total: answered },
    latency: { p50: at(0.5), p99: at(0.99) },
    errors,
    timeouts: 0,
    cpuPerRequest:
      cpuBefore === undefined || cpuAfter === undefined || answered === 0
        ? undefined
        : (cpuAfter - cpuBefore) / answered,
    ...statuses,
  };
}

module.exports = { openLoop };
