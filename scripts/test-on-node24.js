#!/usr/bin/env node
// Issue 31 item 6: the integration tier on Node 24 LTS, the runtime the image ships. Jest itself runs
// on Node 24 (from scripts/node24.js), with this project's node_modules; the one native module,
// better-sqlite3, is taken from the Node 24 build (jest.config.js maps it when SIGNON_NODE24_MODULES
// is set), and the services the tests start as processes run as the image lays them out
// (test/support/run-build.js, test/support/process-app.ts).
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { ensureNode24 } = require('./node24');

const paths = ensureNode24();
const jest = path.join(__dirname, '..', 'node_modules', 'jest', 'bin', 'jest.js');
const run = spawnSync(
  paths.node,
  [jest, '--selectProjects', 'integration', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      PATH: `${path.join(paths.nodeDir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
      SIGNON_NODE24_MODULES: paths.nodeModules,
    },
  },
);
process.exit(run.status ?? 1);
