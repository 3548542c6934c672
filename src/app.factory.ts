import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import type { AppConfig } from './config/app-config';

/**
 * Builds the configured application; main.ts listens on it and integration tests drive it over HTTP,
 * so both run exactly the same stack.
 */
export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.http.trustProxy);
  app.disable('x-powered-by');
  app.use(
    helmet({
      // The CSP with per-request nonces is set by the page renderer; helmet's default covers the rest.
      hsts: config.env === 'local' || config.env === 'dev' ? false : undefined,
      referrerPolicy: { policy: 'no-referrer' },
    }),
  );
  app.enableShutdownHooks();
  return app;
}
