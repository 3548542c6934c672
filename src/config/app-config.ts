import type { Brand } from '../shared/brand';
import type { BrandDirectory, ConfigProblem } from './brand-directory';
import type { AppEnv, ServiceBases } from '../shared/environment';

export type SessionStoreConfig =
  { readonly kind: 'sqlite'; readonly file: string } | RedisStoreConfig;

/** A Redis node or sentinel, from a `host:port` list. */
export interface RedisAddress {
  readonly host: string;
  readonly port: number;
}

/**
 * Issue 17 item 1: the Redis topologies production runs, each through ioredis (SESSION_STORE names
 * the kind): one node by URL, a master with replicas found through Redis Sentinel, or a Redis Cluster.
 */
export type RedisStoreConfig =
  | { readonly kind: 'redis'; readonly url: string }
  | {
      readonly kind: 'redis-sentinel';
      readonly sentinels: readonly RedisAddress[];
      /** The master group name the sentinels monitor (`sentinel monitor <name> ...`). */
      readonly name: string;
      /** AUTH for the master and replicas. */
      readonly password?: string;
      /** AUTH for the sentinels themselves (their `requirepass`), when they have one. */
      readonly sentinelPassword?: string;
      /** TLS to the sentinels and to the master, verified against Node's trust store. */
      readonly tls: boolean;
    }
  | {
      readonly kind: 'redis-cluster';
      /** Some of the cluster's nodes; the client learns the rest (CLUSTER SLOTS). */
      readonly nodes: readonly RedisAddress[];
      readonly password?: string;
      readonly tls: boolean;
    };

export type IdpMode = 'embedded' | 'external';

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface RateLimit {
  readonly limit: number;
  readonly windowSeconds: number;
}

/**
 * How a client authenticates at the IdP's token and revocation endpoints (RFC 6749 §2.3.1, OIDC
 * Core §9). Okta takes only the method its app is registered with, `client_secret_basic` unless
 * set otherwise (docs/okta.md "Client authentication").
 */
export const CLIENT_AUTH_METHODS = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];
/** The methods a brand's app may use: its back end refreshes the brand's `rt` with its secret. */
export const SECRET_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;
export type SecretAuthMethod = (typeof SECRET_AUTH_METHODS)[number];

/**
 * A private JSON Web Key (RFC 7517) that signs `private_key_jwt` client assertions (RFC 7523 §2.2):
 * RSA or EC, with the `kid` under which its public half is registered on the app.
 */
export interface ClientPrivateJwk {
  readonly kty: 'RSA' | 'EC';
  readonly kid: string;
  readonly alg?: string;
  readonly crv?: string;
  readonly [member: string]: unknown;
}

export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
  /** How this client authenticates at the IdP: `client_secret_basic` when not said. */
  readonly authMethod?: ClientAuthMethod;
  /** With `private_key_jwt`: the key its assertions are signed with. */
  readonly privateKey?: ClientPrivateJwk;
}

/** A brand's own client at the IdP (BRAND_CLIENTS). */
export interface BrandClient extends ClientCredentials {
  /**
   * The secret the brand's app had before `clientSecret`, while the brand's back end moves to the
   * new one: the handoff token endpoint takes either, nothing else uses it (docs/okta.md "Rotating
   * client secrets").
   */
  readonly previousClientSecret?: string;
}

export interface IdpConfig {
  readonly mode: IdpMode;
  /** The OpenID Connect issuer; Okta's `https://<org>/oauth2/default` in qa and prod. */
  readonly issuer: string;
  /** This service's own confidential client at the IdP. */
  readonly clientId: string;
  /** Empty with `private_key_jwt` when IDP_CLIENT_SECRET is not set (no secret is sent then). */
  readonly clientSecret: string;
  /** IDP_CLIENT_AUTH_METHOD: how this service authenticates at the IdP's token endpoint. */
  readonly clientAuthMethod: ClientAuthMethod;
  /** IDP_CLIENT_PRIVATE_KEY: the key of `private_key_jwt`, set exactly when that is the method. */
  readonly clientPrivateKey?: ClientPrivateJwk;
  /**
   * The `aud` of the authorization server's access tokens (IDP_AUDIENCE): Okta's default server says
   * `api://default`, a custom one what its Audience setting says. The embedded IdP issues this one.
   */
  readonly audience: string;
  /**
   * The first delay before a failed refresh-token revocation is tried again (REVOCATION_RETRY_MS),
   * doubling with each retry (src/session/revocation-queue.ts); also how often the queue is drained.
   */
  readonly revocationRetryMs: number;
  /** Embedded IdP only: access-token lifetime in seconds (Okta's default is one hour). */
  readonly accessTokenTtlSeconds: number;
  /**
   * The longest lifetime (exp - iat) an access token may claim (issue 15 item 1, RFC 9068 §4): a
   * signed token with an absurd exp is refused. Okta's ceiling is one day.
   */
  readonly accessTokenMaxLifetimeSeconds: number;
}

/** Everything the service reads from its environment, parsed and checked once at start (see config.schema.ts). */
export interface AppConfig {
  readonly env: AppEnv;
  readonly http: {
    readonly host: string;
    readonly port: number;
    /** This service's public origin without a trailing slash, e.g. `http://localhost:3333`. */
    readonly publicUrl: string;
    /** Pages and API answers compressed here (COMPRESSION=on, the default) or by a proxy (off). */
    readonly compression: boolean;
    /** Number of reverse proxies in front of the service whose X-Forwarded-For is trusted. */
    readonly trustProxy: number;
    /** The most calls one API batch may carry (API_MAX_BATCH, issue 32 item 4). */
    readonly apiMaxBatch: number;
    /**
     * How long an idle keep-alive connection stays open (HTTP_KEEP_ALIVE_TIMEOUT_SECONDS): longer
     * than the load balancer's idle timeout (docs/operating.md "Keep-alive and load balancers").
     */
    readonly keepAliveTimeoutSeconds: number;
    /** How long a request's headers may take to arrive (HTTP_HEADERS_TIMEOUT_SECONDS). */
    readonly headersTimeoutSeconds: number;
  };
  /**
   * The management listener (MANAGEMENT_PORT, MANAGEMENT_HOST): /metrics, which the public port
   * never serves, and the probes' /healthz and /readyz (docs/operating.md "The management port").
   */
  readonly management: { readonly host: string; readonly port: number };
  readonly services: ServiceBases;
  /** Issue 7: back-channel logout to brands (OpenID Connect Back-Channel Logout 1.0). */
  readonly backchannel: {
    /** Each brand's endpoint for logout tokens. */
    readonly uris: Partial<Record<Brand, string>>;
    /**
     * SERVICE_SIGNING_KEY: private RSA JWKs (each as JSON), newest first. The first signs the
     * logout tokens, every one is published (docs/operating.md "Rotating secrets"). One is
     * generated under DATA_DIR when absent (local/dev).
     */
    readonly signingKeys?: readonly string[];
    /** The first retry's delay; each further one waits four times longer. */
    readonly retryBaseMs: number;
  };
  /**
   * §3 enabled features (ENABLED_FEATURES: comma-separated names or a JSON array of strings), handed
   * to the shell pages. Empty when the data is malformed (§5), with an entry in `warnings`.
   */
  readonly features: readonly string[];
  /**
   * Variables the service runs with although they are wrong (e.g. malformed ENABLED_FEATURES, read as
   * empty). The logger does not exist yet while the configuration is parsed, so configureApp logs
   * each one as a warning line at start.
   */
  readonly warnings: readonly ConfigProblem[];
  readonly dataDir: string;
  readonly sessionStore: SessionStoreConfig;
  /**
   * SESSION_SECRET: keys for the HMAC of session ids at rest, so that a copy of the store yields no
   * usable `si`. A ring, newest first: the first names new sessions, every one finds the sessions
   * made under it (docs/operating.md "Rotating secrets").
   */
  readonly sessionSecrets: readonly string[];
  /**
   * TOKEN_ENCRYPTION_KEYS: the ring that seals tokens at rest (AES-256-GCM, issue 15 item 9); the
   * first key seals, all open.
   */
  readonly tokenKeys: readonly { readonly id: string; readonly key: Buffer }[];
  /** ASVS 5.0 7.3.1 and 7.3.2: a session ends after this long unused, and this long after sign-in. */
  readonly sessionLifetime: { readonly idleSeconds: number; readonly absoluteSeconds: number };
  readonly idp: IdpConfig;
  readonly brands: BrandDirectory;
  /**
   * Brands with their own client at the IdP, used by the brand code redirect (§4: response type code,
   * no PKCE, prompt none). In local and dev with the embedded IdP every web redirect brand has one.
   */
  readonly brandClients: Partial<Record<Brand, BrandClient>>;
  /** docs/design.md "Brute force": requests per client address and window. */
  readonly rateLimit: {
    readonly credentialPosts: RateLimit;
    readonly signinPerAddress: RateLimit;
    readonly signinPerSession: RateLimit;
    /** §8 log.clientError reports per client address: anyone may send them, signed in or not. */
    readonly clientErrors: RateLimit;
  };
  readonly log: {
    readonly level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
    /**
     * LOG_FORMAT: `json` lines (what log pipelines read; the default in dev, qa and prod), or
     * `pretty`, the same lines through pino-pretty for a person at a terminal (issue 17 item 4).
     * Unset in local: `terminal`, pretty when stdout is a terminal and JSON otherwise (issue 33 item
     * 4: `npm start` in a shell reads as text, while a pipe or a test harness still gets JSON).
     */
    readonly format: LogFormat | 'terminal';
  };
  /**
   * OpenTelemetry traces (issue 17 item 2). Only whether they are on is decided here; everything else
   * (exporter, protocol, headers, service name, resource attributes, sampler) the SDK reads from the
   * standard OTEL_* variables itself, as the OpenTelemetry specification names them.
   */
  readonly tracing: {
    /**
     * OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set (and the SDK is not
     * disabled by OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none). When false, no OpenTelemetry
     * module is loaded at all.
     */
    readonly enabled: boolean;
  };
  /** Graceful shutdown on SIGTERM/SIGINT (src/lifecycle/graceful-shutdown.ts). */
  readonly shutdown: {
    /**
     * How long the instance keeps accepting new connections after the signal while /readyz already
     * answers 503, so that a load balancer sees it leave before connections are refused.
     */
    readonly drainMs: number;
    /** The hard limit from the signal to the exit: past it the process exits 1 with requests unfinished. */
    readonly timeoutMs: number;
  };
}

/** Injection token for the parsed configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');

export type { Brand };
