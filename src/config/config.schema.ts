import { MAX_BATCH_CALLS } from '../shared/api-wire';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { z } from 'zod';
import { BRANDS, Brand, REDIRECT_BRANDS } from '../shared/brand';
import { BrandUrlOverride, ConfigProblem, buildBrandDirectory } from './brand-directory';
import { ENABLED_FEATURES_KEY, parseEnabledFeatures } from './enabled-features';
import { SESSION_STORE_KINDS, parseRedisStore } from './redis-store-config';
import { LOG_FORMATS } from './app-config';
import type { AppConfig, ClientCredentials, IdpMode, SessionStoreConfig } from './app-config';
import {
  APP_ENVS,
  AppEnv,
  DEVELOPER_SERVICE_BASES,
  SERVICE_BASE_KEYS,
  SERVICE_NAMES,
  ServiceBases,
  isDeveloperEnv,
} from '../shared/environment';

/** The raw environment: what process.env holds. */
export type RawEnv = Readonly<Record<string, string | undefined>>;

/** Thrown when the environment is unusable; its message lists every offending variable. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(
      `Invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((p) => `  - ${p.key}: ${p.message}`).join('\n'),
    );
    this.name = 'ConfigError';
  }
}

/**
 * Secrets used only in local and dev. They are public (they are in this file), so qa and prod refuse them.
 */
export const DEVELOPER_SECRETS = {
  SESSION_SECRET: 'local-dev-session-secret-not-for-real-use-0001',
  IDP_CLIENT_SECRET: 'local-dev-client-secret-not-for-real-use-0001',
} as const;

export const EMBEDDED_CLIENT_ID = 'collectors-signon';

/** Local and dev only: the published token key (refused in qa and prod, like the secrets above). */
export const DEVELOPER_TOKEN_KEY = `dev:${createHash('sha256')
  .update('local-dev-token-key-not-for-real-use')
  .digest('base64')}`;

/** TOKEN_ENCRYPTION_KEYS: `id:base64,id:base64`, each key 32 bytes; the first seals. */
const tokenKeyRing = z.string().transform((value, ctx) => {
  const ring: { id: string; key: Buffer }[] = [];
  for (const entry of value.split(',')) {
    const [id = '', encoded = '', extra] = entry.trim().split(':');
    const key = Buffer.from(encoded, 'base64');
    if (extra !== undefined || !/^[A-Za-z0-9_-]{1,32}$/.test(id) || key.length !== 32) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be a comma-separated list of id:base64 keys of 32 bytes',
      });
      return z.NEVER;
    }
    if (ring.some((k) => k.id === id)) {
      ctx.addIssue({ code: 'custom', message: `names key ${id} twice` });
      return z.NEVER;
    }
    ring.push({ id, key });
  }
  return ring;
});
const MIN_SECRET_LENGTH = 32;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Schemes a mobile app may not claim: they would turn the redirect policy into an open door. */
const RESERVED_SCHEMES = new Set([
  'http',
  'https',
  'javascript',
  'data',
  'blob',
  'file',
  'about',
  'vbscript',
  'filesystem',
  'view-source',
  'intent',
  'ws',
  'wss',
  'ftp',
  'mailto',
  'tel',
  'chrome',
  'content',
]);

const absoluteHttpUrl = z.string().refine(
  (v) => {
    try {
      const u = new URL(v);
      return (
        (u.protocol === 'https:' || u.protocol === 'http:') &&
        !u.username &&
        !u.password &&
        !u.search &&
        !u.hash
      );
    } catch {
      return false;
    }
  },
  { message: 'must be an absolute http(s) URL without credentials, query or fragment' },
);

const appScheme = z
  .string()
  .regex(/^[a-z][a-z0-9+.-]{1,31}$/, 'must be a lower-case URL scheme such as psacard')
  .refine((s) => !RESERVED_SCHEMES.has(s), 'is a reserved scheme');

const brandUrlOverride = z.strictObject({
  baseURL: absoluteHttpUrl.optional(),
  tokenURL: absoluteHttpUrl.optional(),
  localURL: absoluteHttpUrl.optional(),
  appScheme: appScheme.optional(),
  handoff: z.enum(['tokens-in-url', 'handoff-code']).optional(),
});

/** `limit/windowSeconds`, e.g. `30/60`. */
const rateLimitSchema = z
  .string()
  .regex(/^\d{1,6}\/\d{1,5}$/, 'must be LIMIT/SECONDS, e.g. 30/60')
  .transform((v) => {
    const [limit, windowSeconds] = v.split('/').map(Number) as [number, number];
    return { limit, windowSeconds };
  })
  .refine((r) => r.limit >= 1 && r.windowSeconds >= 1, 'limit and window must be at least 1');

/** A private RSA key as a JWK (RS256 logout tokens): JSON with kty RSA and the private exponent. */
const serviceSigningKey = z
  .string()
  .transform((v, ctx) => {
    try {
      return JSON.parse(v) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON Web Key' });
      return z.NEVER;
    }
  })
  .pipe(
    z.looseObject({
      kty: z.literal('RSA', 'must be an RSA key'),
      n: z.string().min(340, 'must be at least 2048 bits'),
      e: z.string().min(1),
      d: z.string().min(1, 'must be a private key'),
    }),
  );

const brandClient = (developer: boolean) =>
  z.strictObject({
    clientId: z.string().min(1).max(200),
    clientSecret: z
      .string()
      .min(developer ? 1 : MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters`),
  });

/**
 * Developer credentials for every redirect brand (local and dev only; public, so refused elsewhere):
 * web brands use them for the brand code redirect, mobile apps to exchange handoff codes.
 */
export function developerBrandClients(): Partial<Record<Brand, ClientCredentials>> {
  return Object.fromEntries(
    REDIRECT_BRANDS.map((b) => [
      b,
      { clientId: `brand-${b}`, clientSecret: `local-dev-brand-secret-${b}-not-for-real-use` },
    ]),
  );
}

function describe(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/**
 * Parses the environment once. Every problem is collected before failing, so an operator fixes them all
 * in one go; what the service can run with anyway comes back in `warnings`. qa and prod get no
 * defaults for secrets, addresses or the IdP (docs/design.md "Configuration").
 */
export function parseConfig(raw: RawEnv): AppConfig {
  const problems: ConfigProblem[] = [];
  /** Values the service can run with but an operator should fix; logged once the logger exists. */
  const warnings: ConfigProblem[] = [];
  const read = <T>(key: string, schema: z.ZodType<T>, fallback: T): T => {
    const value = raw[key];
    if (value === undefined || value === '') return fallback;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    problems.push({ key, message: describe(result.error) });
    return fallback;
  };
  /** A value that qa and prod must set explicitly. */
  const required = <T>(
    key: string,
    schema: z.ZodType<T>,
    developerDefault: T | undefined,
  ): T | undefined => {
    const value = raw[key];
    if (value === undefined || value === '') {
      if (developerDefault !== undefined && developer) return developerDefault;
      problems.push({ key, message: `is required in ${env}` });
      return undefined;
    }
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    problems.push({ key, message: describe(result.error) });
    return undefined;
  };

  const envResult = z.enum(APP_ENVS).safeParse(raw.APP_ENV ?? 'local');
  if (!envResult.success) {
    problems.push({
      key: 'APP_ENV',
      message: `must be one of ${APP_ENVS.join(', ')} (got "${String(raw.APP_ENV).slice(0, 40)}")`,
    });
  }
  const env: AppEnv = envResult.success ? envResult.data : 'prod'; // judge the rest by the strictest rules
  const developer = isDeveloperEnv(env);
  const secureUrl = developer
    ? absoluteHttpUrl
    : absoluteHttpUrl.refine((v) => v.startsWith('https://'), {
        message: `must use https in ${env}`,
      });

  const port = read('PORT', z.coerce.number().int().min(1).max(65535), 3333);
  const host = read('HOST', z.string().min(1), developer ? '127.0.0.1' : '0.0.0.0');
  const publicUrl =
    required('PUBLIC_URL', secureUrl, `http://localhost:${port}`)?.replace(/\/$/, '') ?? '';
  // Behind a balancer an unset TRUST_PROXY makes every collector one address (the balancer's), so one
  // rate-limit bucket for all: qa and prod must say how many proxies there are, 0 included (issue 15
  // item 4). Locally nothing sits in front.
  const trustProxy = required('TRUST_PROXY', z.coerce.number().int().min(0).max(10), 0) ?? 0;
  const dataDir = path.resolve(read('DATA_DIR', z.string().min(1), './data'));

  const services = Object.fromEntries(
    SERVICE_NAMES.map((name) => [
      name,
      required(SERVICE_BASE_KEYS[name], secureUrl, DEVELOPER_SERVICE_BASES[name])?.replace(
        /\/$/,
        '',
      ) ?? '',
    ]),
  ) as unknown as ServiceBases;

  const storeKind = read('SESSION_STORE', z.enum(SESSION_STORE_KINDS), 'sqlite');
  let sessionStore: SessionStoreConfig = {
    kind: 'sqlite',
    file: path.join(dataDir, 'sessions.sqlite'),
  };
  if (storeKind !== 'sqlite') {
    const redis = parseRedisStore(storeKind, raw, problems, warnings);
    if (redis) sessionStore = redis;
  }

  const secret = (key: keyof typeof DEVELOPER_SECRETS): string => {
    const value = raw[key];
    if (!value) {
      if (developer) return DEVELOPER_SECRETS[key];
      problems.push({ key, message: `is required in ${env}` });
      return '';
    }
    if (!developer && value === DEVELOPER_SECRETS[key]) {
      problems.push({ key, message: `must not be the public developer default in ${env}` });
    } else if (!developer && value.length < MIN_SECRET_LENGTH) {
      problems.push({ key, message: `must be at least ${MIN_SECRET_LENGTH} characters in ${env}` });
    }
    return value;
  };
  const sessionSecret = secret('SESSION_SECRET');
  const tokenKeys =
    required('TOKEN_ENCRYPTION_KEYS', tokenKeyRing, tokenKeyRing.parse(DEVELOPER_TOKEN_KEY)) ?? [];
  if (!developer && raw.TOKEN_ENCRYPTION_KEYS?.includes(DEVELOPER_TOKEN_KEY.slice(4))) {
    problems.push({
      key: 'TOKEN_ENCRYPTION_KEYS',
      message: `must not hold the published developer key in ${env}`,
    });
  }
  const sessionLifetime = {
    idleSeconds: read(
      'SESSION_IDLE_TIMEOUT_SECONDS',
      z.coerce.number().int().min(1).max(31_536_000),
      2_592_000,
    ),
    absoluteSeconds: read(
      'SESSION_MAX_LIFETIME_SECONDS',
      z.coerce.number().int().min(1).max(31_536_000),
      31_536_000,
    ),
  };
  if (sessionLifetime.idleSeconds > sessionLifetime.absoluteSeconds) {
    problems.push({
      key: 'SESSION_IDLE_TIMEOUT_SECONDS',
      message: `must not exceed SESSION_MAX_LIFETIME_SECONDS (${sessionLifetime.absoluteSeconds})`,
    });
  }

  const idpMode: IdpMode = read(
    'IDP_MODE',
    z.enum(['embedded', 'external']),
    developer ? 'embedded' : 'external',
  );
  if (idpMode === 'embedded' && !developer) {
    // The embedded IdP seeds demo users with published passwords: never outside local and dev.
    problems.push({
      key: 'IDP_MODE',
      message: `embedded is only allowed in local and dev, not ${env}`,
    });
  }
  const embedded = idpMode === 'embedded';
  const issuer = embedded
    ? read('IDP_ISSUER', secureUrl, `${publicUrl}/oauth2/default`).replace(/\/$/, '')
    : (required('IDP_ISSUER', secureUrl, undefined)?.replace(/\/$/, '') ?? '');
  const clientId = embedded
    ? read('IDP_CLIENT_ID', z.string().min(1).max(200), EMBEDDED_CLIENT_ID)
    : (required('IDP_CLIENT_ID', z.string().min(1).max(200), undefined) ?? '');
  const clientSecret =
    embedded && !raw.IDP_CLIENT_SECRET
      ? DEVELOPER_SECRETS.IDP_CLIENT_SECRET
      : secret('IDP_CLIENT_SECRET');

  // Issue 31 item 1: a custom authorization server names its own audience (an absolute URI or a
  // plain name: Okta accepts both); the default is Okta's default server's.
  const audience = read(
    'IDP_AUDIENCE',
    z
      .string()
      .min(1)
      .max(200)
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII with no spaces'),
    'api://default',
  );

  // Issue 32 item 4: never below what the browser's client batches (MAX_BATCH_CALLS).
  const apiMaxBatch = read(
    'API_MAX_BATCH',
    z.coerce.number().int().min(MAX_BATCH_CALLS).max(100),
    MAX_BATCH_CALLS,
  );

  // Issue 31 item 3: a revocation the IdP did not take is retried from this delay, doubling.
  const revocationRetryMs = read(
    'REVOCATION_RETRY_MS',
    z.coerce.number().int().min(100).max(3_600_000),
    30_000,
  );

  let overrides: Partial<Record<Brand, BrandUrlOverride>> = {};
  if (raw.BRAND_URLS) {
    let json: unknown;
    try {
      json = JSON.parse(raw.BRAND_URLS);
    } catch {
      problems.push({ key: 'BRAND_URLS', message: 'must be a JSON object keyed by brand code' });
    }
    if (json !== undefined) {
      const parsed = z.partialRecord(z.enum(BRANDS), brandUrlOverride).safeParse(json);
      if (parsed.success) overrides = parsed.data;
      else problems.push({ key: 'BRAND_URLS', message: describe(parsed.error) });
    }
  }

  let brandClients: Partial<Record<Brand, ClientCredentials>> = {};
  if (raw.BRAND_CLIENTS) {
    let json: unknown;
    try {
      json = JSON.parse(raw.BRAND_CLIENTS);
    } catch {
      problems.push({ key: 'BRAND_CLIENTS', message: 'must be a JSON object keyed by brand code' });
    }
    if (json !== undefined) {
      const parsed = z
        .partialRecord(z.enum(REDIRECT_BRANDS as [Brand, ...Brand[]]), brandClient(developer))
        .safeParse(json);
      if (parsed.success) brandClients = parsed.data;
      else problems.push({ key: 'BRAND_CLIENTS', message: describe(parsed.error) });
      // The developer credentials are in this repository: outside local and dev they open every brand.
      if (!developer) {
        const published = new Set(
          Object.values(developerBrandClients()).map((c) => c?.clientSecret),
        );
        for (const [brand, credentials] of Object.entries(brandClients)) {
          if (published.has(credentials?.clientSecret))
            problems.push({
              key: `BRAND_CLIENTS.${brand}.clientSecret`,
              message: `must not be a published developer secret in ${env}`,
            });
        }
      }
    }
  } else if (embedded) {
    brandClients = developerBrandClients();
  }

  // Issue 7: brands that want back-channel logout (OIDC Back-Channel Logout 1.0) name their endpoint.
  let backchannelUris: Partial<Record<Brand, string>> = {};
  if (raw.BACKCHANNEL_LOGOUT_URIS) {
    let json: unknown;
    try {
      json = JSON.parse(raw.BACKCHANNEL_LOGOUT_URIS);
    } catch {
      problems.push({
        key: 'BACKCHANNEL_LOGOUT_URIS',
        message: 'must be a JSON object of brand code to https URL',
      });
    }
    if (json !== undefined) {
      const uri = developer
        ? absoluteHttpUrl
        : absoluteHttpUrl.refine((v) => v.startsWith('https:'), 'must be https');
      const parsed = z.partialRecord(z.enum(BRANDS), uri).safeParse(json);
      if (parsed.success) backchannelUris = parsed.data;
      else problems.push({ key: 'BACKCHANNEL_LOGOUT_URIS', message: describe(parsed.error) });
    }
  }
  // The key logout tokens are signed with: every instance must share it, so qa and prod set it when
  // any brand receives logout tokens; local and dev generate one and keep it under DATA_DIR.
  let signingKey: string | undefined;
  if (raw.SERVICE_SIGNING_KEY) {
    const parsed = serviceSigningKey.safeParse(raw.SERVICE_SIGNING_KEY);
    if (parsed.success) signingKey = raw.SERVICE_SIGNING_KEY;
    else problems.push({ key: 'SERVICE_SIGNING_KEY', message: describe(parsed.error) });
  } else if (!developer && Object.keys(backchannelUris).length > 0) {
    problems.push({
      key: 'SERVICE_SIGNING_KEY',
      message: 'is required when BACKCHANNEL_LOGOUT_URIS names a brand (a private RSA JWK)',
    });
  }
  const backchannel = {
    uris: backchannelUris,
    ...(signingKey ? { signingKey } : {}),
    retryBaseMs: read('BACKCHANNEL_RETRY_MS', z.coerce.number().int().min(1).max(60_000), 1000),
  };

  const log = {
    level: read('LOG_LEVEL', z.enum(LOG_LEVELS), 'info'),
    // Issue 17 item 4: JSON by default; issue 33 item 4: in local, pretty when stdout is a terminal.
    format: read<AppConfig['log']['format']>(
      'LOG_FORMAT',
      z.enum(LOG_FORMATS, 'must be json or pretty'),
      env === 'local' ? 'terminal' : 'json',
    ),
  };
  const tracing = { enabled: tracingEnabled(raw) };
  // §3 "Enabled-features data: a list of strings", e.g. gettingStarted for the header's first dropdown.
  // §5: malformed data is treated as empty, so it is a warning, not a problem that stops the start.
  const enabledFeatures = parseEnabledFeatures(raw[ENABLED_FEATURES_KEY]);
  if (!enabledFeatures.ok) {
    warnings.push({
      key: ENABLED_FEATURES_KEY,
      message: `${enabledFeatures.problem}; the features are treated as empty (§5)`,
    });
  }
  const features = enabledFeatures.features;
  const rateLimit = {
    credentialPosts: read('RATE_LIMIT_CREDENTIAL_POSTS', rateLimitSchema, {
      limit: 30,
      windowSeconds: 60,
    }),
    signinPerAddress: read('RATE_LIMIT_SIGNIN', rateLimitSchema, { limit: 120, windowSeconds: 60 }),
    signinPerSession: read('RATE_LIMIT_SIGNIN_SESSION', rateLimitSchema, {
      limit: 60,
      windowSeconds: 60,
    }),
    // §8 error reports are not sign-ins: their own setting (with RATE_LIMIT_SIGNIN's default), so
    // that raising one limit does not raise the other.
    clientErrors: read('RATE_LIMIT_CLIENT_ERRORS', rateLimitSchema, {
      limit: 120,
      windowSeconds: 60,
    }),
  };

  // A load balancer needs a few probe intervals to see /readyz turn 503 (qa and prod run behind one);
  // on a laptop nothing is watching, so stop at once.
  const drainMs = read(
    'SHUTDOWN_DRAIN_MS',
    z.coerce.number().int().min(0).max(60_000),
    developer ? 0 : 5_000,
  );
  const timeoutMs = read(
    'SHUTDOWN_TIMEOUT_MS',
    z.coerce.number().int().min(1_000).max(300_000),
    10_000,
  );
  if (drainMs >= timeoutMs) {
    problems.push({
      key: 'SHUTDOWN_DRAIN_MS',
      message: `must be less than SHUTDOWN_TIMEOUT_MS (${timeoutMs})`,
    });
  }

  const accessTokenTtlSeconds = read(
    'IDP_ACCESS_TOKEN_TTL_SECONDS',
    z.coerce.number().int().min(1).max(86_400),
    3600,
  );
  const accessTokenMaxLifetimeSeconds = read(
    'ACCESS_TOKEN_MAX_LIFETIME_SECONDS',
    z.coerce.number().int().min(60).max(604_800),
    86_400,
  );
  if (embedded && accessTokenTtlSeconds > accessTokenMaxLifetimeSeconds) {
    problems.push({
      key: 'IDP_ACCESS_TOKEN_TTL_SECONDS',
      message: `must not exceed ACCESS_TOKEN_MAX_LIFETIME_SECONDS (${accessTokenMaxLifetimeSeconds})`,
    });
  }

  const { directory, problems: brandProblems } = buildBrandDirectory({
    env,
    services,
    publicUrl,
    overrides,
  });
  problems.push(...brandProblems);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    env,
    http: {
      host,
      port,
      publicUrl,
      trustProxy,
      compression: read('COMPRESSION', z.enum(['on', 'off']), 'on') === 'on',
      apiMaxBatch,
    },
    services,
    features,
    warnings,
    backchannel,
    dataDir,
    sessionStore,
    sessionSecret,
    tokenKeys,
    sessionLifetime,
    idp: {
      mode: idpMode,
      issuer,
      clientId,
      clientSecret,
      audience,
      revocationRetryMs,
      accessTokenTtlSeconds,
      accessTokenMaxLifetimeSeconds,
    },
    brands: directory,
    brandClients,
    rateLimit,
    log,
    tracing,
    shutdown: { drainMs, timeoutMs },
  };
}

/**
 * Issue 17 item 2: traces are exported when an OTLP endpoint is set, for all signals or for traces
 * (OpenTelemetry specification, "OpenTelemetry Protocol Exporter"). The SDK reads every OTEL_*
 * variable itself; this only decides whether it is loaded at all, and so also honours the two
 * variables by which the specification turns tracing off: OTEL_SDK_DISABLED=true ("Environment
 * Variable Specification": a boolean, true case-insensitively) and OTEL_TRACES_EXPORTER=none (the
 * SDK for Node then sets up no exporter when none comes first).
 */
function tracingEnabled(raw: RawEnv): boolean {
  const endpoint = raw.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || raw.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint?.trim()) return false;
  if (raw.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const [firstExporter] = (raw.OTEL_TRACES_EXPORTER ?? '').split(',').map((e) => e.trim());
  return firstExporter !== 'none';
}
