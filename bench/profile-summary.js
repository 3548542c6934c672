// Summarises a V8 CPU profile (`node --cpu-prof`, e.g. BENCH_NODE_FLAGS for the bench's app) by
// self time: per package (node_modules/<name>, our own dist/ folders, Node's internals, GC) and the
// top functions. Only the main thread is sampled: work in libuv's thread pool (scrypt, WebCrypto
// signatures) does not appear here; bench/journeys.js reports it per thread from /proc.
//
//   node bench/profile-summary.js <file.cpuprofile> [--last <seconds>] [--skip-end <seconds>] [--top N]
//
// --last keeps the samples of the profile's last N seconds (before --skip-end, which drops the
// shutdown), so that a phase at the end of a run can be looked at alone.
'use strict';
const fs = require('node:fs');

function packageOf(frame) {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return 'node (internals)';
  const ours = /\/dist\/((?:src|views)\/[^/]+)/.exec(url);
  if (ours) return `ours: ${ours[1]}`;
  return url;
}

function summarise(file, { last, skipEnd = 0, top = 25 } = {}) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  // Sample times: startTime + cumulative timeDeltas (µs).
  const times = [];
  let t = profile.startTime;
  for (const delta of profile.timeDeltas) times.push((t += delta));
  const end = profile.endTime - skipEnd * 1e6;
  const from = last === undefined ? -Infinity : end - last * 1e6;
  const self = new Map();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    if (times[i] < from || times[i] > end) continue;
    // A sample's weight: the time until the next sample.
    const weight = (times[i + 1] ?? times[i]) - times[i];
    const node = byId.get(profile.samples[i]);
    self.set(node, (self.get(node) ?? 0) + weight);
    total += weight;
  }
  const idle = [...self].filter(([n]) => n.callFrame.functionName === '(idle)');
  const idleUs = idle.reduce((s, [, w]) => s + w, 0);
  const busy = total - idleUs;
  const packages = new Map();
  const functions = new Map();
  for (const [node, weight] of self) {
    if (node.callFrame.functionName === '(idle)') continue;
    const pkg = packageOf(node.callFrame);
    packages.set(pkg, (packages.get(pkg) ?? 0) + weight);
    const { functionName, url, lineNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + weight);
  }
  const pct = (w) => `${((100 * w) / busy).toFixed(1).padStart(5)} %`;
  console.log(
    `${file}: ${(total / 1e6).toFixed(1)} s sampled, main thread busy ${(busy / 1e6).toFixed(1)} s (${((100 * busy) / total).toFixed(0)} %)`,
  );
  console.log('\nSelf time by package (share of busy main-thread time):');
  for (const [pkg, w] of [...packages].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${pct(w)}  ${pkg}`);
  console.log(`\nTop ${top} functions by self time:`);
  for (const [name, w] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${pct(w)}  ${name}`);
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const option = (name) => {
    const at = args.indexOf(name);
    if (at < 0) return undefined;
    const [, value] = args.splice(at, 2);
    return Number(value);
  };
  const last = option('--last');
  const skipEnd = option('--skip-end');
  const top = option('--top');
  if (args.length !== 1) {
    console.error(
      'usage: node bench/profile-summary.js <file.cpuprofile> [--last s] [--skip-end s] [--top n]',
    );
    process.exit(2);
  }
  summarise(args[0], {
    ...(last !== undefined ? { last } : {}),
    ...(skipEnd !== undefined ? { skipEnd } : {}),
    ...(top !== undefined ? { top } : {}),
  });
}

module.exports = { summarise };
