import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AppConfig } from '../../src/config/app-config';
import { RawEnv, parseConfig } from '../../src/config/config.schema';

/** A complete, valid environment for qa or prod: every address and secret they require. */
export function productionEnv(appEnv: 'qa' | 'prod' = 'prod'): Record<string, string> {
  return {
    APP_ENV: appEnv,
    PUBLIC_URL: 'https://signin.collectors.com',
    TRUST_PROXY: '1',
    GRADING_BASE_URL: 'https://www.psacard.com',
    GRADING_JAPAN_BASE_URL: 'https://www.psacard.co.jp',
    CID_ROUTER_BASE_URL: 'https://cid.collectors.com',
    POWERPACKS_BASE_URL: 'https://www.powerpacks.com',
    SESSION_SECRET: 's'.repeat(40),
    TOKEN_ENCRYPTION_KEYS: `prod-1:${Buffer.alloc(32, 7).toString('base64')}`,
    IDP_ISSUER: 'https://login.collectors.com/oauth2/default',
    IDP_CLIENT_ID: '0oa-signon',
    IDP_CLIENT_SECRET: 'c'.repeat(40),
    BRAND_URLS: JSON.stringify({
      goldin: { baseURL: 'https://goldin.co' },
      goldinmobile: { baseURL: 'https://goldin.co', appScheme: 'goldin' },
      pcgs: { baseURL: 'https://www.pcgs.com' },
      pcgschina: { baseURL: 'https://www.pcgschina.com' },
      pcgsasia: { baseURL: 'https://www.pcgsasia.com' },
      pcgseurope: { baseURL: 'https://www.pcgseurope.com' },
      lbe: { baseURL: 'https://www.longbeachexpo.com' },
      cc: { baseURL: 'https://www.collectorscorner.com' },
      ccmobile: { baseURL: 'https://www.collectorscorner.com', appScheme: 'collectorscorner' },
      certifi: { baseURL: 'https://www.certifi.com' },
      enterprise: { baseURL: 'https://dealers.collectors.com' },
      psamobile: { appScheme: 'psacard' },
      collectorsmobile: { appScheme: 'collectors' },
    }),
  };
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
