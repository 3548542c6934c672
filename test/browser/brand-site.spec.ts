import { testRunnerRuntime } from '../support/runtimes';
import { brandSiteJourneys } from './brand-site.cases';

/**
 * Issue 49 item 8: the reference brand site (examples/brand-site) through a collector's whole
 * journey in Chromium, against both IdPs, with the brand site and the service on this machine's Node.
 * The twin (brand-site.node24.spec.ts) runs them on Node 24.
 */
brandSiteJourneys(() => ({ brandSiteNode: process.execPath, service: testRunnerRuntime() }));
