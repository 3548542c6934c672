import { AppEnv, isDeveloperEnv } from '../shared/environment';
import type { ConfigProblem } from './brand-directory';
import { Brand, REDIRECT_BRANDS } from '../shared/brand';
import {
  DOCUMENTED_PROXY_HOPS,
  MIN_SECRET_LENGTH,
  QaProdRule,
  developerBrandClients,
} from './env-vars';
import {
  MIN_KEY_DISTINCT_BYTES,
  MIN_SECRET_BITS_PER_CHARACTER,
  distinctBytes,
  lowVariety,
  sameSecret,
} from './secret-strength';
import { ringEntryName } from './secret-ring';

/**
 * The rules of ENV_VARS' `qaProd` column as pure functions, one table for a variable left unset and
 * one for a variable that is set (docs/design.md "Configuration": qa and prod have no defaults for
 * secrets, addresses or the IdP, and refuse everything this repository publishes). `https` is not
 * here: it is part of the schemas in env-vars.ts.
 */

/** A variable left unset (or empty) where ENV_VARS gives it no default. */
export interface Unset {
  readonly env: AppEnv;
  /** The values read so far, by variable. */
  readonly values: Readonly<Record<string, unknown>>;
}

/** A variable that is set, in qa or prod. */
export interface Given {
  readonly env: AppEnv;
  readonly name: string;
  readonly text: string;
  /** What its schema made of the text; undefined when the schema refused it. */
  readonly value: unknown;
  /** The value this repository publishes for it: its default in local, if it has one. */
  readonly published: string | undefined;
  /** The values of the variables read before it (ENV_VARS' order), by variable. */
  readonly values: Readonly<Record<string, unknown>>;
}

type UnsetRule = Extract<
  QaProdRule,
  'required' | 'with-backchannel' | 'with-secret-auth' | 'with-private-key-jwt'
>;
type WarningRule = Extract<QaProdRule, 'documented-hops'>;
type GivenRule = Exclude<QaProdRule, UnsetRule | WarningRule | 'https'>;

/** One secret a variable holds, and the key a problem names it by. */
interface NamedSecret {
  readonly key: string;
  readonly secret: string | Uint8Array;
}

/** The secrets of one brand's entry in BRAND_CLIENTS. */
interface BrandSecrets {
  readonly clientSecret: string;
  readonly previousClientSecret?: string;
}

const textSecret =
  (name: string) =>
  (value: unknown): readonly NamedSecret[] =>
    typeof value === 'string' && value !== '' ? [{ key: name, secret: value }] : [];

/**
 * The variables that hold secrets, in the order they are read, and the secrets each holds as its
 * schema parsed them (docs/security.md, weak secrets: each is judged for variety, and no two
 * purposes share one).
 */
/** A private JWK's private part (`d`), the secret by which two keys are the same. */
function privatePartOf(jwk: unknown): string {
  const d = (jwk as { d?: unknown } | undefined)?.d;
  return typeof d === 'string' ? d : '';
}

const SECRETS_OF: Readonly<Record<string, (value: unknown) => readonly NamedSecret[]>> = {
  // A ring (secret-ring.ts): every secret in it is judged, named by its place when there are
  // several.
  SESSION_SECRET: (value) =>
    ((value ?? []) as readonly string[]).map((secret, index, ring) => ({
      key: ringEntryName('SESSION_SECRET', index, ring.length),
      secret,
    })),
  TOKEN_ENCRYPTION_KEYS: (value) =>
    ((value ?? []) as readonly { id: string; key: Uint8Array }[]).map(({ id, key }) => ({
      key: `TOKEN_ENCRYPTION_KEYS.${id}`,
      secret: key,
    })),
  IDP_CLIENT_SECRET: textSecret('IDP_CLIENT_SECRET'),
  // Private keys, judged by their private part: the key that signs logout tokens for every brand
  // must not also be the one that proves this service to the IdP (docs/security.md); reported
  // on SERVICE_SIGNING_KEY, the later of the two.
  SERVICE_SIGNING_KEY: (value) =>
    ((value ?? []) as readonly string[]).map((text, index, ring) => ({
      key: ringEntryName('SERVICE_SIGNING_KEY', index, ring.length),
      secret: privatePartOf(JSON.parse(text)),
    })),
  IDP_CLIENT_PRIVATE_KEY: (value) =>
    value === undefined ? [] : [{ key: 'IDP_CLIENT_PRIVATE_KEY', secret: privatePartOf(value) }],
  BRAND_CLIENTS: (value) =>
    Object.entries((value ?? {}) as Readonly<Record<string, BrandSecrets>>).flatMap(
      ([brand, { clientSecret, previousClientSecret }]) => [
        { key: `BRAND_CLIENTS.${brand}.clientSecret`, secret: clientSecret },
        ...(previousClientSecret === undefined
          ? []
          : [{ key: `BRAND_CLIENTS.${brand}.previousClientSecret`, secret: previousClientSecret }]),
      ],
    ),
};

const secretsOf = (name: string, value: unknown): readonly NamedSecret[] =>
  SECRETS_OF[name]?.(value) ?? [];

/** What an unset variable means, by rule: the problem, or undefined when that is fine. */
export const UNSET_RULES: Readonly<Record<UnsetRule, (unset: Unset) => string | undefined>> = {
  // Nothing to run with. In local and dev this is only the external IdP's issuer and client.
  required: ({ env }) => `is required in ${env}`,
  // Logout tokens are signed with it: instances that each generated their own would not agree.
  'with-backchannel': ({ env, values }) =>
    !isDeveloperEnv(env) && Object.keys(values.BACKCHANNEL_LOGOUT_URIS ?? {}).length > 0
      ? 'is required when BACKCHANNEL_LOGOUT_URIS names a brand (a private RSA JWK)'
      : undefined,
  // docs/okta.md "Client authentication": the secret methods send the secret; private_key_jwt
  // sends a signed assertion instead, and Okta's app then has no secret to send.
  'with-secret-auth': ({ env, values }) => {
    const method = String(values.IDP_CLIENT_AUTH_METHOD);
    return method === 'private_key_jwt'
      ? undefined
      : `is required in ${env} with IDP_CLIENT_AUTH_METHOD ${method}`;
  },
  // Without its key private_key_jwt cannot sign a single assertion: every sign-in would fail.
  'with-private-key-jwt': ({ values }) =>
    values.IDP_CLIENT_AUTH_METHOD === 'private_key_jwt'
      ? 'is required with IDP_CLIENT_AUTH_METHOD private_key_jwt (a private JWK with its kid)'
      : undefined,
};

/** What a set variable may not be in qa and prod, by rule: every problem found. */
export const GIVEN_RULES: Readonly<Record<GivenRule, (given: Given) => readonly ConfigProblem[]>> =
  {
    // Each secret of a ring (SESSION_SECRET) is judged; a ring the schema refused, by the schema.
    secret: ({ env, name, value, published }) =>
      secretsOf(name, value).flatMap(({ key, secret }) =>
        secret === published
          ? [{ key, message: `must not be the public developer default in ${env}` }]
          : secret.length < MIN_SECRET_LENGTH
            ? [{ key, message: `must be at least ${MIN_SECRET_LENGTH} characters in ${env}` }]
            : [],
      ),
    // Judged on the text, so that a ring the schema refused is still told about the published key.
    'no-developer-key': ({ env, name, text, published }) =>
      published !== undefined && text.includes(published.slice(published.indexOf(':') + 1))
        ? [{ key: name, message: `must not hold the published developer key in ${env}` }]
        : [],
    // The developer credentials are in this repository: outside local and dev they open every brand.
    'no-developer-brand-secret': ({ env, name, value }) => {
      const published = new Set(Object.values(developerBrandClients()).map((c) => c?.clientSecret));
      return secretsOf(name, value)
        .filter(({ secret }) => typeof secret === 'string' && published.has(secret))
        .map(({ key }) => ({ key, message: `must not be a published developer secret in ${env}` }));
    },
    // docs/brand-contract.md §1: a brand's `t` and `rt` are issued to its own client; one without a
    // client would have to be handed this service's tokens, and so its secret.
    'every-redirect-brand': ({ env, name, value }) => {
      // A value the schema refused is reported by the schema alone.
      if (value === undefined) return [];
      const clients = value as Readonly<Record<string, unknown>>;
      return REDIRECT_BRANDS.filter((brand) => clients[brand] === undefined).map((brand) => ({
        key: `${name}.${brand}`,
        message: `is required in ${env}: ${brand} receives tokens, issued to its own client`,
      }));
    },
    // docs/brand-contract.md §7: a logout token's `aud` is the brand's client id, and only the
    // redirect brands have one (and receive sessions or tokens at all).
    'redirect-brands-only': ({ env, name, value }) => {
      const uris = (value ?? {}) as Readonly<Record<string, unknown>>;
      return Object.keys(uris)
        .filter((brand) => !REDIRECT_BRANDS.includes(brand as Brand))
        .map((brand) => ({
          key: `${name}.${brand}`,
          message: `is refused in ${env}: ${brand} has no client and receives no session or tokens`,
        }));
    },
    // docs/security.md, weak secrets: a secret a person typed (one character repeated, a few in
    // turn, a padding of x) is refused; any random value of MIN_SECRET_LENGTH characters passes
    // (secret-strength.ts).
    varied: ({ env, name, value }) =>
      secretsOf(name, value).flatMap(({ key, secret }) => {
        // A secret too short is refused for that alone (`secret`, or the brand client's schema).
        const low =
          typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH
            ? lowVariety(secret)
            : undefined;
        return low
          ? [
              {
                key,
                message:
                  `has too little variety for ${env}: ${low.bits.toFixed(2)} bits of entropy a ` +
                  `character, at least ${MIN_SECRET_BITS_PER_CHARACTER} (use a random value, e.g. ` +
                  `openssl rand -base64 32)`,
              },
            ]
          : [];
      }),
    // docs/security.md, weak secrets: a key of zero bytes, or of one byte or a short pattern
    // repeated, is no key.
    'varied-keys': ({ env, name, value }) =>
      ((value ?? []) as readonly { id: string; key: Uint8Array }[])
        .filter(({ key }) => distinctBytes(key) < MIN_KEY_DISTINCT_BYTES)
        .map(({ id, key }) => ({
          key: `${name}.${id}`,
          message:
            `holds ${distinctBytes(key)} different byte value(s) of ${key.length} (all zero, or a ` +
            `byte or short pattern repeated); ${env} needs at least ${MIN_KEY_DISTINCT_BYTES} ` +
            `(generate it: openssl rand -base64 32)`,
        })),
    // docs/security.md, weak secrets: one secret, one purpose. A session secret that is also a
    // client secret or a token key falls with either of them; each is named by the later variable
    // of the two.
    'single-purpose': ({ env, name, value, values }) => {
      const earlier = Object.keys(SECRETS_OF)
        .filter((other) => other !== name && values[other] !== undefined)
        .flatMap((other) => secretsOf(other, values[other]));
      return secretsOf(name, value).flatMap(({ key, secret }) => {
        const shared = earlier.find((other) => sameSecret(secret, other.secret));
        return shared
          ? [
              {
                key,
                message: `must not be the secret of ${shared.key} too in ${env}: one purpose each`,
              },
            ]
          : [];
      });
    },
    // The embedded IdP seeds demo users with published passwords: never outside local and dev.
    'no-embedded-idp': ({ env, name, value }) =>
      value === 'embedded'
        ? [{ key: name, message: `embedded is only allowed in local and dev, not ${env}` }]
        : [],
  };

/**
 * What a set variable should not be in qa and prod, by rule: warnings, logged at start, for values
 * the service runs with although they are probably wrong.
 */
export const WARNING_RULES: Readonly<
  Record<WarningRule, (given: Given) => readonly ConfigProblem[]>
> = {
  // Express takes the address TRUST_PROXY hops back in X-Forwarded-For: with more hops trusted than
  // there are proxies, that entry is one the client wrote itself, and it picks its own rate-limit
  // bucket. The deployments here put one proxy in front; a second (a CDN) may be real, so a warning.
  'documented-hops': ({ name, value }) =>
    typeof value === 'number' && value > DOCUMENTED_PROXY_HOPS
      ? [
          {
            key: name,
            message:
              `is ${value}, more than the ${DOCUMENTED_PROXY_HOPS} proxy the documented deployments ` +
              `put in front (docs/operating.md); if fewer proxies add X-Forwarded-For, a client's ` +
              `own entry picks the address its rate limits count`,
          },
        ]
      : [],
};

/** Whether a rule applies to an unset variable (the others to a set one). */
export function isUnsetRule(rule: QaProdRule): rule is UnsetRule {
  return rule in UNSET_RULES;
}

/** Whether a rule warns rather than refuses. */
export function isWarningRule(rule: QaProdRule): rule is WarningRule {
  return rule in WARNING_RULES;
}

/** The values the agreements below compare (each read with its default, so always present). */
export interface Agreeing {
  readonly PORT: number;
  readonly MANAGEMENT_PORT: number;
  readonly SESSION_IDLE_TIMEOUT_SECONDS: number;
  readonly SESSION_MAX_LIFETIME_SECONDS: number;
  readonly SHUTDOWN_DRAIN_MS: number;
  readonly SHUTDOWN_TIMEOUT_MS: number;
  readonly HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: number;
  readonly HTTP_HEADERS_TIMEOUT_SECONDS: number;
  readonly IDP_ACCESS_TOKEN_TTL_SECONDS: number;
  readonly ACCESS_TOKEN_MAX_LIFETIME_SECONDS: number;
  readonly embedded: boolean;
}

/** Variables that must agree with one another, in every environment: the one reported, and why. */
export const AGREEMENTS: readonly {
  readonly key: keyof Agreeing;
  readonly problem: (v: Agreeing) => string | undefined;
}[] = [
  // docs/operating.md "The management port": one port cannot be both listeners, and /metrics must
  // never be reachable where the public is routed.
  {
    key: 'MANAGEMENT_PORT',
    problem: (v) =>
      v.MANAGEMENT_PORT === v.PORT
        ? `must differ from PORT (${v.PORT}): the management listener needs a port of its own, ` +
          'and /metrics is never served on the public port'
        : undefined,
  },
  // ASVS 5.0 7.3.1 and 7.3.2: an idle timeout past the absolute lifetime would never act.
  {
    key: 'SESSION_IDLE_TIMEOUT_SECONDS',
    problem: (v) =>
      v.SESSION_IDLE_TIMEOUT_SECONDS > v.SESSION_MAX_LIFETIME_SECONDS
        ? `must not exceed SESSION_MAX_LIFETIME_SECONDS (${v.SESSION_MAX_LIFETIME_SECONDS})`
        : undefined,
  },
  // The drain happens inside the shutdown's time limit.
  {
    key: 'SHUTDOWN_DRAIN_MS',
    problem: (v) =>
      v.SHUTDOWN_DRAIN_MS >= v.SHUTDOWN_TIMEOUT_MS
        ? `must be less than SHUTDOWN_TIMEOUT_MS (${v.SHUTDOWN_TIMEOUT_MS})`
        : undefined,
  },
  // docs/operating.md "Keep-alive and load balancers": the pairing given for a Node server behind
  // a balancer (nodejs/node#27363), so that no header timer ends a connection still kept alive.
  {
    key: 'HTTP_HEADERS_TIMEOUT_SECONDS',
    problem: ({
      HTTP_HEADERS_TIMEOUT_SECONDS: headers,
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: keepAlive,
    }) =>
      headers <= keepAlive
        ? `must be greater than HTTP_KEEP_ALIVE_TIMEOUT_SECONDS (${keepAlive})`
        : undefined,
  },
  // The embedded IdP's tokens would be refused by this service's own lifetime check (RFC 9068 §4).
  {
    key: 'IDP_ACCESS_TOKEN_TTL_SECONDS',
    problem: (v) =>
      v.embedded && v.IDP_ACCESS_TOKEN_TTL_SECONDS > v.ACCESS_TOKEN_MAX_LIFETIME_SECONDS
        ? `must not exceed ACCESS_TOKEN_MAX_LIFETIME_SECONDS (${v.ACCESS_TOKEN_MAX_LIFETIME_SECONDS})`
        : undefined,
  },
];
