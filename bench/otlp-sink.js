// A stand-in OpenTelemetry collector for `npm run bench` (issue 17): accepts OTLP/HTTP exports on
// POST /v1/traces, discards them and answers 200 at once, so that the tracing-on scenario measures
// what tracing costs the service, not a collector. A process of its own, off the service's core.
// Asked over IPC, it tells how many exports and bytes it received.
'use strict';
const http = require('node:http');

let exportsReceived = 0;
let bytes = 0;
const server = http.createServer((req, res) => {
  req.on('data', (chunk) => (bytes += chunk.length));
  req.on('end', () => {
    if (req.url === '/v1/traces') exportsReceived++;
    res.writeHead(req.url === '/v1/traces' ? 200 : 404, {
      'content-type': 'application/x-protobuf',
    });
    res.end();
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send('ready'));
process.on('message', () => process.send({ exports: exportsReceived, bytes }));
