// Preloaded into the service under test with NODE_OPTIONS=--require (test/integration/tracing.spec.ts):
// when the process exits, writes the tracing modules it has loaded (every file in require.cache under
// node_modules/@opentelemetry/, and the service's own src/tracing/otel-tracer.js) to the file
// LOADED_MODULES_PROBE_OUT names, one path a line. With LOADED_MODULES_PROBE_PACKAGE set (one package
// or several, comma-separated), the files of those packages instead (test/integration/startup.spec.ts:
// ioredis with the SQLite store).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const out = process.env.LOADED_MODULES_PROBE_OUT;
const OPENTELEMETRY = `${path.sep}node_modules${path.sep}@opentelemetry${path.sep}`;
const OTEL_TRACER = `${path.sep}src${path.sep}tracing${path.sep}otel-tracer.js`;
const PACKAGES = process.env.LOADED_MODULES_PROBE_PACKAGE?.split(',').map(
  (name) => `${path.sep}node_modules${path.sep}${name}${path.sep}`,
);
const wanted = PACKAGES
  ? (file) => PACKAGES.some((dir) => file.includes(dir))
  : (file) => file.includes(OPENTELEMETRY) || file.endsWith(OTEL_TRACER);

if (out) {
  process.on('exit', () => {
    const loaded = Object.keys(require.cache).filter(wanted);
    fs.writeFileSync(out, loaded.join('\n'));
  });
}
