import { Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Writable } from 'node:stream';
import { NEST_APP_OPTIONS, configureApp } from '../../src/app.factory';
import { strictHttpAdapter } from '../../src/http/strict-http-adapter';
import { AppModule } from '../../src/app.module';
import type { AppConfig } from '../../src/config/app-config';
import type { RawEnv } from '../../src/config/config.schema';
import { freePort } from './free-port';
import { StartupTasks } from '../../src/lifecycle/startup-tasks';
import { ManagementServer } from '../../src/management/management-server';
import { testConfig } from './test-config';

/** Every JSON log line the app wrote, kept in memory for assertions. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get records(): Record<string, unknown>[] {
    return this.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }
  get text(): string {
    return this.lines.join('\n');
  }
}

export interface TestApp {
  readonly app: NestExpressApplication;
  readonly config: AppConfig;
  readonly logs: LogCapture;
  /** Base URL of the listening server, e.g. http://127.0.0.1:40123 */
  readonly url: string;
  /**
   * Base URL of the management listener (/healthz, /readyz, /metrics; docs/operating.md "The
   * management port"), on a free port of its own, as main.ts starts it.
   */
  readonly managementUrl: string;
  close(): Promise<void>;
}

/**
 * A change to the parsed configuration, for what no variable can say in local and dev (a mobile app's
 * tokenURL as qa and prod derive it, `psacard://auth/callback`). Everything built from the
 * configuration at start (the redirect policy, the pages' CSP) sees the changed one.
 */
export type AdjustConfig = (config: AppConfig) => AppConfig;

/**
 * The real application (real SQLite file or Redis, real i18n files, real filters) listening on a free
 * loopback port. Extra controllers let a test exercise shared machinery such as the exception filter.
 */
export async function startTestApp(
  env: RawEnv = {},
  controllers: Type[] = [],
  adjustConfig: AdjustConfig = (config) => config,
): Promise<TestApp> {
  // The public URL (and so the embedded issuer) must name the port the app really listens on.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  // Many apps run at once: each gets a management port of its own, not the default 9000.
  const managementPort = env.MANAGEMENT_PORT ? Number(env.MANAGEMENT_PORT) : await freePort();
  // Journeys post many forms from one address; the rate-limit tests set their own, low limit.
  const config = adjustConfig(
    testConfig({
      LOG_LEVEL: 'info',
      PORT: String(port),
      MANAGEMENT_PORT: String(managementPort),
      RATE_LIMIT_CREDENTIAL_POSTS: '10000/60',
      ...env,
    }),
  );
  const logs = new LogCapture();
  @Module({ imports: [AppModule.forRoot(config, { logDestination: logs })], controllers })
  class TestRootModule {}
  const app = await NestFactory.create<NestExpressApplication>(
    TestRootModule,
    strictHttpAdapter(),
    NEST_APP_OPTIONS,
  );
  configureApp(app, config);
  await app.listen(port, '127.0.0.1');
  await app.get(ManagementServer).listen(managementPort, '127.0.0.1');
  // What may finish after the listener (the demo users, issue 18 item 4) has, before a test signs in.
  await app.get(StartupTasks).settled();
  return {
    app,
    config,
    logs,
    url: `http://localhost:${port}`,
    managementUrl: `http://127.0.0.1:${managementPort}`,
    close: () => app.close(),
  };
}

/** What useTestApp starts the app with: variables, or a function that works them out first. */
export type TestAppEnv = RawEnv | (() => RawEnv | Promise<RawEnv>);

/**
 * The app a test file (or a describe block) runs against: started before its first test, closed
 * after its last. The returned object reads the running app; touching it outside a test throws.
 *
 * One app per file, not per worker: Jest gives every test file its own module registry, so an app
 * built from one file's classes would answer another file's `app.get(Class)` with "not found"
 * (different class objects). A start costs 0.3-0.7 s here (RSA keys, the Nest graph, the demo users
 * with their shipped hashes), about 50 s of CPU over the run's hundred starts.
 */
export function useTestApp(
  env: TestAppEnv = {},
  controllers: Type[] = [],
  adjustConfig?: AdjustConfig,
): TestApp {
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await startTestApp(
      typeof env === 'function' ? await env() : env,
      controllers,
      adjustConfig,
    );
  }, 60_000);
  afterAll(async () => {
    await started?.close();
  });
  const running = (): TestApp => {
    if (!started) throw new Error('the test app has not started (use it inside a test or a hook)');
    return started;
  };
  return {
    get app() {
      return running().app;
    },
    get config() {
      return running().config;
    },
    get logs() {
      return running().logs;
    },
    get url() {
      return running().url;
    },
    get managementUrl() {
      return running().managementUrl;
    },
    close: () => running().close(),
  };
}
