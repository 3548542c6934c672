// Jest's globalTeardown: see run-temp-dir.js and run-build.js.
'use strict';
const tempDir = require('./run-temp-dir');
const runBuild = require('./run-build');

module.exports = async () => {
  runBuild.remove();
  await tempDir.teardown();
};
