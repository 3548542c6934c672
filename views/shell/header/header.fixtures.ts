// Test fixtures for the header specs: shell data per locale and environment, and a Translate over the
// real locale files. Not imported by any view.
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

/** §1: local and dev share addresses; qa and prod are configured (made-up hosts here). */
export const SERVICES_BY_ENV: Readonly<Record<AppEnv, ServiceBases>> = {
  local: DEVELOPER_SERVICE_BASES,
  dev: DEVELOPER_SERVICE_BASES,
  qa: {
    grading: 'https://qa.grading.test',
    gradingJapan: 'https://qa.grading-japan.test',
    cidRouter: 'https://qa.cid.test',
    powerpacks: 'https://qa.powerpacks.test',
  },
  prod: {
    grading: 'https://grading.test',
    gradingJapan: 'https://grading-japan.test',
    cidRouter: 'https://cid.test',
    powerpacks: 'https://powerpacks.test',
  },
};

export function loadHeaderMessages(locale: Locale): Record<string, unknown> {
  return JSON.parse(
    fs.readFileSync(path.join(LOCALES_DIR, locale, 'header.json'), 'utf8'),
  ) as Record<string, unknown>;
}

export function translateFor(locale: Locale): Translate {
  return createTranslate({ header: loadHeaderMessages(locale) });
}

export function shellData(
  overrides: Partial<ShellData> & { readonly locale?: Locale; readonly env?: AppEnv } = {},
): ShellData {
  const env = overrides.env ?? 'prod';
  return {
    page: 'collection',
    locale: 'en-US',
    env,
    brand: 'psa',
    theme: 'light',
    services: SERVICES_BY_ENV[env],
    features: [],
    currentPath: '/collection',
    year: 2025,
    account: {
      isSignedIn: true,
      isMigrating: false,
      setupMfa: false,
      showSurvey: false,
      collectorsId: 42,
    },
    messages: {},
    ...overrides,
  };
}

/** How React escapes text and attribute values, to look for translated labels in markup. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
}

export function attributeValues(html: string, attribute: string): string[] {
  return [...html.matchAll(new RegExp(`\\s${attribute}="([^"]*)"`, 'g'))].map((m) =>
    (m[1] ?? '').replace(/&amp;/g, '&'),
  );
}
