import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import { READINESS_CHECKS } from '../health/health.tokens';
import type { ReadinessCheck } from '../health/readiness-check';
import { strictHttpAdapter } from '../http/strict-http-adapter';
import { HttpDrain } from '../lifecycle/http-drain';
import { ShutdownState } from '../lifecycle/shutdown-state';
import { NestLogger } from '../logging/app-logger';
import { AppMetrics } from '../metrics/app-metrics';
import { IdpStatus } from '../oidc/idp-status';
import { ManagementEndpointsModule } from './management-endpoints.module';

const CONTEXT = 'Management';

/**
 * The management listener (docs/operating.md "The management port"): a second HTTP server on
 * MANAGEMENT_PORT that serves /healthz, /readyz and /metrics, as Keycloak's management interface
 * serves its health and metrics on 9000. The public port never serves /metrics, so no ingress,
 * balancer or proxy in front of it can route it by mistake; the probes read health here.
 *
 * main.ts starts it after the public listener (a probe's 200 then means both listen). It closes
 * when the service's app closes, in Nest's shutdown hooks, which run after the public listener has
 * closed: through the whole drain (docs/operating.md, "Shutdown") the probes still see /readyz say
 * 503 and Prometheus still scrapes the last requests' counts.
 */
@Injectable()
export class ManagementServer implements OnApplicationShutdown {
  private running?: { readonly app: NestExpressApplication; readonly drain: HttpDrain };

  constructor(
    @Inject(READINESS_CHECKS) private readonly checks: readonly ReadinessCheck[],
    private readonly shutdown: ShutdownState,
    private readonly idp: IdpStatus,
    private readonly metrics: AppMetrics,
    private readonly logger: NestLogger,
  ) {}

  /** Starts listening; resolves with the port (the given one, or the kernel's choice for 0). */
  async listen(port: number, host: string): Promise<number> {
    if (this.running) throw new Error('the management listener is already started');
    const app = await NestFactory.create<NestExpressApplication>(
      ManagementEndpointsModule.serving({
        checks: this.checks,
        shutdown: this.shutdown,
        idp: this.idp,
        metrics: this.metrics,
      }),
      // The same strict routing as the public app: /METRICS or /metrics/ is a 404, not /metrics.
      strictHttpAdapter(),
      { logger: this.logger, bodyParser: false, abortOnError: false },
    );
    app.disable('x-powered-by');
    app.set('etag', false);
    // Tracks responses from the first request, so that closing lets them finish (src/lifecycle).
    const drain = new HttpDrain(app.getHttpServer());
    await app.listen(port, host);
    this.running = { app, drain };
    const bound = (app.getHttpServer().address() as AddressInfo).port;
    // At debug: main.ts names the port in its one "listening on" line.
    this.logger.debug(`listening on ${host}:${bound} (/healthz, /readyz, /metrics)`, CONTEXT);
    return bound;
  }

  /** The port it listens on; undefined before listen() and after the close. */
  get port(): number | undefined {
    return (this.running?.app.getHttpServer().address() as AddressInfo | null)?.port;
  }

  /**
   * After the public listener has closed (Nest runs shutdown hooks last): a scrape or probe in
   * flight finishes, its connection closes, and the port is released.
   */
  async onApplicationShutdown(): Promise<void> {
    const running = this.running;
    if (!running) return;
    this.running = undefined;
    running.drain.begin();
    await running.app.close();
  }
}
