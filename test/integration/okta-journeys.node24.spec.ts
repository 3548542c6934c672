import { imageRuntime } from '../support/runtimes';
import { oktaJourneys } from './okta-journeys.cases';

/**
 * Issue 31 item 6: the same journeys with the service on Node 24 LTS, the runtime the image ships,
 * laid out as the image lays it out (scripts/node24.js, test/support/run-build.js).
 */
oktaJourneys(imageRuntime);
