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

/** The environment variables that hand workers the Node 24 binary and the image's main.js. */
const NODE24_ENV = 'SIGNON_TEST_NODE24';
const NODE24_MAIN_ENV = 'SIGNON_TEST_NODE24_MAIN';

/** The build folder of one run, inside the project (see above). */
function buildDir(run) {
  return path.join(ROOT, '.test-data', `build-run-${run}`);
}

/**
 * The command that compiles the service as `npm run build` does, into `outDir`, and the main.js it
 * makes: Jest's set-up runs it here, and `npm test` (scripts/test.js) beside its static checks.
 */
function compileCommand(outDir) {
  return {
    argv: [
      process.execPath,
      path.join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      'tsconfig.build.json',
      '--outDir',
      outDir,
    ],
    main: path.join(outDir, 'src/main.js'),
  };
}

/** Compiles the service into `outDir`; returns its main.js. */
function compileService(outDir) {
  const { argv, main } = compileCommand(outDir);
  execFileSync(argv[0], argv.slice(1), { cwd: ROOT, stdio: 'inherit' });
  return main;
}

function build(globalConfig) {
  if (!needsBuild(globalConfig)) return;
  const run = `${process.pid}-${Date.now()}`;
  // `npm test` (scripts/test.js) compiles the service beside the static checks and hands it over.
  const made = process.env[BUILD_ENV];
  if (made && fs.existsSync(made)) {
    node24Image(path.resolve(made, '../..'), run);
    return;
  }
  const outDir = buildDir(run);
  process.env[BUILD_ENV] = compileService(outDir);
  node24Image(outDir, run);
}

/**
 * The service laid out as the image lays it out, with the node_modules built for Node 24
 * (scripts/node24.js layOutImage), so that a test can start it on the image's runtime. Made only
 * when scripts/test-prerequisites.js has prepared Node 24; a test that needs it and finds it
 * missing says so and fails (test/support/runtimes.ts).
 */
function node24Image(outDir, run) {
  const { layOutImage, node24Paths } = require('../../scripts/node24');
  const paths = node24Paths();
  if (!fs.existsSync(paths.ready) || !fs.existsSync(paths.node)) return;
  const image = path.join(ROOT, '.test-data', `node24-image-${run}`);
  process.env[NODE24_MAIN_ENV] = layOutImage(paths, outDir, image);
  process.env[NODE24_ENV] = paths.node;
}

/** The run's own folders under .test-data/; a path from the environment that points anywhere else
 * (a hand-set SIGNON_TEST_BUILD, say) is left alone rather than deleted. */
function removeRunFolder(dir) {
  const testData = path.join(ROOT, '.test-data') + path.sep;
  if (!dir.startsWith(testData)) return;
  fs.rmSync(dir, { recursive: true, force: true });
}

function remove() {
  const main = process.env[BUILD_ENV];
  if (main) removeRunFolder(path.resolve(main, '../..'));
  const image = process.env[NODE24_MAIN_ENV];
  if (image) removeRunFolder(path.resolve(image, '../../..'));
}

module.exports = {
  build,
  buildDir,
  compileCommand,
  compileService,
  remove,
  BUILD_ENV,
  NODE24_ENV,
  NODE24_MAIN_ENV,
};
