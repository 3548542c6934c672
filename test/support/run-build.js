// Part of Jest's globalSetup (run-temp-dir.js): the service is compiled once per run, as
// `npm run build` does (tsc -p tsconfig.build.json), for every test that starts it as a real process
// (test/support/process-app.ts). Before, each such suite ran its own tsc (issue 34 item 1). The build
// goes under .test-data/ inside the project (the product finds its project root, locales and client
// bundle, by walking up from main.js) and is removed when the run ends.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
/** The environment variable that hands workers the path of the run's main.js. */
const BUILD_ENV = 'SIGNON_TEST_BUILD';

/** Whether this run includes a project that starts the service as a process. */
function needsBuild(globalConfig) {
  const selected = globalConfig?.selectProjects;
  return !selected || selected.some((p) => p === 'integration' || p === 'browser');
}

function build(globalConfig) {
  if (!needsBuild(globalConfig)) return;
  const outDir = path.join(ROOT, '.test-data', `build-run-${process.pid}-${Date.now()}`);
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      'tsconfig.build.json',
      '--outDir',
      outDir,
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  process.env[BUILD_ENV] = path.join(outDir, 'src/main.js');
}

function remove() {
  const main = process.env[BUILD_ENV];
  if (main) fs.rmSync(path.resolve(main, '../..'), { recursive: true, force: true });
}

module.exports = { build, remove, BUILD_ENV };
