import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ShutdownState } from '../lifecycle/shutdown-state';
import { READINESS_CHECKS } from './health.tokens';
import { HealthReport, ReadinessCheck, runChecks } from './readiness-check';
import { ROUTES } from '../shared/routes';

/** What readiness answers from the moment a shutdown begins (no dependency is asked). */
export const DRAINING_REPORT: HealthReport = {
  status: 'unavailable',
  checks: { shutdown: { status: 'down', error: 'the instance is shutting down' } },
};

@Controller()
export class HealthController {
  constructor(
    @Inject(READINESS_CHECKS) private readonly checks: readonly ReadinessCheck[],
    private readonly shutdown: ShutdownState,
  ) {}

  /** Liveness: the process runs and its event loop answers. Never touches a dependency. */
  @Get(ROUTES.healthz)
  @Header('Cache-Control', 'no-store')
  live(): HealthReport {
    return { status: 'ok', checks: { process: { status: 'up' } } };
  }

  /**
   * Readiness: every dependency answers; 503 otherwise, so the load balancer stops sending traffic.
   * Also 503 at once while shutting down (src/lifecycle/graceful-shutdown.ts).
   */
  @Get(ROUTES.readyz)
  @Header('Cache-Control', 'no-store')
  async ready(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const report = this.shutdown.draining ? DRAINING_REPORT : await runChecks(this.checks);
    res.status(report.status === 'ok' ? 200 : 503);
    return report;
  }
}
