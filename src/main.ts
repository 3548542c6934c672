// First, so that the modules below load through Node's compile cache (issue 35 item 1).
import './lifecycle/compile-cache';
import 'reflect-metadata';
import { createApp } from './app.factory';
import type { AppConfig } from './config/app-config';
import { ConfigError } from './config/config.schema';
import { loadConfig } from './config/load-config';
import { GracefulShutdown } from './lifecycle/graceful-shutdown';
import { HttpDrain } from './lifecycle/http-drain';
import { applyHttpTimeouts } from './lifecycle/http-timeouts';
import { installProcessGuards } from './lifecycle/process-guards';
import { NestLogger } from './logging/app-logger';
import { ManagementServer } from './management/management-server';
import { ShutdownState } from './lifecycle/shutdown-state';
import { StartupTasks } from './lifecycle/startup-tasks';
import { startTracing } from './tracing';

function configOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // The logger is configured from this configuration, so it cannot report it: write to stderr.
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function bootstrap(): Promise<void> {
  const config = configOrExit();
  // Before the app is built: the request middleware, the IdP adapter and the session store decide
  // when they are made whether to trace (issue 17 item 2). Without an OTLP endpoint, nothing loads.
  const tracer = await startTracing(config);
  const app = await createApp(config);
  const logger = app.get(NestLogger);
  tracer.reportTo({
    warn: (message) => logger.warn(message, 'OpenTelemetry'),
    error: (message) => logger.error(message, 'OpenTelemetry'),
  });
  const exit = (code: number): never => process.exit(code);
  installProcessGuards(logger, exit);
  // Tracks in-flight responses from the first request, so a shutdown can close their connections.
  const drain = new HttpDrain(app.getHttpServer());
  applyHttpTimeouts(app.getHttpServer(), config.http);
  await app.listen(config.http.port, config.http.host);

  // The management listener (docs/operating.md "The management port"): the probes' /healthz and
  // /readyz, and /metrics, which the public port never serves. Started after the public listener,
  // so a probe's 200 means both listen; app.close() below closes it after the public one.
  const { host: managementHost, port: managementPort } = config.management;
  await app.get(ManagementServer).listen(managementPort, managementHost);

  logger.log(
    `listening on ${config.http.publicUrl} (${config.env}, IdP ${config.idp.mode}), ` +
      `management on ${managementHost}:${managementPort}`,
  );
  if (config.idp.mode === 'embedded') void inviteOnceReady(app, logger, config.http.publicUrl);
  // The spans of the last requests (and of back-channel deliveries that Nest's close waits for) are
  // exported before the process exits: the tracer shuts down after the app.
  const stopping = {
    close: async () => {
      await app.close();
      await tracer.shutdown();
    },
  };
  new GracefulShutdown(
    { app: stopping, state: app.get(ShutdownState), drain, logger, exit },
    config.shutdown,
  ).listen();
}

/** How often a start-up that failed but can recover is asked again before the invitation. */
const INVITE_RECHECK_MS = 2_000;

/**
 * Issue 33 item 4: once the demo users exist (StartupTasks: /readyz turns 200 at the same moment),
 * the start-up ends with one line that says where to go and as whom.
 */
async function inviteOnceReady(
  app: { get(token: typeof StartupTasks): StartupTasks },
  logger: NestLogger,
  publicUrl: string,
): Promise<void> {
  const tasks = app.get(StartupTasks);
  await tasks.settled();
  // A failed task is readiness's to report: no invitation to a product that cannot sign anyone in.
  // One that can recover (Redis down at start, docs/operating.md) is asked again until it has, so
  // the invitation still ends the start-up once it does; each check retries it, as a probe's would.
  while (
    !(await tasks.check().then(
      () => true,
      () => false,
    ))
  ) {
    if (!tasks.recoverable) return;
    await new Promise((resolve) => setTimeout(resolve, INVITE_RECHECK_MS).unref());
  }
  const { demoInvitation } = await import('./idp/demo-users');
  logger.log(demoInvitation(publicUrl));
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(
    `start-up failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
