import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AppMetrics } from './app-metrics';
import { ROUTES } from '../shared/routes';

/**
 * GET /metrics in the Prometheus text format (issue 7), for the monitoring system's scraper.
 *
 * Not protected by a credential: like /healthz and /readyz it is meant for the internal network (the
 * scraper reaches instances directly; the public load balancer or ingress does not route /metrics).
 * It holds counts and latencies only: every label value is from a fixed set (route patterns, brands,
 * error codes, outcomes), never a token, cookie, id or raw URL. Not logged per request
 * (log-format.ts QUIET_PATHS) and not rate limited (it is not in RATE_LIMITED_ROUTES).
 */
@Controller()
export class MetricsController {
  constructor(private readonly metrics: AppMetrics) {}

  @Get(ROUTES.metrics)
  async scrape(@Res() res: Response): Promise<void> {
    const body = await this.metrics.registry.metrics();
    // Written as is: Express's send would rewrite the registry's content type.
    res.status(200);
    res.setHeader('Content-Type', this.metrics.registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(body);
  }
}
