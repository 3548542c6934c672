/** §1: the four runtime environments, chosen by APP_ENV. */
export const APP_ENVS = ['local', 'dev', 'qa', 'prod'] as const;
export type AppEnv = (typeof APP_ENVS)[number];

/** local and dev are developer environments: defaults, the embedded IdP, `l=true`, the dark-mode switch (§5, §6). */
export function isDeveloperEnv(env: AppEnv): boolean {
  return env === 'local' || env === 'dev';
}

/** §1: the four service base addresses each environment has. */
export interface ServiceBases {
  /** The grading brand's site (PSA). Also the host of the error page's support link (§2). */
  readonly grading: string;
  /** The Japanese grading site. */
  readonly gradingJapan: string;
  /** The collector-identity router. */
  readonly cidRouter: string;
  /** The power-pack site. */
  readonly powerpacks: string;
}

export const SERVICE_BASE_KEYS = {
  grading: 'GRADING_BASE_URL',
  gradingJapan: 'GRADING_JAPAN_BASE_URL',
  cidRouter: 'CID_ROUTER_BASE_URL',
  powerpacks: 'POWERPACKS_BASE_URL',
} as const satisfies Record<keyof ServiceBases, string>;

/**
 * §1: "Local and dev share the same addresses". qa and prod have none here on purpose: they must be
 * configured, so that a forgotten variable stops start-up instead of pointing prod at a dev host.
 */
export const DEVELOPER_SERVICE_BASES: ServiceBases = {
  grading: 'https://dev.psacard.com',
  gradingJapan: 'https://dev.psacard.co.jp',
  cidRouter: 'https://dev-cid.collectors.com',
  powerpacks: 'https://dev.powerpacks.com',
};

export const SERVICE_NAMES = Object.keys(SERVICE_BASE_KEYS) as (keyof ServiceBases)[];
