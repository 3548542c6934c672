import { imageRuntime } from '../support/runtimes';
import { oktaRefresh } from './okta-refresh.cases';

/** Issue 31 item 6: the refresh journeys with the service on Node 24 LTS, the image's runtime. */
oktaRefresh(imageRuntime);
