import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AppConfig } from '../../src/config/app-config';
import { RawEnv, parseConfig } from '../../src/config/config.schema';
import PRODUCTION_ENV from './production-env.json';

/** A complete, valid environment for qa or prod: every address and secret they require. */
export function productionEnv(appEnv: 'qa' | 'prod' = 'prod'): Record<string, string> {
  return { APP_ENV: appEnv, ...PRODUCTION_ENV.env };
}

/** A fresh data directory per test, under the run's temporary folder (test/support/run-temp-dir.js). */
export function tempDataDir(): string {
  return path.join(os.tmpdir(), `signon-test-${randomUUID()}`);
}

/**
 * A parsed configuration for tests. local and dev need nothing; qa and prod get productionEnv().
 * Overrides win; a value of '' removes a variable.
 */
export function testConfig(overrides: RawEnv = {}): AppConfig {
  const appEnv = overrides.APP_ENV ?? 'local';
  const base: RawEnv =
    appEnv === 'qa' || appEnv === 'prod' ? productionEnv(appEnv) : { APP_ENV: appEnv };
  return parseConfig({ DATA_DIR: tempDataDir(), LOG_LEVEL: 'silent', ...base, ...overrides });
}

/** Rate limits that a spec signing in many times from one address must never reach. */
export const UNLIMITED_SIGNINS: RawEnv = {
  RATE_LIMIT_SIGNIN: '100000/60',
  RATE_LIMIT_SIGNIN_SESSION: '100000/60',
  RATE_LIMIT_CREDENTIAL_POSTS: '100000/60',
};
