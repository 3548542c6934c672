import { Global, Module } from '@nestjs/common';
import { AppMetrics } from './app-metrics';

/**
 * Prometheus metrics (docs/operating.md): one registry per app (AppMetrics) and the hooks the rest
 * of the app calls. Global, so the session store, the auth events, the token refresher and the
 * exception filter can count without importing it; the HTTP middleware is mounted in
 * app.factory.ts. GET /metrics (MetricsController) is served by the management listener only
 * (src/management/).
 */
@Global()
@Module({
  providers: [AppMetrics],
  exports: [AppMetrics],
})
export class MetricsModule {}
