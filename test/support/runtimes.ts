import { buildApp } from './process-app';

/** A Node runtime the service can be started on as a real process, with its build of the service. */
export interface Runtime {
  readonly name: string;
  readonly node: string;
  readonly main: string;
}

/** This process's Node (the machine's), with the run's build (run-build.js). */
export function testRunnerRuntime(): Runtime {
  return { name: `Node ${process.versions.node}`, node: process.execPath, main: buildApp() };
}

/**
 * Node 24 LTS, the image's runtime (issue 31 item 6), with the service laid out as the image lays it
 * out: prepared by scripts/test-prerequisites.js (scripts/node24.js) and Jest's globalSetup
 * (run-build.js). Missing, it fails the suite and says how to get it: never a skipped test.
 */
export function imageRuntime(): Runtime {
  const node = process.env.SIGNON_TEST_NODE24;
  const main = process.env.SIGNON_TEST_NODE24_MAIN;
  if (!node || !main)
    throw new Error(
      'Node 24 (the image’s runtime) is not prepared: run `node scripts/test-prerequisites.js` ' +
        '(npm test does), then the tests again',
    );
  return { name: 'Node 24 (the image’s runtime)', node, main };
}
