// Two projects: pure unit specs beside the code, and integration tests that boot the real app.
// @swc/jest compiles TypeScript (and the ESM-only OIDC libraries later) to CommonJS quickly.
const transform = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', tsx: true, decorators: true },
        transform: {
          legacyDecorator: true,
          decoratorMetadata: true,
          react: { runtime: 'automatic' },
        },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};
const common = {
  transform,
  // openid-client, oidc-provider and jose are ESM-only: compile them to CommonJS like our own code.
  transformIgnorePatterns: ['/node_modules/(?!(openid-client|oauth4webapi|jose|oidc-provider)/)'],
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/test/support/jest-setup.ts'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'json'],
  // The product loads oidc-provider with a real import() (src/idp/provider/load-oidc-provider.ts),
  // which Jest's vm context cannot run: specs get the same module through Jest's own loader.
  moduleNameMapper: {
    '^\\./load-oidc-provider$': '<rootDir>/test/support/load-oidc-provider.ts',
    // Issue 31 item 6 (scripts/test-on-node24.js): on Node 24 the native module comes from the build
    // made for it; everything else is plain JavaScript and loads from node_modules as usual.
    ...(process.env.SIGNON_NODE24_MODULES
      ? { '^better-sqlite3$': `${process.env.SIGNON_NODE24_MODULES}/better-sqlite3` }
      : {}),
  },
};
module.exports = {
  // Issue 34 item 1: one worker a core, plus one. Jest's default (cores - 1) ran the whole suite in one
  // process on two cores. With two workers the machine still idled a third of the time (748 CPU-s in
  // 576 s on 2 cores: Chromium's and the app's waits); a third worker took Jest from 525 s to 455 s
  // in a clean run. (It doubled each browser file's time when the tests drove the full browser,
  // before they moved to the headless shell: scripts/chromium.json.)
  maxWorkers: require('node:os').availableParallelism() + 1,
  // Long tiers first when Jest has no timings yet, as on a clean clone (longest-first.sequencer.js).
  testSequencer: '<rootDir>/test/support/longest-first.sequencer.js',
  // One temporary folder per run, removed at its end (test/support/run-temp-dir.js).
  globalSetup: '<rootDir>/test/support/run-temp-dir.setup.js',
  globalTeardown: '<rootDir>/test/support/run-temp-dir.teardown.js',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/views/**/*.spec.{ts,tsx}',
        '<rootDir>/client/**/*.spec.{ts,tsx}',
        // The scripts' pure parts (issue 50 item 11: the lock against the known-vulnerable list).
        '<rootDir>/scripts/**/*.spec.ts',
      ],
      // Specs beside the code that start real servers (Redis, Sentinel, a cluster) are named
      // *.integration.spec.ts and run with the integration tier, keeping `npm run test:unit` quick.
      testPathIgnorePatterns: ['/node_modules/', '\\.integration\\.spec\\.ts$'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: [
        '<rootDir>/test/integration/**/*.spec.ts',
        '<rootDir>/src/**/*.integration.spec.ts',
      ],
      setupFilesAfterEnv: ['<rootDir>/test/support/real-app-timeout.ts'],
    },
    {
      ...common,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/browser/**/*.spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/real-app-timeout.ts'],
    },
  ],
};
