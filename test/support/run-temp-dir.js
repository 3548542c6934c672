// Jest's globalSetup and globalTeardown (jest.config.js): every file and folder a test run writes
// through os.tmpdir() (data folders, SQLite files, Redis clusters, probes' output, the service
// processes the integration tests start) goes under one folder made for the run, and the folder is
// removed when the run ends, passed or failed. Before, a full `npm test` left about 230 folders and
// 40 MB in /tmp on every run. Workers and the processes they spawn inherit TMPDIR, which os.tmpdir()
// reads on every call.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const RUN_DIR = 'SIGNON_TEST_RUN_DIR';

async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signon-test-run-'));
  process.env[RUN_DIR] = dir;
  process.env.TMPDIR = dir;
}

async function teardown() {
  const dir = process.env[RUN_DIR];
  if (!dir) return;
  // A service a test failed to stop may still be writing: retry as rm -rf would.
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

module.exports = { setup, teardown };
