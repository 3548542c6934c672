// `npm run bench:floors` (issue 35 item 5): /healthz and each hot path against its own floor, three
// runs on each runtime, alternated (this machine's Node, Node 24, this machine's Node, ...), so a
// drift of the machine during the half hour weighs on both runtimes alike. Each run is
// `BENCH_ONLY=floors node bench/run.js` (on Node 24 through bench/on-node24.js); the verdict is on
// the median of the three shares. Build first (`npm run bench:floors` does). Loopback only.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROUNDS = Number(process.env.BENCH_FLOORS_ROUNDS ?? 3);
/** Issue 35 item 5: each at least this share of its floor's req/s, the median of the runs. */
const TARGET = 0.95;

const RUNTIMES = [
  ['this machine', ['bench/run.js']],
  ['Node 24', ['bench/on-node24.js', 'bench/run.js']],
];

function runOnce(args) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-floors-')), 'shares.json');
  const r = spawnSync(process.execPath, args, {
    cwd: path.resolve(__dirname, '..'),
    stdio: 'inherit',
    env: { ...process.env, BENCH_ONLY: 'floors', BENCH_FLOORS_JSON: out },
  });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status ?? r.signal})`);
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  return result;
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

function main() {
  /** runtime label -> the runs' results */
  const runs = new Map(RUNTIMES.map(([label]) => [label, []]));
  for (let round = 1; round <= ROUNDS; round++)
    for (const [label, args] of RUNTIMES) {
      console.log(`\n[bench:floors] round ${round} of ${ROUNDS}, ${label}`);
      runs.get(label).push(runOnce(args));
    }
  const rows = [];
  for (const results of runs.values()) {
    const node = results[0].node;
    for (const { key, name } of results[0].shares) {
      const shares = results.map((r) => r.shares.find((s) => s.key === key));
      const share = median(shares.map((s) => s.share));
      const clean = shares.every((s) => s.clean);
      rows.push({
        runtime: `Node ${node.replace(/^v/, '')}`,
        path: name,
        runs: shares.map((s) => s.share.toFixed(2)).join(' '),
        median: share.toFixed(2),
        'CPU share (median)': median(shares.map((s) => s.cpuShare ?? NaN)).toFixed(2),
        target: `>= ${TARGET.toFixed(2)}`,
        verdict: share >= TARGET && clean ? 'MET' : 'NOT MET',
      });
    }
  }
  console.log(
    `\nIssue 35 item 5: req/s as a share of each floor's, ${ROUNDS} runs per runtime, alternated:`,
  );
  console.table(rows);
}

main();
