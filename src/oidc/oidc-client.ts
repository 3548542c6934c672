import { Inject, Injectable } from '@nestjs/common';
import { createHash, webcrypto } from 'node:crypto';
import * as client from 'openid-client';
import type { ClientCredentials, ClientPrivateJwk } from '../config/app-config';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AppError } from '../errors/app-error';
import { IdpCalls } from './idp-calls';
import { IdpRateLimited, rateLimitOf } from './idp-rate-limit';
import { IdpStatus } from './idp-status';
import { pkceChallenge } from './pkce';
import {
  FetchFunction,
  SPANS,
  SpanAttributes,
  Tracer,
  activeTracer,
  tracedFetch,
} from '../tracing';

/** §7: token redirects and refreshes ask for these scopes. */
export const SIGNIN_SCOPE = 'openid customer offline_access';
/** §7: the refresh request's scope, in Okta's order. */
export const REFRESH_SCOPE = 'offline_access openid customer';

/**
 * A failed exchange with the IdP. It is an AppError so that one that reaches the exception filter
 * uncaught becomes a clear page rather than a bare 500: an outage is `OktaError` (502, "our sign-in
 * service is not answering"), a refusal is `SigninFailed`.
 */
export class IdpError extends AppError {
  /**
   * The IdP was reached, but the callback or its answer failed validation (a missing or foreign
   * `iss`, a `state` or nonce mismatch, a malformed response): a failed sign-in, not an outage.
   */
  readonly invalidResponse: boolean;

  constructor(
    message: string,
    /** The OAuth error code when the IdP gave one (e.g. login_required, invalid_grant). */
    readonly oauthError: string | undefined,
    options?: { cause?: unknown; invalidResponse?: boolean },
  ) {
    const rateLimit = rateLimitOf(options?.cause);
    const outage = !rateLimit && isOutage(oauthError, options?.invalidResponse ?? false);
    super(
      rateLimit ? 'IdpRateLimited' : outage ? 'OktaError' : 'SigninFailed',
      message,
      rateLimit ? { ...options, retryAt: rateLimit.until } : options,
    );
    this.name = 'IdpError';
    this.invalidResponse = options?.invalidResponse ?? false;
    this.outage = outage;
    this.rateLimit = rateLimit;
  }

  /**
   * The IdP's rate limit stopped the call (docs/okta.md "Rate limits"): it answered 429, or the
   * endpoint is still held back from an earlier 429. Neither an outage nor a refusal: nothing was
   * decided about the collector, who is told when to try again (§8 IdpRateLimited, 429).
   */
  readonly rateLimit: IdpRateLimited | undefined;

  /**
   * The IdP did not answer (unreachable, timed out, an HTTP error page, or an OAuth error that says
   * the server failed): nothing was decided about the collector, so a session must not end because
   * of it, and the collector is told to try again shortly (§8 OktaError), never that they failed.
   */
  readonly outage: boolean;

  /**
   * Nothing was decided about the collector: an outage, or the IdP's rate limit. A session never
   * ends and a sign-in never fails as refused because of either.
   */
  get undecided(): boolean {
    return this.outage || this.rateLimit !== undefined;
  }
}

/**
 * OAuth error codes that report the server's own failure, not a decision about the request (RFC 6749
 * §4.1.2.1 and §5.2): the IdP answered, but only to say it could not.
 */
const SERVER_FAILURES: ReadonlySet<string> = new Set(['server_error', 'temporarily_unavailable']);

function isOutage(oauthError: string | undefined, invalidResponse: boolean): boolean {
  if (invalidResponse) return false;
  return oauthError === undefined || SERVER_FAILURES.has(oauthError);
}

/** openid-client's codes for a response that arrived but did not validate. */
const INVALID_RESPONSE_CODES: ReadonlySet<string> = new Set([
  'OAUTH_INVALID_RESPONSE',
  'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED',
  'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
]);

declare const builtFromIssuerMetadata: unique symbol;

/**
 * An address at the IdP (authorize, end-session) as this adapter built it from the issuer's
 * discovered metadata: a redirect target that no caller supplied (src/http/outcome.ts).
 */
export type IdpUrl = string & { readonly [builtFromIssuerMetadata]: true };

/** §3 Token set, as this service keeps it: the tokens and when the access token expires. */
export interface TokenSet {
  readonly accessToken: string;
  readonly refreshToken?: string;
  readonly idToken?: string;
  /** Epoch seconds when the access token expires. */
  readonly expiresAt: number;
}

export interface TokenResult extends TokenSet {
  readonly claims: Record<string, unknown>;
}

/** What one redirect to the IdP must check on its way back: its PKCE verifier and its nonce. */
export interface AuthorizationChecks {
  readonly verifier: string;
  readonly nonce: string;
}

/**
 * A fresh PKCE verifier and nonce for each redirect, never reused (RFC 9700 §2.1.1): the sign-in
 * keeps them with its login state and hands them back to `exchangeCode`.
 */
export function freshAuthorizationChecks(): AuthorizationChecks {
  return { verifier: client.randomPKCECodeVerifier(), nonce: client.randomNonce() };
}

/**
 * The one place that speaks OpenID Connect to the IdP (docs/design.md "Style": third-party calls behind one
 * adapter). It works with any issuer: the embedded one in local and dev, Okta in qa and prod.
 * Discovery is lazy (the embedded IdP answers only once the server listens) and cached per client.
 */
@Injectable()
export class OidcClient {
  private readonly configurations = new Map<string, Promise<client.Configuration>>();
  private readonly tracer: Tracer = activeTracer();
  /**
   * Every HTTP request to the IdP goes through IdpCalls (timed by endpoint, and held back while the
   * endpoint is rate-limited: docs/okta.md "Rate limits"). With tracing on each is also a client
   * span carrying the trace context (the embedded IdP, and any IdP that traces, continue it).
   */
  readonly fetch: FetchFunction;
  /** What every IdP operation's span says about where it went. */
  private readonly spanAttributes: SpanAttributes;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly status: IdpStatus,
    calls: IdpCalls,
  ) {
    this.fetch = calls.fetch(
      this.tracer.enabled
        ? tracedFetch(this.tracer)
        : (url, init) => fetch(url, init as RequestInit),
    );
    this.spanAttributes = { 'server.address': new URL(config.idp.issuer).hostname };
  }

  get serviceClient(): ClientCredentials {
    const { clientId, clientSecret, clientAuthMethod, clientPrivateKey } = this.config.idp;
    return {
      clientId,
      clientSecret,
      authMethod: clientAuthMethod,
      ...(clientPrivateKey ? { privateKey: clientPrivateKey } : {}),
    };
  }

  private configuration(credentials: ClientCredentials): Promise<client.Configuration> {
    // Keyed by the whole credential: a configuration built with an old secret must not be reused
    // once the secret changes (a rotated brand secret would otherwise keep working here).
    const key = credentialKey(credentials);
    let configuration = this.configurations.get(key);
    if (!configuration) {
      const insecure = this.config.idp.issuer.startsWith('http://');
      const discovered = (authentication: client.ClientAuth) =>
        client
          .discovery(
            new URL(this.config.idp.issuer),
            credentials.clientId,
            // Only the secret methods send a secret (docs/okta.md "Client authentication").
            credentials.authMethod === 'private_key_jwt' ? undefined : credentials.clientSecret,
            authentication,
            {
              ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
              // Kept by the configuration for all its later requests too (openid-client).
              ...(this.fetch ? { [client.customFetch]: this.fetch } : {}),
              timeout: 5,
            },
          )
          .catch((error: unknown) => {
            this.status.report(false, error);
            throw new IdpError('the IdP discovery document could not be read', undefined, {
              cause: error,
            });
          });
      // A key that cannot sign is this service's fault, not the IdP's: it is not an outage.
      configuration = clientAuthentication(credentials)
        .then(discovered)
        .catch((error: unknown) => {
          this.configurations.delete(key);
          throw error;
        });
      this.configurations.set(key, configuration);
    }
    return configuration;
  }

  async authorizationUrl(
    params: {
      redirectUri: string;
      state: string;
      nonce?: string;
      /** The PKCE verifier: its S256 challenge goes to the IdP (RFC 7636 §4.2). */
      verifier?: string;
      prompt?: string;
      uiLocales?: string;
      /**
       * Extra authorization parameters (OIDC Core 3.1.2.1 lets a request carry others): the brand the
       * collector came from, which the embedded IdP shows on its steps; Okta ignores what it does not
       * know.
       */
      extra?: Readonly<Record<string, string>>;
    },
    credentials = this.serviceClient,
  ): Promise<IdpUrl> {
    const configuration = await this.configuration(credentials);
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: params.redirectUri,
      response_type: 'code',
      scope: SIGNIN_SCOPE,
      state: params.state,
      ...(params.nonce ? { nonce: params.nonce } : {}),
      ...(params.verifier
        ? {
            code_challenge: pkceChallenge(params.verifier),
            code_challenge_method: 'S256',
          }
        : {}),
      ...(params.prompt ? { prompt: params.prompt } : {}),
      ...(params.uiLocales ? { ui_locales: params.uiLocales } : {}),
      ...params.extra,
    });
    return url.href as IdpUrl;
  }

  /** Exchanges the code and validates the ID token (signature, issuer, audience, nonce, expiry). */
  async exchangeCode(
    callbackUrl: URL,
    checks: { state: string; nonce?: string; verifier?: string },
    credentials = this.serviceClient,
  ): Promise<TokenResult> {
    return this.traced(SPANS.idpExchangeCode, async () => {
      const configuration = await this.configuration(credentials);
      try {
        const response = await client.authorizationCodeGrant(configuration, callbackUrl, {
          expectedState: checks.state,
          ...(checks.nonce ? { expectedNonce: checks.nonce } : {}),
          ...(checks.verifier ? { pkceCodeVerifier: checks.verifier } : {}),
          idTokenExpected: true,
        });
        return toTokenResult(response);
      } catch (error) {
        throw wrap('the authorization code could not be exchanged', error);
      }
    });
  }

  /** An IdP operation in a span of its own (discovery, when it is due, and each HTTP request inside). */
  private traced<T>(name: string, operation: () => Promise<T>): Promise<T> {
    return this.tracer.inSpan(
      name,
      { kind: 'internal', attributes: this.spanAttributes },
      async () => {
        // Issue 31 item 3: every call says whether the IdP answered (a refusal is an answer).
        try {
          const result = await operation();
          this.status.report(true);
          return result;
        } catch (error) {
          const outage = !(error instanceof IdpError) || error.outage;
          this.status.report(!outage, error);
          throw error;
        }
      },
    );
  }

  /**
   * The IdP's userinfo for an access token (OIDC Core §5.3), its `sub` checked against the one the
   * caller knows (§5.3.4: a response for another subject is refused).
   */
  userinfo(accessToken: string, expectedSub: string): Promise<Record<string, unknown>> {
    return this.traced(SPANS.idpUserinfo, async () => {
      const configuration = await this.configuration(this.serviceClient);
      try {
        return { ...(await client.fetchUserInfo(configuration, accessToken, expectedSub)) };
      } catch (error) {
        throw wrap('userinfo could not be read', error);
      }
    });
  }

  /** §7 Token refresh: grant_type=refresh_token with the scope 'offline_access openid customer'. */
  refresh(refreshToken: string, credentials = this.serviceClient): Promise<TokenResult> {
    return this.traced(SPANS.idpRefresh, async () => {
      const configuration = await this.configuration(credentials);
      try {
        return toTokenResult(
          await client.refreshTokenGrant(configuration, refreshToken, { scope: REFRESH_SCOPE }),
        );
      } catch (error) {
        throw wrap('the refresh token was not accepted', error);
      }
    });
  }

  revoke(token: string, credentials = this.serviceClient): Promise<void> {
    return this.traced(SPANS.idpRevoke, async () => {
      const configuration = await this.configuration(credentials);
      try {
        await client.tokenRevocation(configuration, token, { token_type_hint: 'refresh_token' });
      } catch (error) {
        throw wrap('the token could not be revoked', error);
      }
    });
  }

  /** RP-Initiated Logout 1.0 §2, always with `id_token_hint`: Okta requires it (docs/okta.md). */
  async endSessionUrl(params: {
    idTokenHint: string;
    postLogoutRedirectUri: string;
    state: string;
    /** The collector's language for the IdP's logout pages (RP-Initiated Logout 1.0 §2). */
    uiLocales?: string;
  }): Promise<IdpUrl> {
    const configuration = await this.configuration(this.serviceClient);
    const url = client.buildEndSessionUrl(configuration, {
      post_logout_redirect_uri: params.postLogoutRedirectUri,
      state: params.state,
      id_token_hint: params.idTokenHint,
      ...(params.uiLocales ? { ui_locales: params.uiLocales } : {}),
    });
    return url.href as IdpUrl;
  }

  async jwksUri(): Promise<string> {
    const uri = (await this.configuration(this.serviceClient)).serverMetadata().jwks_uri;
    if (!uri) throw new IdpError('the IdP publishes no jwks_uri', undefined);
    return uri;
  }
}

function toTokenResult(
  response: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
): TokenResult {
  const expiresIn = response.expiresIn() ?? 3600;
  return {
    accessToken: response.access_token,
    ...(response.refresh_token ? { refreshToken: response.refresh_token } : {}),
    ...(response.id_token ? { idToken: response.id_token } : {}),
    expiresAt: Math.floor(Date.now() / 1000) + expiresIn,
    claims: response.claims() ?? {},
  };
}

function wrap(message: string, error: unknown): IdpError {
  // A 401 with a WWW-Authenticate challenge (RFC 6750 §3: userinfo refusing the token) is an answer
  // too: a refusal, by the challenge's error code.
  const oauthError =
    error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError
      ? error.error
      : error instanceof client.WWWAuthenticateChallengeError
        ? (error.cause[0]?.parameters.error ?? 'invalid_token')
        : undefined;
  const invalidResponse =
    error instanceof client.ClientError &&
    error.code !== undefined &&
    INVALID_RESPONSE_CODES.has(error.code);
  const wrapped = new IdpError(message, oauthError, { cause: error, invalidResponse });
  // A refusal names the IdP's OAuth error code (RFC 6749 §5.2), so that the log line says why
  // (`invalid_client`: this service's credentials or authentication method, docs/okta.md).
  if (!wrapped.outage)
    return oauthError !== undefined && /^[\x21-\x7e]{1,64}$/.test(oauthError)
      ? new IdpError(`${message}: the IdP answered ${oauthError}`, oauthError, {
          cause: error,
          invalidResponse,
        })
      : wrapped;
  // An outage says so, with the IdP's HTTP status when it gave one: "the refresh token was not
  // accepted" would blame a token nobody looked at.
  const status = httpStatusOf(error);
  const what = status ? `the IdP answered HTTP ${status}` : 'the IdP did not answer';
  return new IdpError(`${what}: ${message}`, oauthError, { cause: error });
}

/** The HTTP status of the IdP's answer an openid-client error carries (its cause is the Response). */
function httpStatusOf(error: unknown): number | undefined {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof Response) return cause.status;
  const status = (error as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * How one client proves itself at the IdP's token and revocation endpoints, as its app is
 * registered there (docs/okta.md "Client authentication"). Okta takes only the registered method:
 * `client_secret_basic` unless the app says otherwise, so that is the default here too.
 */
async function clientAuthentication(credentials: ClientCredentials): Promise<client.ClientAuth> {
  const method = credentials.authMethod ?? 'client_secret_basic';
  switch (method) {
    case 'client_secret_basic':
      return client.ClientSecretBasic(credentials.clientSecret);
    case 'client_secret_post':
      return client.ClientSecretPost(credentials.clientSecret);
    case 'private_key_jwt': {
      if (!credentials.privateKey) throw new Error('private_key_jwt needs a private key');
      return privateKeyJwt(await importSigningKey(credentials.privateKey));
    }
  }
}

/**
 * What tells two configurations of one client apart: a rotated secret or key must not keep using a
 * configuration built with the old one.
 */
function credentialKey(credentials: ClientCredentials): string {
  const method = credentials.authMethod ?? 'client_secret_basic';
  const proof =
    method === 'private_key_jwt'
      ? createHash('sha256').update(JSON.stringify(credentials.privateKey)).digest('base64url')
      : credentials.clientSecret;
  return `${credentials.clientId}\n${method}\n${proof}`;
}

/**
 * RFC 7523 §2.2 and §3: a JWT signed with the client's key, `iss` and `sub` its client id, a fresh
 * `jti`, one minute of life. Its `aud` is the endpoint it is sent to, as Okta's guide says ("the
 * full URL of the resource that you're using the JWT to authenticate to", docs/okta.md "Client
 * authentication"); openid-client would otherwise put the issuer there. A token request always
 * carries `grant_type` (RFC 6749 §4.1.3, §6); a revocation request never does (RFC 7009 §2.1).
 */
function privateKeyJwt(key: client.PrivateKey): client.ClientAuth {
  return (as, metadata, body, headers) => {
    const endpoint = body.has('grant_type') ? as.token_endpoint : as.revocation_endpoint;
    const sign = client.PrivateKeyJwt(key, {
      [client.modifyAssertion]: (_header, payload) => {
        if (endpoint) payload.aud = endpoint;
      },
    });
    // openid-client awaits what a client authentication returns (the signature is asynchronous).
    return sign(as, metadata, body, headers);
  };
}

/** The JWK as a WebCrypto signing key, with the JWS algorithm its type and curve call for. */
async function importSigningKey(jwk: ClientPrivateJwk): Promise<client.PrivateKey> {
  const algorithm =
    jwk.kty === 'EC'
      ? { name: 'ECDSA', namedCurve: jwk.crv ?? 'P-256' }
      : { name: 'RSASSA-PKCS1-v1_5', hash: `SHA-${(jwk.alg ?? 'RS256').slice(2)}` };
  const key = await webcrypto.subtle.importKey(
    'jwk',
    jwk as webcrypto.JsonWebKey,
    algorithm,
    false,
    ['sign'],
  );
  return { key, kid: jwk.kid };
}
