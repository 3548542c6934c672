import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { READINESS_CHECKS } from './health.tokens';
import { HealthReport, ReadinessCheck, runChecks } from './readiness-check';

@Controller()
export class HealthController {
  constructor(@Inject(READINESS_CHECKS) private readonly checks: readonly ReadinessCheck[]) {}

  /** Liveness: the process runs and its event loop answers. Never touches a dependency. */
  @Get('healthz')
  @Header('Cache-Control', 'no-store')
  live(): HealthReport {
    return { status: 'ok', checks: { process: { status: 'up' } } };
  }

  /** Readiness: every dependency answers; 503 otherwise, so the load balancer stops sending traffic. */
  @Get('readyz')
  @Header('Cache-Control', 'no-store')
  async ready(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const report = await runChecks(this.checks);
    res.status(report.status === 'ok' ? 200 : 503);
    return report;
  }
}
