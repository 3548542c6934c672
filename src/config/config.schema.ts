import * as path from 'node:path';
import { z } from 'zod';
import type { AppConfig, SessionStoreConfig } from './app-config';
import { ConfigProblem, buildBrandDirectory } from './brand-directory';
import {
  AGREEMENTS,
  GIVEN_RULES,
  UNSET_RULES,
  WARNING_RULES,
  isUnsetRule,
  isWarningRule,
} from './config-rules';
import { ENABLED_FEATURES_KEY, parseEnabledFeatures } from './enabled-features';
import { ENV_VARS, EnvVar, ParsedVarName, ValueOf, schemaOf } from './env-vars';
import { parseRedisStore } from './redis-store-config';
import {
  AppEnv,
  SERVICE_BASE_KEYS,
  SERVICE_NAMES,
  ServiceBases,
  isDeveloperEnv,
} from '../shared/environment';

export {
  DEVELOPER_SECRETS,
  DEVELOPER_TOKEN_KEY,
  EMBEDDED_CLIENT_ID,
  developerBrandClients,
} from './env-vars';

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

function describe(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/**
 * Reads variables as ENV_VARS says: the text, or else the environment's default (`$NAME` replaced
 * by NAME's value), through the variable's schema, with the qa/prod rules of config-rules.ts. A text
 * the schema refuses is a problem, and the default stands in for it so that the rest can still be
 * judged. A default that does not parse only ever refers to a variable already reported.
 */
function readerOf(raw: RawEnv, env: AppEnv, problems: ConfigProblem[], warnings: ConfigProblem[]) {
  const values: Partial<Record<ParsedVarName, unknown>> = {};
  const strict = !isDeveloperEnv(env);

  const defaultTextOf = (entry: EnvVar): string | undefined =>
    (values.IDP_MODE === 'embedded' ? entry.defaults.embedded : undefined) ?? entry.defaults[env];

  const withReferences = (text: string): string | undefined => {
    let missing = false;
    const replaced = text.replace(/\$([A-Z][A-Z0-9_]*)/g, (_match, name: string) => {
      const value = values[name as ParsedVarName];
      if (value === undefined) missing = true;
      return String(value);
    });
    return missing ? undefined : replaced;
  };

  const read = <K extends ParsedVarName>(name: K): ValueOf<K> | undefined => {
    const entry: EnvVar = ENV_VARS[name];
    const schema = schemaOf(entry, env) ?? z.never();
    const defaultText = defaultTextOf(entry);
    const fallback = (): unknown => {
      const text = defaultText === undefined ? undefined : withReferences(defaultText);
      if (text === undefined) return undefined;
      const parsed = schema.safeParse(text);
      return parsed.success ? parsed.data : undefined;
    };
    const text = raw[name];
    let value: unknown;
    if (text === undefined || text === '') {
      if (defaultText === undefined) {
        for (const rule of entry.qaProd.filter(isUnsetRule)) {
          const message = UNSET_RULES[rule]({ env, values });
          if (message !== undefined) problems.push({ key: name, message });
        }
      }
      value = fallback();
    } else {
      const parsed = schema.safeParse(text);
      if (!parsed.success) problems.push({ key: name, message: describe(parsed.error) });
      if (strict) {
        const given = {
          env,
          name,
          text,
          value: parsed.success ? parsed.data : undefined,
          published: entry.defaults.local,
          values,
        };
        for (const rule of entry.qaProd) {
          if (isUnsetRule(rule) || rule === 'https') continue;
          if (isWarningRule(rule)) warnings.push(...WARNING_RULES[rule](given));
          else problems.push(...GIVEN_RULES[rule](given));
        }
      }
      value = parsed.success ? parsed.data : fallback();
    }
    values[name] = value;
    return value as ValueOf<K> | undefined;
  };

  /** For a variable with a default in every environment: its value, never undefined. */
  const get = <K extends ParsedVarName>(name: K): ValueOf<K> => {
    const value = read(name);
    if (value === undefined) throw new Error(`${name} has no usable default in ${env}`);
    return value;
  };
  return { read, get };
}

/**
 * Parses the environment once, through ENV_VARS (env-vars.ts). Every problem is collected before
 * failing, so an operator fixes them all in one go; what the service can run with anyway comes back
 * in `warnings`. qa and prod get no defaults for secrets, addresses or the IdP (docs/design.md
 * "Configuration").
 */
export function parseConfig(raw: RawEnv): AppConfig {
  const problems: ConfigProblem[] = [];
  /** Values the service can run with but an operator should fix; logged once the logger exists. */
  const warnings: ConfigProblem[] = [];

  const envResult = ENV_VARS.APP_ENV.schema.safeParse(raw.APP_ENV ?? 'local');
  if (!envResult.success) problems.push({ key: 'APP_ENV', message: describe(envResult.error) });
  const env: AppEnv = envResult.success ? envResult.data : 'prod'; // judge the rest by the strictest rules
  const { read, get } = readerOf(raw, env, problems, warnings);

  const port = get('PORT');
  const host = get('HOST');
  const management = { port: get('MANAGEMENT_PORT'), host: get('MANAGEMENT_HOST') };
  const publicUrl = read('PUBLIC_URL') ?? '';
  const trustProxy = read('TRUST_PROXY') ?? 0;
  const dataDir = get('DATA_DIR');
  const services = Object.fromEntries(
    SERVICE_NAMES.map((name) => [name, read(SERVICE_BASE_KEYS[name]) ?? '']),
  ) as unknown as ServiceBases;

  const storeKind = get('SESSION_STORE');
  let sessionStore: SessionStoreConfig = {
    kind: 'sqlite',
    file: path.join(dataDir, 'sessions.sqlite'),
  };
  if (storeKind !== 'sqlite') {
    const redis = parseRedisStore(storeKind, raw, problems, warnings);
    if (redis) sessionStore = redis;
  }

  const sessionSecrets = read('SESSION_SECRET') ?? [];
  const tokenKeys = read('TOKEN_ENCRYPTION_KEYS') ?? [];
  const sessionLifetime = {
    idleSeconds: get('SESSION_IDLE_TIMEOUT_SECONDS'),
    absoluteSeconds: get('SESSION_MAX_LIFETIME_SECONDS'),
  };

  const idpMode = get('IDP_MODE');
  const embedded = idpMode === 'embedded';
  const issuer = read('IDP_ISSUER') ?? '';
  const clientId = read('IDP_CLIENT_ID') ?? '';
  const clientAuthMethod = get('IDP_CLIENT_AUTH_METHOD');
  const clientSecret = read('IDP_CLIENT_SECRET') ?? '';
  const clientPrivateKey = read('IDP_CLIENT_PRIVATE_KEY');
  const audience = get('IDP_AUDIENCE');
  const apiMaxBatch = get('API_MAX_BATCH');
  const revocationRetryMs = get('REVOCATION_RETRY_MS');

  const overrides = read('BRAND_URLS') ?? {};
  const brandClients = read('BRAND_CLIENTS') ?? {};
  const backchannelUris = read('BACKCHANNEL_LOGOUT_URIS') ?? {};
  const signingKeys = read('SERVICE_SIGNING_KEY');
  const backchannel = {
    uris: backchannelUris,
    ...(signingKeys ? { signingKeys } : {}),
    retryBaseMs: get('BACKCHANNEL_RETRY_MS'),
  };

  const log: AppConfig['log'] = {
    level: get('LOG_LEVEL'),
    format: read('LOG_FORMAT') ?? 'terminal',
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
    credentialPosts: get('RATE_LIMIT_CREDENTIAL_POSTS'),
    signinPerAddress: get('RATE_LIMIT_SIGNIN'),
    signinPerSession: get('RATE_LIMIT_SIGNIN_SESSION'),
    clientErrors: get('RATE_LIMIT_CLIENT_ERRORS'),
  };
  const shutdown = { drainMs: get('SHUTDOWN_DRAIN_MS'), timeoutMs: get('SHUTDOWN_TIMEOUT_MS') };
  const keepAliveTimeoutSeconds = get('HTTP_KEEP_ALIVE_TIMEOUT_SECONDS');
  const headersTimeoutSeconds = get('HTTP_HEADERS_TIMEOUT_SECONDS');
  const accessTokenTtlSeconds = get('IDP_ACCESS_TOKEN_TTL_SECONDS');
  const accessTokenMaxLifetimeSeconds = get('ACCESS_TOKEN_MAX_LIFETIME_SECONDS');
  const compression = get('COMPRESSION') === 'on';

  const agreeing = {
    PORT: port,
    MANAGEMENT_PORT: management.port,
    SESSION_IDLE_TIMEOUT_SECONDS: sessionLifetime.idleSeconds,
    SESSION_MAX_LIFETIME_SECONDS: sessionLifetime.absoluteSeconds,
    SHUTDOWN_DRAIN_MS: shutdown.drainMs,
    SHUTDOWN_TIMEOUT_MS: shutdown.timeoutMs,
    HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: keepAliveTimeoutSeconds,
    HTTP_HEADERS_TIMEOUT_SECONDS: headersTimeoutSeconds,
    IDP_ACCESS_TOKEN_TTL_SECONDS: accessTokenTtlSeconds,
    ACCESS_TOKEN_MAX_LIFETIME_SECONDS: accessTokenMaxLifetimeSeconds,
    embedded,
  };
  for (const { key, problem } of AGREEMENTS) {
    const message = problem(agreeing);
    if (message !== undefined) problems.push({ key, message });
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
      compression,
      apiMaxBatch,
      keepAliveTimeoutSeconds,
      headersTimeoutSeconds,
    },
    management,
    services,
    features,
    warnings,
    backchannel,
    dataDir,
    sessionStore,
    sessionSecrets,
    tokenKeys,
    sessionLifetime,
    idp: {
      mode: idpMode,
      issuer,
      clientId,
      clientSecret,
      clientAuthMethod,
      // Kept only where it signs: a key left set after a move back to a secret method is unused.
      ...(clientAuthMethod === 'private_key_jwt' && clientPrivateKey ? { clientPrivateKey } : {}),
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
    shutdown,
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
