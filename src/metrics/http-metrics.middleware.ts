import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppMetrics } from './app-metrics';
import { routeLabel } from './route-label';

const STARTED_AT = Symbol('httpMetricsStartedAt');
type TimedResponse = ServerResponse & { [STARTED_AT]?: number };

/**
 * Counts and times every request (http_requests_total, http_request_duration_seconds) by method,
 * route pattern and status code. Mounted first, so it also sees what the embedded IdP and the static
 * files answer. Per request: one clock read, one shared 'finish' listener (no closure), and at the
 * end one histogram observation. A request the client abandons before the response is finished is
 * not counted.
 */
export function httpMetricsMiddleware(
  metrics: Pick<AppMetrics, 'httpDuration'>,
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  function onFinish(this: TimedResponse): void {
    const startedAt = this[STARTED_AT];
    if (startedAt === undefined) return;
    // The route is read now, after routing: Express has set req.route if a controller route matched.
    const labels = {
      method: this.req.method ?? 'GET',
      route: routeLabel(this.req),
      status: String(this.statusCode),
    };
    // http_requests_total is derived from this histogram's counts when scraped.
    metrics.httpDuration.observe(labels, (performance.now() - startedAt) / 1000);
  }
  return (_req, res, next) => {
    (res as TimedResponse)[STARTED_AT] = performance.now();
    res.on('finish', onFinish);
    next();
  };
}
