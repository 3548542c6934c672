#!/usr/bin/env node
// `npm test`: every check and every test tier in one command, arranged for this machine's two cores
// (issue 34 item 1). The programs the tests start (test-prerequisites.js) come first; then the static
// checks (types, lint, formatting, layer rules), the client bundle and the service's one build for
// the tests that start it as a process, side by side, each with its output kept and printed once it
// ends; then Jest (jest.config.js says how many workers). A failing check stops the run before the
// tests. Measured: beside Jest instead of before it, the checks gave no time back and slowed the
// timing-sensitive browser specs.
// Arguments go to Jest (`npm test -- --testPathPatterns journey`).
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const { BUILD_ENV, buildDir, compileCommand } = require('../test/support/run-build');

/** What runs before the tests, side by side: package.json's scripts (`npm run lint`'s three parts). */
const CHECKS = ['typecheck', 'lint:code', 'lint:format', 'lint:deps', 'build:client'];

function runInline(script) {
  const result = spawnSync(process.execPath, [path.join(__dirname, script)], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Runs one check with its output kept; resolves with what it printed and whether it passed. */
function runCheck(name, command = ['npm', 'run', '-s', name]) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { cwd: ROOT });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(String(error))));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      const passed = code === 0;
      process.stdout.write(`${passed ? 'passed' : 'FAILED'}: ${name} (${seconds} s)\n`);
      resolve({ name, passed, output: Buffer.concat(output).toString('utf8') });
    });
  });
}

function runJest(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(BIN, 'jest'), ...args], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    child.on('close', (code) => resolve(code === 0));
  });
}

async function main() {
  runInline('test-prerequisites.js');
  const build = buildService();
  const checks = await Promise.all([...CHECKS.map((name) => runCheck(name)), build.done]);
  const failed = checks.filter((check) => !check.passed);
  for (const check of failed) {
    process.stdout.write(`\n--- ${check.name} ---\n${check.output}\n`);
  }
  if (failed.length > 0) {
    fs.rmSync(build.dir, { recursive: true, force: true });
    process.stdout.write(`\nnpm test failed: ${failed.map((check) => check.name).join(', ')}\n`);
    process.exit(1);
  }
  // Jest's global set-up uses this build instead of compiling its own (test/support/run-build.js).
  process.env[BUILD_ENV] = build.main;
  if (!(await runJest(process.argv.slice(2)))) process.exit(1);
}

/** The service compiled as `npm run build` compiles it, for the tests that start it as a process. */
function buildService() {
  const dir = buildDir(`${process.pid}-${Date.now()}`);
  const { argv, main } = compileCommand(dir);
  return { dir, main, done: runCheck('the service build', argv) };
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
