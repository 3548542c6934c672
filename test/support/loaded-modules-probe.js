// Preloaded into the service under test with NODE_OPTIONS=--require (test/integration/tracing.spec.ts):
// when the process exits, writes the tracing modules it has loaded (every file in require.cache under
// node_modules/@opentelemetry/, and the service's own src/tracing/otel-tracer.js) to the file
// LOADED_MODULES_PROBE_OUT names, one path a line.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const out = process.env.LOADED_MODULES_PROBE_OUT;
const OPENTELEMETRY = `${path.sep}node_modules${path.sep}@opentelemetry${path.sep}`;
const OTEL_TRACER = `${path.sep}src${path.sep}tracing${path.sep}otel-tracer.js`;

if (out) {
  process.on('exit', () => {
    const loaded = Object.keys(require.cache).filter(
      (file) => file.includes(OPENTELEMETRY) || file.endsWith(OTEL_TRACER),
    );
    fs.writeFileSync(out, loaded.join('\n'));
  });
}
