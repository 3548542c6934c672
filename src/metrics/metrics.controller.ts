import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AppMetrics } from './app-metrics';
import { ROUTES } from '../shared/routes';

/**
 * GET /metrics in the Prometheus text format, for the monitoring system's scraper, on the
 * management listener only (MANAGEMENT_PORT, src/management/; docs/operating.md "The management
 * port"): the public port answers 404, so no ingress or balancer in front of it can expose it.
 *
 * Not protected by a credential: like /healthz and /readyz it is meant for the internal network
 * (the scraper reaches instances directly; a NetworkPolicy admits it, deploy/kubernetes). It holds
 * counts and latencies only: every label value is from a fixed set (route patterns, brands, error
 * codes, outcomes), never a token, cookie, id or raw URL. The management app has no request
 * logging, no rate limit and no request metrics, so a scrape writes no log line and counts nothing.
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
