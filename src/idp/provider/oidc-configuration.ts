import { type JsonWebKey, createPublicKey } from 'node:crypto';
import { ROUTES } from '../../shared/routes';
import type {
  AccountClaims,
  ClientMetadata,
  Configuration,
  KoaContextWithOIDC,
  UnknownObject,
} from 'oidc-provider';
import type { AppConfig } from '../../config/app-config';
import {
  CLAIMS_BY_SCOPE,
  OKTA_ROUTES,
  RESOURCE_SCOPES,
  SUPPORTED_SCOPES,
  TOKEN_TTL,
  interactionPath,
  oktaAccessTokenSubject,
} from './okta-shape';
import type { PutOffStep } from './put-off-steps';
import { saveFirstPartyGrant } from './first-party-grant';

/** The account facts the provider puts in tokens. */
export interface IdpAccount {
  readonly id: string;
  readonly collectorsId: number;
  readonly navisionId: string;
  readonly email: string;
  readonly emailVerified: boolean;
  readonly givenName: string | null;
  readonly familyName: string | null;
  readonly locale: string;
  readonly isMigrating: boolean;
  readonly mfaSetupRequired: boolean;
  readonly surveyPending: boolean;
  /** The verified second factors' types (totp, email, sms), for the `factors` claim. */
  readonly factors?: readonly string[];
}

export interface AccountLookup {
  findById(id: string): Promise<IdpAccount | undefined>;
}

/** What the collector put off in an IdP session (put-off-steps.ts), by the session's uid. */
export interface PutOffLookup {
  read(sessionUid: string | undefined): Promise<readonly PutOffStep[]>;
}

export interface OidcConfigurationDeps {
  readonly config: AppConfig;
  readonly accounts: AccountLookup;
  readonly putOff: PutOffLookup;
  /** oidc-provider's adapter class (one instance per model name). */
  readonly adapter: NonNullable<Configuration['adapter']>;
  readonly jwks: { keys: UnknownObject[] };
  readonly cookieKeys: string[];
  readonly renderError: NonNullable<Configuration['renderError']>;
  readonly logoutSource: NonNullable<
    NonNullable<NonNullable<Configuration['features']>['rpInitiatedLogout']>['logoutSource']
  >;
  readonly postLogoutSuccessSource: NonNullable<
    NonNullable<
      NonNullable<Configuration['features']>['rpInitiatedLogout']
    >['postLogoutSuccessSource']
  >;
}

/**
 * The claims of an account's tokens. `putOff` is what the collector put off in the IdP session the
 * token comes from (issue 14 item 6): "Not now" on PromptSetupMfa is §3's promptMfaSignin=false, said
 * in the ID token so that this service can keep it in its session for the §2 shell rule (setupMfa
 * stays true: the set-up is still required, only not prompted); a skipped survey has been shown, so
 * it is not to be shown again in that sign-in (§2 "must see a survey").
 */
export function accountClaims(
  account: IdpAccount,
  putOff: readonly PutOffStep[] = [],
): AccountClaims {
  const name = [account.givenName, account.familyName].filter(Boolean).join(' ');
  return {
    sub: account.id,
    CollectorsId: account.collectorsId,
    NavisionId: account.navisionId,
    isMigrating: account.isMigrating,
    setupMfa: account.mfaSetupRequired,
    ...(account.mfaSetupRequired && putOff.includes('setupMfa') ? { promptMfaSignin: false } : {}),
    showSurvey: account.surveyPending && !putOff.includes('survey'),
    email: account.email,
    email_verified: account.emailVerified,
    ...(name ? { name } : {}),
    ...(account.givenName ? { given_name: account.givenName } : {}),
    ...(account.familyName ? { family_name: account.familyName } : {}),
    locale: account.locale,
    ...(account.factors ? { factors: [...account.factors] } : {}),
  };
}

/**
 * This service's client and each brand's client (one for every redirect brand by
 * default, docs/brand-contract.md §1). All are first-party.
 */
export function oidcClients(config: AppConfig): ClientMetadata[] {
  const base = config.http.publicUrl;
  const service: ClientMetadata = {
    client_id: config.idp.clientId,
    ...serviceClientAuth(config.idp),
    redirect_uris: [`${base}${ROUTES.loginLanding}`],
    post_logout_redirect_uris: [`${base}${ROUTES.logoutLanding}`],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    // Issue 7: the IdP tells this service when one of its sessions ends (and puts `sid` in ID tokens).
    backchannel_logout_uri: `${base}${ROUTES.backchannelLogout}`,
    backchannel_logout_session_required: true,
  };
  // docs/brand-contract.md §1: a brand's tokens are issued to its own client, both on a hop's
  // silent grant (which lands on this service's sign-in landing) and on the brand code redirect.
  const brands = Object.values(config.brandClients).map((c): ClientMetadata => ({
    client_id: c.clientId,
    client_secret: c.clientSecret,
    redirect_uris: [`${base}${ROUTES.loginLanding}`, `${base}${ROUTES.brandTokenLanding}`],
    post_logout_redirect_uris: [`${base}${ROUTES.logoutLanding}`],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: c.authMethod ?? 'client_secret_basic',
  }));
  return [service, ...brands];
}

/**
 * The service's client registered with the method it is configured to use, as an Okta app is
 * (docs/okta.md "Client authentication"): its secret, or, for private_key_jwt, the public half of
 * its key under the key's `kid` (RFC 7591 §2 `jwks`).
 */
function serviceClientAuth(idp: AppConfig['idp']): Partial<ClientMetadata> {
  if (idp.clientAuthMethod !== 'private_key_jwt')
    return { client_secret: idp.clientSecret, token_endpoint_auth_method: idp.clientAuthMethod };
  // parseConfig refuses private_key_jwt without its key (IDP_CLIENT_PRIVATE_KEY).
  if (!idp.clientPrivateKey) throw new Error('private_key_jwt without IDP_CLIENT_PRIVATE_KEY');
  const publicKey = createPublicKey({
    key: idp.clientPrivateKey as JsonWebKey,
    format: 'jwk',
  }).export({ format: 'jwk' });
  return {
    token_endpoint_auth_method: 'private_key_jwt',
    jwks: { keys: [{ ...publicKey, kid: idp.clientPrivateKey.kid }] },
  };
}

/**
 * The oidc-provider configuration that makes the embedded IdP behave like Okta's default
 * authorization server: Okta's paths, RS256 JWT access tokens for `api://default` with Okta's claims,
 * refresh-token rotation, no consent screen for our own clients, RP-initiated logout.
 */
export function oidcConfiguration(deps: OidcConfigurationDeps): Configuration {
  const { config, accounts } = deps;
  // Issue 31 item 1: the audience Okta's authorization server is configured with (IDP_AUDIENCE).
  const { audience } = config.idp;
  // The account findAccount loaded, by the Account entity it returned (oidc-provider keeps that very
  // object as the request's ctx.oidc.entities.Account), so that extraTokenClaims, in the same token
  // request, need not read the account again (issue 18 item 3: one look-up less per refresh grant).
  const loaded = new WeakMap<object, IdpAccount>();
  // The account each access token is issued for, kept by extraTokenClaims for the JWT customizer of
  // the same token (oidc-provider hands both the same token object): Okta's `sub`, the login, needs
  // no second look-up (docs/brand-contract.md §5).
  const issuedFor = new WeakMap<object, IdpAccount>();
  // `token` is what the claims are for: the authorization code or refresh token being exchanged (both
  // name the IdP session they come from), or an access token at userinfo.
  const findAccount = async (_ctx: KoaContextWithOIDC, sub: string, token?: object) => {
    const account = await accounts.findById(sub);
    if (!account) return undefined;
    const sessionUid =
      token && 'sessionUid' in token && typeof token.sessionUid === 'string'
        ? token.sessionUid
        : undefined;
    const putOff = await deps.putOff.read(sessionUid);
    const found = { accountId: account.id, claims: () => accountClaims(account, putOff) };
    loaded.set(found, account);
    return found;
  };

  return {
    adapter: deps.adapter,
    clients: oidcClients(config),
    jwks: deps.jwks,
    findAccount,
    routes: { ...OKTA_ROUTES },
    scopes: [...SUPPORTED_SCOPES],
    claims: Object.fromEntries(Object.entries(CLAIMS_BY_SCOPE).map(([k, v]) => [k, [...v]])),
    // ID tokens carry the claims themselves (see CLAIMS_BY_SCOPE), as Okta's do for these scopes.
    conformIdTokenClaims: false,
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    rotateRefreshToken: true,
    ttl: { ...TOKEN_TTL, AccessToken: config.idp.accessTokenTtlSeconds },
    cookies: {
      keys: deps.cookieKeys,
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },
    // Okta does not ask collectors to consent to first-party apps: grant what they asked for. Each
    // authorization gets a grant of its own (the one its interaction just made, else a new one), as
    // each Okta sign-in's tokens stand alone: revoking one sign-in's refresh token (RFC 7009, which
    // oidc-provider applies to the token's whole grant) must not end a later sign-in's tokens.
    loadExistingGrant: async (ctx) => {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId;
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      return saveFirstPartyGrant(
        ctx.oidc.provider,
        { clientId: client.clientId, accountId: session.accountId },
        audience,
        existing,
      );
    },
    extraTokenClaims: async (ctx, token) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const entity = ctx.oidc.entities.Account;
      const known = entity ? loaded.get(entity) : undefined;
      const account =
        known?.id === token.accountId ? known : await accounts.findById(token.accountId);
      if (account) issuedFor.set(token, account);
      const grant = ctx.oidc.entities.Grant;
      const oidcScopes = grant?.getOIDCScope().split(' ').filter(Boolean) ?? [];
      const resourceScopes = (token.scope ?? '').split(' ').filter(Boolean);
      return {
        // Okta's access-token shape (§3): client id as `cid`, scopes as the list `scp`.
        cid: token.clientId,
        scp: [...new Set([...oidcScopes, ...resourceScopes])],
        ...(account ? { CollectorsId: account.collectorsId, NavisionId: account.navisionId } : {}),
      };
    },
    formats: {
      customizers: {
        // Okta's "Tokens and claims": an access token's `sub` is the user's login and `uid` the user
        // id (the ID token's `sub`, what this service keys its sessions on). oidc-provider puts the
        // account id in `sub` and extraTokenClaims may not override it, so the signed payload is
        // rewritten here (docs/brand-contract.md §5). ID tokens and userinfo keep `sub` = the user
        // id, as Okta's.
        jwt: async (_ctx, token, jwt) => {
          const accountId = 'accountId' in token ? token.accountId : undefined;
          if (typeof accountId !== 'string') return;
          const known = issuedFor.get(token);
          const account = known?.id === accountId ? known : await accounts.findById(accountId);
          // No login to name: no token (oidc-provider answers server_error), never one keyed on an id.
          if (!account) throw new Error('the account of this access token no longer exists');
          jwt.payload = oktaAccessTokenSubject(jwt.payload, account);
        },
      },
    },
    features: {
      devInteractions: { enabled: false },
      // A client may introspect or revoke only tokens issued to itself (RFC 7009 §2.1, RFC 7662 §4).
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      introspection: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      userinfo: { enabled: true },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: deps.logoutSource,
        postLogoutSuccessSource: deps.postLogoutSuccessSource,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== audience) throw new Error('unknown resource');
          return {
            scope: RESOURCE_SCOPES,
            audience: audience,
            accessTokenTTL: config.idp.accessTokenTtlSeconds,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    renderError: deps.renderError,
  };
}
