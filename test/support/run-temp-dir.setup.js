// Jest's globalSetup: the run's temporary folder (run-temp-dir.js), then the run's one build of the
// service (run-build.js).
'use strict';
const tempDir = require('./run-temp-dir');
const runBuild = require('./run-build');

module.exports = async (globalConfig) => {
  await tempDir.setup();
  runBuild.build(globalConfig);
};
