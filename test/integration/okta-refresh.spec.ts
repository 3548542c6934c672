import { testRunnerRuntime } from '../support/runtimes';
import { oktaRefresh } from './okta-refresh.cases';

/**
 * Issue 31 items 1-4: §4 Token handling against the Okta-shaped IdP, the service on the test
 * runner's Node (okta-refresh.node24.spec.ts: on Node 24).
 */
oktaRefresh(testRunnerRuntime);
