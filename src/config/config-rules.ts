import { AppEnv, isDeveloperEnv } from '../shared/environment';
import type { ConfigProblem } from './brand-directory';
import { Brand, REDIRECT_BRANDS } from '../shared/brand';
import { MIN_SECRET_LENGTH, QaProdRule, developerBrandClients } from './env-vars';

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
}

type UnsetRule = Extract<QaProdRule, 'required' | 'with-backchannel'>;
type GivenRule = Exclude<QaProdRule, UnsetRule | 'https'>;

/** What an unset variable means, by rule: the problem, or undefined when that is fine. */
export const UNSET_RULES: Readonly<Record<UnsetRule, (unset: Unset) => string | undefined>> = {
  // Nothing to run with. In local and dev this is only the external IdP's issuer and client.
  required: ({ env }) => `is required in ${env}`,
  // Logout tokens are signed with it: instances that each generated their own would not agree.
  'with-backchannel': ({ env, values }) =>
    !isDeveloperEnv(env) && Object.keys(values.BACKCHANNEL_LOGOUT_URIS ?? {}).length > 0
      ? 'is required when BACKCHANNEL_LOGOUT_URIS names a brand (a private RSA JWK)'
      : undefined,
};

/** What a set variable may not be in qa and prod, by rule: every problem found. */
export const GIVEN_RULES: Readonly<Record<GivenRule, (given: Given) => readonly ConfigProblem[]>> =
  {
    secret: ({ env, name, text, published }) =>
      text === published
        ? [{ key: name, message: `must not be the public developer default in ${env}` }]
        : text.length < MIN_SECRET_LENGTH
          ? [{ key: name, message: `must be at least ${MIN_SECRET_LENGTH} characters in ${env}` }]
          : [],
    // Judged on the text, so that a ring the schema refused is still told about the published key.
    'no-developer-key': ({ env, name, text, published }) =>
      published !== undefined && text.includes(published.slice(published.indexOf(':') + 1))
        ? [{ key: name, message: `must not hold the published developer key in ${env}` }]
        : [],
    // The developer credentials are in this repository: outside local and dev they open every brand.
    'no-developer-brand-secret': ({ env, name, value }) => {
      const published = new Set(Object.values(developerBrandClients()).map((c) => c?.clientSecret));
      const clients = (value ?? {}) as Readonly<Record<string, { clientSecret: string }>>;
      return Object.entries(clients)
        .filter(([, credentials]) => published.has(credentials.clientSecret))
        .map(([brand]) => ({
          key: `${name}.${brand}.clientSecret`,
          message: `must not be a published developer secret in ${env}`,
        }));
    },
    // Issue 49 item 3: a brand's `t` and `rt` are issued to its own client; one without a client
    // would have to be handed this service's tokens, and so its secret.
    'every-redirect-brand': ({ env, name, value }) => {
      // A value the schema refused is reported by the schema alone.
      if (value === undefined) return [];
      const clients = value as Readonly<Record<string, unknown>>;
      return REDIRECT_BRANDS.filter((brand) => clients[brand] === undefined).map((brand) => ({
        key: `${name}.${brand}`,
        message: `is required in ${env}: ${brand} receives tokens, issued to its own client`,
      }));
    },
    // Issue 49 item 5: a logout token's `aud` is the brand's client id, and only the redirect brands
    // have one (and receive sessions or tokens at all).
    'redirect-brands-only': ({ env, name, value }) => {
      const uris = (value ?? {}) as Readonly<Record<string, unknown>>;
      return Object.keys(uris)
        .filter((brand) => !REDIRECT_BRANDS.includes(brand as Brand))
        .map((brand) => ({
          key: `${name}.${brand}`,
          message: `is refused in ${env}: ${brand} has no client and receives no session or tokens`,
        }));
    },
    // The embedded IdP seeds demo users with published passwords: never outside local and dev.
    'no-embedded-idp': ({ env, name, value }) =>
      value === 'embedded'
        ? [{ key: name, message: `embedded is only allowed in local and dev, not ${env}` }]
        : [],
  };

/** Whether a rule applies to an unset variable (the others to a set one). */
export function isUnsetRule(rule: QaProdRule): rule is UnsetRule {
  return rule in UNSET_RULES;
}

/** The values the agreements below compare (each read with its default, so always present). */
export interface Agreeing {
  readonly SESSION_IDLE_TIMEOUT_SECONDS: number;
  readonly SESSION_MAX_LIFETIME_SECONDS: number;
  readonly SHUTDOWN_DRAIN_MS: number;
  readonly SHUTDOWN_TIMEOUT_MS: number;
  readonly IDP_ACCESS_TOKEN_TTL_SECONDS: number;
  readonly ACCESS_TOKEN_MAX_LIFETIME_SECONDS: number;
  readonly embedded: boolean;
}

/** Variables that must agree with one another, in every environment: the one reported, and why. */
export const AGREEMENTS: readonly {
  readonly key: keyof Agreeing;
  readonly problem: (v: Agreeing) => string | undefined;
}[] = [
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
  // The embedded IdP's tokens would be refused by this service's own lifetime check (RFC 9068 §4).
  {
    key: 'IDP_ACCESS_TOKEN_TTL_SECONDS',
    problem: (v) =>
      v.embedded && v.IDP_ACCESS_TOKEN_TTL_SECONDS > v.ACCESS_TOKEN_MAX_LIFETIME_SECONDS
        ? `must not exceed ACCESS_TOKEN_MAX_LIFETIME_SECONDS (${v.ACCESS_TOKEN_MAX_LIFETIME_SECONDS})`
        : undefined,
  },
];
