import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ShutdownState } from '../lifecycle/shutdown-state';
import { READINESS_CHECKS } from './health.tokens';
import { HealthReport, ReadinessCheck, runChecks } from './readiness-check';
import { ROUTES } from '../shared/routes';
import { IdpState, IdpStatus } from '../oidc/idp-status';

/** What readiness answers from the moment a shutdown begins (no dependency is asked). */
export const DRAINING_REPORT: HealthReport = {
  status: 'unavailable',
  checks: { shutdown: { status: 'down', error: 'the instance is shutting down' } },
};

const LIVE: HealthReport = { status: 'ok', checks: { process: { status: 'up' } } };

export interface LivenessReport extends HealthReport {
  readonly details?: { readonly idp: IdpState };
}

@Controller()
export class HealthController {
  constructor(
    @Inject(READINESS_CHECKS) private readonly checks: readonly ReadinessCheck[],
    private readonly shutdown: ShutdownState,
    private readonly idp: IdpStatus,
  ) {}

  /**
   * Liveness: the process runs and its event loop answers. Never waits on a dependency. With an
   * external IdP it also shows what this instance last saw of it (issue 31 item 3): details for a
   * platform team, never a reason to restart or unroute the instance, so the status stays ok.
   */
  @Get(ROUTES.healthz)
  @Header('Cache-Control', 'no-store')
  live(): LivenessReport {
    if (!this.idp.watched) return LIVE;
    return { ...LIVE, details: { idp: this.idp.current() } };
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
