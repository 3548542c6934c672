import { Global, Module } from '@nestjs/common';
import { AppMetrics } from './app-metrics';
import { MetricsController } from './metrics.controller';

/**
 * Prometheus metrics (issue 7): one registry per app (AppMetrics), GET /metrics, and the hooks the
 * rest of the app calls. Global, so the session store, the auth events, the token refresher and the
 * exception filter can count without importing it; the HTTP middleware is mounted in app.factory.ts.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [AppMetrics],
  exports: [AppMetrics],
})
export class MetricsModule {}
