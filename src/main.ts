import 'reflect-metadata';
import { Logger } from 'nestjs-pino';
import { createApp } from './app.factory';
import type { AppConfig } from './config/app-config';
import { ConfigError } from './config/config.schema';
import { loadConfig } from './config/load-config';

/** How long in-flight requests get to finish after SIGTERM before the process gives up. */
const SHUTDOWN_GRACE_MS = 10_000;

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
  const app = await createApp(config);
  const logger = app.get(Logger);
  await app.listen(config.http.port, config.http.host);
  logger.log(`listening on ${config.http.publicUrl} (${config.env}, IdP ${config.idp.mode})`);

  // Stop accepting connections, let in-flight requests finish, close stores, exit 0 (a clean stop for
  // orchestrators); exit 1 if that takes longer than the grace period.
  const shutdown = (signal: NodeJS.Signals): void => {
    logger.log(`${signal} received: shutting down`);
    const timer = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(
    `start-up failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
