import { testRunnerRuntime } from '../support/runtimes';
import { oktaJourneys } from './okta-journeys.cases';

/**
 * Issue 31 item 2: every journey against an IdP this project did not write, the way production runs
 * it: `npm start`'s process with APP_ENV=qa and IDP_MODE=external, TLS terminated in front
 * (TRUST_PROXY=1), an Okta-shaped IdP (test/support/okta-idp/server.mjs) in a process of its own. The
 * service runs on the test runner's Node here, and on Node 24 in okta-journeys.node24.spec.ts.
 */
oktaJourneys(testRunnerRuntime);
