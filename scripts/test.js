#!/usr/bin/env node
// `npm test`: every check and every test tier in one command, arranged to use both cores (issue 34
// item 1). The static checks (types, lint, formatting, layer rules) need about 95 s of CPU and the
// Jest run leaves part of the machine idle while its suites wait on Chromium, timers and child
// processes; so the checks run beside Jest at a lower priority instead of before it. Before, they
// ran one after another ahead of Jest and added about 75 s to every run.
//
// Order: the programs the tests start (test-prerequisites.js) and the client bundle the browser
// specs load come first; then Jest and the checks together. Each check's output is kept and printed
// when it ends, so it never tears through Jest's report; the command fails if any of them fails.
// Arguments go to Jest (`npm test -- --testPathPatterns journey`).
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');

/** The checks that read the source without running it: package.json's scripts, `npm run lint`'s parts. */
const CHECKS = ['typecheck', 'lint:code', 'lint:format', 'lint:deps'];

/** Niceness of the checks: Jest's workers, whose tests have time limits, come first. */
const CHECK_NICENESS = '10';

function runInline(script) {
  const result = spawnSync(process.execPath, [path.join(__dirname, script)], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Runs one check with its output kept; resolves with what it printed and whether it passed. */
function runCheck(name) {
  const started = Date.now();
  return new Promise((resolve) => {
    // nice(1) lowers the priority before npm starts, so every process of the check inherits it.
    const child = spawn('nice', ['-n', CHECK_NICENESS, 'npm', 'run', '-s', name], { cwd: ROOT });
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
  runInline('build-client.js');
  const [jestPassed, ...checks] = await Promise.all([
    runJest(process.argv.slice(2)),
    ...CHECKS.map(runCheck),
  ]);
  const failed = checks.filter((check) => !check.passed);
  for (const check of failed) {
    process.stdout.write(`\n--- ${check.name} ---\n${check.output}\n`);
  }
  if (failed.length > 0 || !jestPassed) {
    const what = [...failed.map((check) => check.name), ...(jestPassed ? [] : ['jest'])];
    process.stdout.write(`\nnpm test failed: ${what.join(', ')}\n`);
    process.exit(1);
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
