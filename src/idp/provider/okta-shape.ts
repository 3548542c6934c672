import { ROUTES } from '../../shared/routes';

/**
 * What makes the embedded IdP look like Okta's default authorization server to the rest of the
 * service (issue 3): its paths (below ROUTES.idp), its audience, its scopes and the shape of its
 * tokens (§3, §7).
 */

/** Okta's endpoint paths under the authorization server. */
export const OKTA_ROUTES = {
  authorization: '/v1/authorize',
  token: '/v1/token',
  jwks: '/v1/keys',
  userinfo: '/v1/userinfo',
  end_session: '/v1/logout',
  revocation: '/v1/revoke',
  introspection: '/v1/introspect',
} as const;

export const SUPPORTED_SCOPES = [
  'openid',
  'customer',
  'offline_access',
  'email',
  'profile',
] as const;

/** Scopes that are about the API rather than identity (the resource server's scopes). */
export const RESOURCE_SCOPES = 'customer email profile';

/** §7: token redirects ask for these. */
export const TOKEN_REDIRECT_SCOPE = 'openid customer offline_access';

/** Lifetimes, in seconds. Refresh tokens live as long as the token cookies (§9: 8,640,000 s). */
export const TOKEN_TTL = {
  AccessToken: 3600,
  IdToken: 3600,
  AuthorizationCode: 60,
  RefreshToken: 8_640_000,
  Interaction: 30 * 60,
  Session: 14 * 24 * 3600,
  Grant: 8_640_000,
} as const;

/**
 * The subject of an access token as Okta's default authorization server states it (Okta's "Tokens and
 * claims"): `sub` is the user's login (their email) and `uid` their user id, which is the `sub` of
 * their ID token and of userinfo. oidc-provider signs the account id as `sub` and extraTokenClaims
 * may not override it, so the JWT customizer (oidc-configuration.ts) rewrites the payload with this.
 * docs/brand-contract.md §5: a brand that keyed its sessions on the embedded IdP's `sub` worked in
 * local and dev and broke against Okta; docs/brand-contract.md tells brands to key on `uid`.
 */
export function oktaAccessTokenSubject(
  payload: Readonly<Record<string, unknown>>,
  account: { readonly id: string; readonly email: string },
): Record<string, unknown> {
  return { ...payload, sub: account.email, uid: account.id };
}

/** Where the provider sends the browser for the sign-in steps (outside its own mount, docs/design.md "Stack notes"). */
export function interactionPath(uid: string): string {
  return `${ROUTES.idpSteps}/${uid}`;
}

/**
 * Claims by scope. `customer` carries the collector's ids and the account flags the signed-in shell
 * needs (§2, §3 "Auth user state"): they ride in the ID token because oidc-provider's userinfo
 * endpoint does not accept the JWT access tokens Okta issues.
 */
export const CLAIMS_BY_SCOPE = {
  openid: ['sub'],
  customer: [
    'CollectorsId',
    'NavisionId',
    'isMigrating',
    'setupMfa',
    'showSurvey',
    // §3 promptMfaSignin, only ever false: "Not now" on PromptSetupMfa (issue 14 item 6).
    'promptMfaSignin',
    // Issue 16 item 4: who is signed in and their second factors, for the landing. §7 fixes the
    // scopes a sign-in asks for (openid customer offline_access), so the account's name and email
    // come with `customer` here, as an Okta authorization server's custom scope can carry them.
    'name',
    'given_name',
    'family_name',
    'email',
    'factors',
  ],
  email: ['email', 'email_verified'],
  profile: ['name', 'given_name', 'family_name', 'locale'],
} as const;
