import { imageRuntime } from '../support/runtimes';
import { brandSiteJourneys } from './brand-site.cases';

/**
 * Issue 49 item 8 on Node 24 LTS, the image's runtime: the brand sites run on it, and so does
 * the service against the Okta-shaped IdP (the embedded one runs in Jest's own process).
 */
brandSiteJourneys(() => {
  const runtime = imageRuntime();
  return { brandSiteNode: runtime.node, service: runtime };
});
