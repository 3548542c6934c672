import { type JsonWebKey, createHash, createPrivateKey } from 'node:crypto';
import * as path from 'node:path';
import { z } from 'zod';
import { MAX_BATCH_CALLS } from '../shared/api-wire';
import { BRANDS, Brand, REDIRECT_BRANDS } from '../shared/brand';
import { APP_ENVS, AppEnv, DEVELOPER_SERVICE_BASES, isDeveloperEnv } from '../shared/environment';
import type { ClientCredentials, ClientPrivateJwk } from './app-config';
import { CLIENT_AUTH_METHODS, LOG_FORMATS, SECRET_AUTH_METHODS } from './app-config';
import { SESSION_STORE_KINDS } from './redis-store-config';
import { readSecretRing } from './secret-ring';

/**
 * Every environment variable the service reads, as one table (docs/design.md "Configuration"):
 * how its text is parsed, what it is when unset in each environment, what qa and prod demand of it,
 * and where the README documents it. parseConfig (config.schema.ts) reads through this table and
 * nothing else; src/config/env-vars.spec.ts holds the README's table to it, both ways.
 */

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

export const MIN_SECRET_LENGTH = 32;
/**
 * The proxies in front of the service in the documented deployments (deploy/compose.yaml and
 * deploy/kubernetes: the balancer or the ingress, which terminates TLS). A larger TRUST_PROXY is
 * warned about in qa and prod (docs/security.md, weak secrets).
 */
export const DOCUMENTED_PROXY_HOPS = 1;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

// ---------------------------------------------------------------------------------------------------
// Schemas: each parses the text of one variable.

/** An integer variable within its bounds. */
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/**
 * A variable holding JSON: the text is parsed here, once for every such variable, then checked by
 * `schema`, whose problems name their place inside the JSON (`pcgs.baseURL: ...`).
 */
export function jsonOf<T extends z.ZodType>(schema: T, notJson: string) {
  return z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: notJson });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

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

/** SESSION_SECRET: `NEW,OLD`, newest first; the first names new sessions, all find theirs. */
const secretRing = z.string().transform((text, ctx) => {
  const reading = readSecretRing(text);
  if ('secrets' in reading) return reading.secrets;
  ctx.addIssue({ code: 'custom', message: reading.problem });
  return z.NEVER;
});

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

export const absoluteHttpUrl = z.string().refine(
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

/**
 * An address of this service, the IdP or a service (§1), without its trailing slash. The `https`
 * rule of qa and prod is part of the schema, so that its message joins the URL's own.
 */
const serviceUrl = (env: AppEnv) =>
  (isDeveloperEnv(env)
    ? absoluteHttpUrl
    : absoluteHttpUrl.refine((v) => v.startsWith('https://'), {
        message: `must use https in ${env}`,
      })
  ).transform((v) => v.replace(/\/$/, ''));

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
const rateLimit = z
  .string()
  .regex(/^\d{1,6}\/\d{1,5}$/, 'must be LIMIT/SECONDS, e.g. 30/60')
  .transform((v) => {
    const [limit, windowSeconds] = v.split('/').map(Number) as [number, number];
    return { limit, windowSeconds };
  })
  .refine((r) => r.limit >= 1 && r.windowSeconds >= 1, 'limit and window must be at least 1');

/** A private RSA key as a JWK (RS256 logout tokens): kty RSA and the private exponent. */
const rsaPrivateJwk = z.looseObject({
  kty: z.literal('RSA', 'must be an RSA key'),
  n: z.string().min(340, 'must be at least 2048 bits'),
  e: z.string().min(1),
  d: z.string().min(1, 'must be a private key'),
});

/** The JWS algorithms Okta takes for client assertions, by key type (docs/okta.md). */
const ASSERTION_ALGS = { RSA: ['RS256', 'RS384', 'RS512'], EC: ['ES256', 'ES384', 'ES512'] };
/** The curve each EC algorithm signs with (RFC 7518 §3.4). */
const EC_CURVES: Readonly<Record<string, string>> = {
  'P-256': 'ES256',
  'P-384': 'ES384',
  'P-521': 'ES512',
};

/**
 * IDP_CLIENT_PRIVATE_KEY: the private JWK that signs `private_key_jwt` assertions (RFC 7523 §2.2).
 * A JWK, as SERVICE_SIGNING_KEY is, because its public half is what the Okta app registers, under
 * the same `kid` (docs/okta.md "Client authentication"). Node must be able to load it, so a key
 * that would only fail at the first sign-in stops the start instead.
 */
const clientPrivateJwk = jsonOf(
  z
    .looseObject({
      kty: z.enum(['RSA', 'EC'], 'must be an RSA or EC key'),
      kid: z
        .string('must name its kid: the key id registered with the public key on the app')
        .regex(/^[\x21-\x7e]{1,200}$/, 'kid must be 1 to 200 printable characters'),
      d: z.string('must be a private key (it has no d)').min(1, 'must be a private key'),
      alg: z.string().optional(),
      crv: z.string().optional(),
      n: z.string().optional(),
    })
    .superRefine((jwk, ctx) => {
      if (jwk.kty === 'RSA' && (jwk.n ?? '').length < 342)
        ctx.addIssue({ code: 'custom', message: 'must be an RSA key of at least 2048 bits' });
      if (jwk.kty === 'EC' && !(jwk.crv !== undefined && jwk.crv in EC_CURVES))
        ctx.addIssue({ code: 'custom', message: 'must be on P-256, P-384 or P-521' });
      const expected = jwk.kty === 'EC' ? [EC_CURVES[jwk.crv ?? '']] : ASSERTION_ALGS.RSA;
      if (jwk.alg !== undefined && !expected.includes(jwk.alg))
        ctx.addIssue({
          code: 'custom',
          message: `alg ${jwk.alg} does not fit the key (${expected.join(', ')})`,
        });
      try {
        createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' });
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `is not a usable private key: ${(error as Error).message}`,
        });
      }
    })
    .transform((jwk) => jwk as ClientPrivateJwk),
  'must be a private JSON Web Key (JSON)',
);

/** The most keys SERVICE_SIGNING_KEY may hold: the one signing, the next, the one just retired. */
export const MAX_SIGNING_KEYS = 3;

/**
 * SERVICE_SIGNING_KEY: one private RSA JWK, or a JSON array of them, the first signing and every
 * one published (docs/operating.md "Rotating secrets"). A JWK is JSON full of commas, so the ring
 * is a JSON array rather than a list. Each key is kept as its JSON text (a lone JWK exactly as
 * written).
 */
const signingKeyRing = z.string().transform((text, ctx) => {
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON Web Key, or a JSON array of them' });
    return z.NEVER;
  }
  const lone = !Array.isArray(json);
  const parsed = (
    lone
      ? rsaPrivateJwk
      : z
          .array(rsaPrivateJwk)
          .min(1, 'must hold at least one key')
          .max(MAX_SIGNING_KEYS, `must hold at most ${MAX_SIGNING_KEYS} keys`)
  ).safeParse(json);
  // An array's problems name the key by its place, 0 being the first (`1.d: must be a private
  // key`).
  for (const issue of parsed.error?.issues ?? [])
    ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  if (!parsed.success) return z.NEVER;
  const keys = lone ? [text] : (json as unknown[]).map((key) => JSON.stringify(key));
  const moduli = keys.map((key) => (JSON.parse(key) as { n: string }).n);
  for (const [index, n] of moduli.entries()) {
    const first = moduli.indexOf(n);
    if (first < index) {
      ctx.addIssue({ code: 'custom', message: `key ${index} repeats key ${first}: one of each` });
      return z.NEVER;
    }
  }
  return keys;
});

/** A brand's own client at the IdP; in qa and prod its secret is as long as a secret must be. */
const brandClient = (env: AppEnv) => {
  const secret = z
    .string()
    .min(
      isDeveloperEnv(env) ? 1 : MIN_SECRET_LENGTH,
      `must be at least ${MIN_SECRET_LENGTH} characters`,
    );
  return z
    .strictObject({
      clientId: z.string().min(1).max(200),
      clientSecret: secret,
      // The brand's secret before this one, while its back end moves (docs/okta.md "Rotating client
      // secrets").
      previousClientSecret: secret.optional(),
      // How the brand's app authenticates at the IdP, as registered there (docs/okta.md "Client
      // authentication"); a secret method only, since the brand refreshes its `rt` with that secret.
      authMethod: z
        .enum(SECRET_AUTH_METHODS, 'must be client_secret_basic or client_secret_post')
        .optional(),
    })
    .refine((client) => client.previousClientSecret !== client.clientSecret, {
      path: ['previousClientSecret'],
      message: 'must differ from clientSecret',
    });
};

/** A brand's back-channel logout endpoint; https outside local and dev (the `https` rule). */
const logoutUri = (env: AppEnv) =>
  isDeveloperEnv(env)
    ? absoluteHttpUrl
    : absoluteHttpUrl.refine((v) => v.startsWith('https:'), 'must be https');

// ---------------------------------------------------------------------------------------------------
// The table.

/**
 * What qa and prod demand of a variable beyond its schema. `required` and `with-backchannel` apply
 * when it is unset (or empty), the others to a value that is set; config-rules.ts holds them as
 * functions. `https` lives in the schema (the message joins the schema's own); env-vars.spec.ts
 * checks each declared rule against what parseConfig does.
 */
export type QaProdRule =
  /** Unset where the table gives no default stops the start (in qa and prod: always). */
  | 'required'
  /** Addresses must use https. */
  | 'https'
  /** At least MIN_SECRET_LENGTH characters, and never the published developer value. */
  | 'secret'
  /**
   * docs/security.md, weak secrets: a secret (each brand's client secret too) whose characters
   * carry fewer than MIN_SECRET_BITS_PER_CHARACTER bits of Shannon entropy each is refused
   * (secret-strength.ts).
   */
  | 'varied'
  /** The key ring may not hold the published developer key. */
  | 'no-developer-key'
  /**
   * docs/security.md, weak secrets: no token key may hold fewer than MIN_KEY_DISTINCT_BYTES
   * different byte values (all zero, one byte repeated, a short pattern repeated).
   */
  | 'varied-keys'
  /**
   * docs/security.md, weak secrets: one secret, one purpose. SESSION_SECRET, the token keys,
   * IDP_CLIENT_SECRET and each brand's client secret are compared (as text and as the bytes a
   * base64 text stands for); a secret that is also one read before it is refused, named by the
   * later one.
   */
  | 'single-purpose'
  /**
   * docs/security.md, weak secrets, a warning and not a refusal: more trusted proxies than the
   * deployment documents (DOCUMENTED_PROXY_HOPS) let a client's own X-Forwarded-For entries choose
   * its address.
   */
  | 'documented-hops'
  /** No brand client may carry a published developer secret. */
  | 'no-developer-brand-secret'
  /**
   * Every redirect brand has a client of its own (docs/brand-contract.md §1): the tokens a brand
   * receives are issued to it, so no brand ever needs this service's secret.
   */
  | 'every-redirect-brand'
  /**
   * Only brands that can receive a session or tokens (the redirect brands, each with its client) are
   * owed logout tokens (docs/brand-contract.md §7): a logout token's `aud` is always the brand's
   * client id.
   */
  | 'redirect-brands-only'
  /** The embedded IdP (demo users with published passwords) is refused. */
  | 'no-embedded-idp'
  /** Required once BACKCHANNEL_LOGOUT_URIS names a brand: every instance must sign with it. */
  | 'with-backchannel'
  /** Required unless IDP_CLIENT_AUTH_METHOD is private_key_jwt (which sends no secret). */
  | 'with-secret-auth'
  /** Required, in every environment, when IDP_CLIENT_AUTH_METHOD is private_key_jwt. */
  | 'with-private-key-jwt';

/**
 * The text a variable has when it is unset or empty, per environment; `embedded`, when given, wins
 * whenever IDP_MODE is embedded. `$NAME` stands for another variable's parsed value (read before
 * it). No entry: no value.
 */
export type Defaults = { readonly [Where in AppEnv | 'embedded']?: string };

/** The README section whose configuration table documents the variable. */
export type ReadmeSection = 'Configuration';

export interface EnvVar {
  /**
   * Parses the variable's text; a function when qa and prod parse it more strictly. Absent for the
   * few variables another parser reads (`readBy`): the Redis topologies, the §5 features list and
   * the OpenTelemetry switch, whose rules are not per variable.
   */
  readonly schema?: z.ZodType | ((env: AppEnv) => z.ZodType);
  readonly readBy?: string;
  readonly defaults: Defaults;
  readonly qaProd: readonly QaProdRule[];
  readonly readme: ReadmeSection;
}

const everywhere = (text: string): Defaults => ({ local: text, dev: text, qa: text, prod: text });
const developer = (text: string): Defaults => ({ local: text, dev: text });
const README: ReadmeSection = 'Configuration';

/** Every variable, in the order parseConfig reads them (a `$NAME` default needs NAME read first). */
export const ENV_VARS = {
  APP_ENV: {
    // §1. An unknown environment is judged by the strictest rules (prod) while the rest is read.
    schema: z.enum(APP_ENVS, {
      error: (issue) =>
        `must be one of ${APP_ENVS.join(', ')} (got "${String(issue.input).slice(0, 40)}")`,
    }),
    defaults: everywhere('local'),
    qaProd: [],
    readme: README,
  },
  PORT: { schema: int(1, 65535), defaults: everywhere('3333'), qaProd: [], readme: README },
  HOST: {
    schema: z.string().min(1),
    defaults: { local: '127.0.0.1', dev: '127.0.0.1', qa: '0.0.0.0', prod: '0.0.0.0' },
    qaProd: [],
    readme: README,
  },
  // docs/operating.md "The management port": /metrics (never on PORT) and the probes' /healthz and
  // /readyz are served on a listener of their own, as Keycloak's management interface on 9000.
  MANAGEMENT_PORT: {
    schema: int(1, 65535),
    defaults: everywhere('9000'),
    qaProd: [],
    readme: README,
  },
  // The management listener's interface: HOST's unless an operator keeps it to another one.
  MANAGEMENT_HOST: {
    schema: z.string().min(1),
    defaults: everywhere('$HOST'),
    qaProd: [],
    readme: README,
  },
  PUBLIC_URL: {
    schema: serviceUrl,
    defaults: developer('http://localhost:$PORT'),
    qaProd: ['required', 'https'],
    readme: README,
  },
  // Behind a balancer an unset TRUST_PROXY makes every collector one address (the balancer's), so one
  // rate-limit bucket for all: qa and prod must say how many proxies there are, 0 included (issue 15
  // item 4). Locally nothing sits in front.
  TRUST_PROXY: {
    schema: int(0, 10),
    defaults: developer('0'),
    qaProd: ['required', 'documented-hops'],
    readme: README,
  },
  DATA_DIR: {
    schema: z
      .string()
      .min(1)
      .transform((dir) => path.resolve(dir)),
    defaults: everywhere('./data'),
    qaProd: [],
    readme: README,
  },
  // §1: local and dev share the service addresses; qa and prod must name theirs.
  GRADING_BASE_URL: {
    schema: serviceUrl,
    defaults: developer(DEVELOPER_SERVICE_BASES.grading),
    qaProd: ['required', 'https'],
    readme: README,
  },
  GRADING_JAPAN_BASE_URL: {
    schema: serviceUrl,
    defaults: developer(DEVELOPER_SERVICE_BASES.gradingJapan),
    qaProd: ['required', 'https'],
    readme: README,
  },
  CID_ROUTER_BASE_URL: {
    schema: serviceUrl,
    defaults: developer(DEVELOPER_SERVICE_BASES.cidRouter),
    qaProd: ['required', 'https'],
    readme: README,
  },
  POWERPACKS_BASE_URL: {
    schema: serviceUrl,
    defaults: developer(DEVELOPER_SERVICE_BASES.powerpacks),
    qaProd: ['required', 'https'],
    readme: README,
  },
  SESSION_STORE: {
    schema: z.enum(SESSION_STORE_KINDS),
    defaults: everywhere('sqlite'),
    qaProd: [],
    readme: README,
  },
  // The Redis topologies (issue 17 item 1): which variables a topology needs depends on
  // SESSION_STORE, not on the environment, so parseRedisStore reads them together.
  REDIS_URL: { readBy: 'parseRedisStore', defaults: {}, qaProd: [], readme: README },
  REDIS_SENTINELS: { readBy: 'parseRedisStore', defaults: {}, qaProd: [], readme: README },
  REDIS_SENTINEL_NAME: { readBy: 'parseRedisStore', defaults: {}, qaProd: [], readme: README },
  REDIS_CLUSTER_NODES: { readBy: 'parseRedisStore', defaults: {}, qaProd: [], readme: README },
  REDIS_PASSWORD: { readBy: 'parseRedisStore', defaults: {}, qaProd: [], readme: README },
  REDIS_SENTINEL_PASSWORD: { readBy: 'parseRedisStore', defaults: {}, qaProd: [], readme: README },
  REDIS_TLS: {
    readBy: 'parseRedisStore',
    defaults: everywhere('false'),
    qaProd: [],
    readme: README,
  },
  SESSION_SECRET: {
    schema: secretRing,
    defaults: developer(DEVELOPER_SECRETS.SESSION_SECRET),
    qaProd: ['required', 'secret', 'varied'],
    readme: README,
  },
  TOKEN_ENCRYPTION_KEYS: {
    schema: tokenKeyRing,
    defaults: developer(DEVELOPER_TOKEN_KEY),
    qaProd: ['required', 'no-developer-key', 'varied-keys', 'single-purpose'],
    readme: README,
  },
  SESSION_IDLE_TIMEOUT_SECONDS: {
    schema: int(1, 31_536_000),
    defaults: everywhere('2592000'),
    qaProd: [],
    readme: README,
  },
  SESSION_MAX_LIFETIME_SECONDS: {
    schema: int(1, 31_536_000),
    defaults: everywhere('31536000'),
    qaProd: [],
    readme: README,
  },
  IDP_MODE: {
    schema: z.enum(['embedded', 'external']),
    defaults: { local: 'embedded', dev: 'embedded', qa: 'external', prod: 'external' },
    qaProd: ['no-embedded-idp'],
    readme: README,
  },
  // With an external IdP its issuer and client are required in every environment.
  IDP_ISSUER: {
    schema: serviceUrl,
    defaults: { embedded: '$PUBLIC_URL/oauth2/default' },
    qaProd: ['required', 'https'],
    readme: README,
  },
  IDP_CLIENT_ID: {
    schema: z.string().min(1).max(200),
    defaults: { embedded: EMBEDDED_CLIENT_ID },
    qaProd: ['required'],
    readme: README,
  },
  // Okta's default for an app, and what it takes unless the app says otherwise (docs/okta.md).
  IDP_CLIENT_AUTH_METHOD: {
    schema: z.enum(CLIENT_AUTH_METHODS, `must be one of ${CLIENT_AUTH_METHODS.join(', ')}`),
    defaults: everywhere('client_secret_basic'),
    qaProd: [],
    readme: README,
  },
  IDP_CLIENT_SECRET: {
    schema: z.string(),
    defaults: {
      ...developer(DEVELOPER_SECRETS.IDP_CLIENT_SECRET),
      embedded: DEVELOPER_SECRETS.IDP_CLIENT_SECRET,
    },
    qaProd: ['with-secret-auth', 'secret', 'varied', 'single-purpose'],
    readme: README,
  },
  IDP_CLIENT_PRIVATE_KEY: {
    schema: clientPrivateJwk,
    defaults: {},
    qaProd: ['with-private-key-jwt'],
    readme: README,
  },
  // Issue 31 item 1: a custom authorization server names its own audience (an absolute URI or a
  // plain name: Okta accepts both); the default is Okta's default server's.
  IDP_AUDIENCE: {
    schema: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII with no spaces'),
    defaults: everywhere('api://default'),
    qaProd: [],
    readme: README,
  },
  // Issue 32 item 4: never below what the browser's client batches (MAX_BATCH_CALLS).
  API_MAX_BATCH: {
    schema: int(MAX_BATCH_CALLS, 100),
    defaults: everywhere(String(MAX_BATCH_CALLS)),
    qaProd: [],
    readme: README,
  },
  // Issue 31 item 3: a revocation the IdP did not take is retried from this delay, doubling.
  REVOCATION_RETRY_MS: {
    schema: int(100, 3_600_000),
    defaults: everywhere('30000'),
    qaProd: [],
    readme: README,
  },
  // Per-brand addresses; which brands need which field in qa and prod is the brand directory's rule
  // (brand-directory.ts), as is https for baseURL and tokenURL there.
  BRAND_URLS: {
    schema: jsonOf(
      z.partialRecord(z.enum(BRANDS), brandUrlOverride),
      'must be a JSON object keyed by brand code',
    ),
    defaults: {},
    qaProd: ['https'],
    readme: README,
  },
  BRAND_CLIENTS: {
    schema: (env: AppEnv) =>
      jsonOf(
        z.partialRecord(z.enum(REDIRECT_BRANDS as [Brand, ...Brand[]]), brandClient(env)),
        'must be a JSON object keyed by brand code',
      ),
    defaults: { embedded: JSON.stringify(developerBrandClients()) },
    qaProd: [
      'required',
      'every-redirect-brand',
      'no-developer-brand-secret',
      'varied',
      'single-purpose',
    ],
    readme: README,
  },
  // Issue 7: brands that want back-channel logout (OIDC Back-Channel Logout 1.0) name their endpoint.
  BACKCHANNEL_LOGOUT_URIS: {
    schema: (env: AppEnv) =>
      jsonOf(
        z.partialRecord(z.enum(BRANDS), logoutUri(env)),
        'must be a JSON object of brand code to https URL',
      ),
    defaults: {},
    qaProd: ['https', 'redirect-brands-only'],
    readme: README,
  },
  // The key logout tokens are signed with: every instance must share it, so qa and prod set it when
  // any brand receives logout tokens; local and dev generate one and keep it under DATA_DIR.
  SERVICE_SIGNING_KEY: {
    schema: signingKeyRing,
    defaults: {},
    qaProd: ['with-backchannel', 'single-purpose'],
    readme: README,
  },
  BACKCHANNEL_RETRY_MS: {
    schema: int(1, 60_000),
    defaults: everywhere('1000'),
    qaProd: [],
    readme: README,
  },
  LOG_LEVEL: {
    schema: z.enum(LOG_LEVELS),
    defaults: everywhere('info'),
    qaProd: [],
    readme: README,
  },
  // Issue 17 item 4: JSON by default; issue 33 item 4: unset in local, pretty when stdout is a
  // terminal (AppConfig's `terminal`, which no one can write).
  LOG_FORMAT: {
    schema: z.enum(LOG_FORMATS, 'must be json or pretty'),
    defaults: { dev: 'json', qa: 'json', prod: 'json' },
    qaProd: [],
    readme: README,
  },
  // Issue 17 item 2: only whether traces are on is decided here (tracingEnabled); the SDK reads the
  // OTEL_* variables itself, as the OpenTelemetry specification names them.
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    readBy: 'tracingEnabled',
    defaults: {},
    qaProd: [],
    readme: README,
  },
  'OTEL_*': { readBy: 'the OpenTelemetry SDK', defaults: {}, qaProd: [], readme: README },
  // §3 "Enabled-features data: a list of strings"; §5: malformed data is treated as empty, a warning.
  ENABLED_FEATURES: {
    readBy: 'parseEnabledFeatures',
    defaults: {},
    qaProd: [],
    readme: README,
  },
  RATE_LIMIT_CREDENTIAL_POSTS: {
    schema: rateLimit,
    defaults: everywhere('30/60'),
    qaProd: [],
    readme: README,
  },
  RATE_LIMIT_SIGNIN: {
    schema: rateLimit,
    defaults: everywhere('120/60'),
    qaProd: [],
    readme: README,
  },
  RATE_LIMIT_SIGNIN_SESSION: {
    schema: rateLimit,
    defaults: everywhere('60/60'),
    qaProd: [],
    readme: README,
  },
  // §8 error reports are not sign-ins: their own setting (with RATE_LIMIT_SIGNIN's default), so that
  // raising one limit does not raise the other.
  RATE_LIMIT_CLIENT_ERRORS: {
    schema: rateLimit,
    defaults: everywhere('120/60'),
    qaProd: [],
    readme: README,
  },
  // A load balancer needs a few probe intervals to see /readyz turn 503 (qa and prod run behind
  // one); on a laptop nothing is watching, so stop at once.
  SHUTDOWN_DRAIN_MS: {
    schema: int(0, 60_000),
    defaults: { local: '0', dev: '0', qa: '5000', prod: '5000' },
    qaProd: [],
    readme: README,
  },
  SHUTDOWN_TIMEOUT_MS: {
    schema: int(1_000, 300_000),
    defaults: everywhere('10000'),
    qaProd: [],
    readme: README,
  },
  // docs/operating.md "Keep-alive and load balancers": longer than a load balancer's idle timeout
  // (AWS ALB 60 s by default), so that the balancer, not the service, retires an idle connection.
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: {
    schema: int(1, 3_600),
    defaults: everywhere('65'),
    qaProd: [],
    readme: README,
  },
  HTTP_HEADERS_TIMEOUT_SECONDS: {
    schema: int(2, 3_601),
    defaults: everywhere('66'),
    qaProd: [],
    readme: README,
  },
  IDP_ACCESS_TOKEN_TTL_SECONDS: {
    schema: int(1, 86_400),
    defaults: everywhere('3600'),
    qaProd: [],
    readme: README,
  },
  ACCESS_TOKEN_MAX_LIFETIME_SECONDS: {
    schema: int(60, 604_800),
    defaults: everywhere('86400'),
    qaProd: [],
    readme: README,
  },
  COMPRESSION: {
    schema: z.enum(['on', 'off']),
    defaults: everywhere('on'),
    qaProd: [],
    readme: README,
  },
} as const satisfies Readonly<Record<string, EnvVar>>;

export type EnvVarName = keyof typeof ENV_VARS;

/** The variables parseConfig reads through their schema (the rest have their own parser). */
export type ParsedVarName = {
  [K in EnvVarName]: (typeof ENV_VARS)[K] extends { readonly schema: unknown } ? K : never;
}[EnvVarName];

type SchemaOf<K extends ParsedVarName> = (typeof ENV_VARS)[K]['schema'];

/** What a variable's schema makes of its text. */
export type ValueOf<K extends ParsedVarName> = z.output<
  SchemaOf<K> extends (env: AppEnv) => infer S ? S : SchemaOf<K>
>;

/** The schema a variable is parsed with in one environment. */
export function schemaOf(entry: EnvVar, env: AppEnv): z.ZodType | undefined {
  return typeof entry.schema === 'function' ? entry.schema(env) : entry.schema;
}
