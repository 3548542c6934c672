// Runs one bench script on Node 24, the image's runtime (issue 35: every figure on Node 24, with the
// machine's Node beside it): `node bench/on-node24.js bench/run.js` (npm run bench:node24, and
// bench:journeys:node24). Node 24 and node_modules built for it come from scripts/node24.js, as
// `npm test` prepares them. The bench, its references and the load all run on Node 24; the service
// runs from dist/ laid out as the image lays it out (BENCH_APP_MAIN, read by bench/harness.js), since
// its native module (better-sqlite3) must be the one built for Node 24. Build first (`npm run build`).
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ensureNode24, layOutImage } = require('../scripts/node24');

const ROOT = path.resolve(__dirname, '..');
const script = process.argv[2];
if (!script) {
  process.stderr.write('usage: node bench/on-node24.js <bench script> (e.g. bench/run.js)\n');
  process.exit(2);
}
const paths = ensureNode24();
fs.mkdirSync(path.join(ROOT, '.test-data'), { recursive: true });
const image = fs.mkdtempSync(path.join(ROOT, '.test-data', 'bench-node24-app-'));
try {
  const main = layOutImage(paths, path.join(ROOT, 'dist'), image);
  const run = spawnSync(paths.node, [path.resolve(script), ...process.argv.slice(3)], {
    cwd: ROOT,
    stdio: 'inherit',
    env: {
      ...process.env,
      BENCH_APP_MAIN: main,
      BENCH_MACHINE_NODE: process.execPath,
      // The floor server keeps its sessions in SQLite too (bench/floor-server.js).
      BENCH_SQLITE_MODULE: path.join(paths.nodeModules, 'better-sqlite3'),
    },
  });
  process.exitCode = run.status ?? 1;
} finally {
  fs.rmSync(image, { recursive: true, force: true });
}
