import 'reflect-metadata';
import { Logger } from 'nestjs-pino';
import { createApp } from './app.factory';
import { ConfigError } from './config/config.schema';
import { loadConfig } from './config/load-config';

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // The logger is configured from this configuration, so it cannot report it: write to stderr.
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config);
  await app.listen(config.http.port, config.http.host);
  app.get(Logger).log(`listening on ${config.http.publicUrl} (${config.env}, IdP ${config.idp.mode})`);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
