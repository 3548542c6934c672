import { DynamicModule, Module } from '@nestjs/common';
import { HealthController } from '../health/health.controller';
import { READINESS_CHECKS } from '../health/health.tokens';
import type { ReadinessCheck } from '../health/readiness-check';
import { ShutdownState } from '../lifecycle/shutdown-state';
import { AppMetrics } from '../metrics/app-metrics';
import { MetricsController } from '../metrics/metrics.controller';
import { IdpStatus } from '../oidc/idp-status';

/** What the management endpoints read: the service app's own instances, never copies. */
export interface ManagementParts {
  readonly checks: readonly ReadinessCheck[];
  readonly shutdown: ShutdownState;
  readonly idp: IdpStatus;
  readonly metrics: AppMetrics;
}

/**
 * The root module of the management listener's small Nest app (docs/operating.md "The management
 * port"): /healthz, /readyz and /metrics, with the instances the service's app already holds handed
 * in as values. Nothing is constructed a second time, so one registry is scraped (no metric is
 * registered twice), readiness sees the one ShutdownState that SIGTERM sets, and liveness the one
 * IdpStatus the sign-ins update. No middleware: no request log line, no rate limit, no request
 * metrics for probes and scrapes.
 */
@Module({})
export class ManagementEndpointsModule {
  static serving(parts: ManagementParts): DynamicModule {
    return {
      module: ManagementEndpointsModule,
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: READINESS_CHECKS, useValue: parts.checks },
        { provide: ShutdownState, useValue: parts.shutdown },
        { provide: IdpStatus, useValue: parts.idp },
        { provide: AppMetrics, useValue: parts.metrics },
      ],
    };
  }
}
