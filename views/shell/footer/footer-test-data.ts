// Shared fixtures of the footer specs (not a spec itself).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LOCALES_DIR } from '../../../src/config/project-paths';
import {
  APP_ENVS,
  DEVELOPER_SERVICE_BASES,
  type AppEnv,
  type ServiceBases,
} from '../../../src/config/environment';
import type { Locale } from '../../../src/locale/locale';
import { createTranslate, type Translate } from '../../translate';
import type { ShellData } from '../shell-data';

export { APP_ENVS };

/** §1: local and dev share the developer addresses; qa and prod are configured (test values here). */
export const TEST_SERVICE_BASES: Readonly<Record<AppEnv, ServiceBases>> = {
  local: DEVELOPER_SERVICE_BASES,
  dev: DEVELOPER_SERVICE_BASES,
  qa: {
    grading: 'https://qa.psacard.example',
    gradingJapan: 'https://qa.psacard-jp.example',
    cidRouter: 'https://qa-cid.collectors.example',
    powerpacks: 'https://qa.powerpacks.example',
  },
  prod: {
    grading: 'https://www.psacard.example',
    gradingJapan: 'https://www.psacard-jp.example',
    cidRouter: 'https://cid.collectors.example',
    powerpacks: 'https://www.powerpacks.example',
  },
};

export function shellData(overrides: Partial<ShellData> = {}): ShellData {
  const env = overrides.env ?? 'prod';
  return {
    page: 'collection',
    locale: 'en-US',
    env,
    brand: 'psa',
    theme: 'light',
    services: TEST_SERVICE_BASES[env],
    features: [],
    currentPath: '/collection',
    year: 2031,
    messages: {},
    ...overrides,
  };
}

/** A Translate over the real footer messages of a locale, as shell pages build it. */
export function footerTranslate(locale: Locale): Translate {
  const footer: unknown = JSON.parse(
    fs.readFileSync(path.join(LOCALES_DIR, locale, 'footer.json'), 'utf8'),
  );
  return createTranslate({ footer });
}
