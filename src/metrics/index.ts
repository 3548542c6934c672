export { AppMetrics } from './app-metrics';
export type { IdpCallOutcome, RefreshOutcome, StoreOperation } from './app-metrics';
export { httpMetricsMiddleware } from './http-metrics.middleware';
export { MetricsModule } from './metrics.module';
