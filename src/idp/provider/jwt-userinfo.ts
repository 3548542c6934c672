import { type JWK, createLocalJWKSet, jwtVerify } from 'jose';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { AccountLookup } from './oidc-configuration';
import { accountClaims } from './oidc-configuration';
import { CLAIMS_BY_SCOPE, OKTA_ROUTES } from './okta-shape';

/** The private members of an RSA JWK: never part of what verifies. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const;

/** The verifying half of the provider's signing keys. */
export function publicKeys(keys: readonly JWK[]): { keys: JWK[] } {
  return {
    keys: keys.map((key) => {
      const copy: Record<string, unknown> = { ...key };
      for (const member of PRIVATE_MEMBERS) delete copy[member];
      return copy;
    }),
  };
}

/** The claims a token's scopes release (OIDC Core §5.4), `sub` always. */
export function releasedClaims(
  all: Readonly<Record<string, unknown>>,
  scopes: readonly string[],
): Record<string, unknown> {
  const names = new Set<string>(['sub']);
  for (const scope of scopes) {
    const listed = (CLAIMS_BY_SCOPE as Readonly<Record<string, readonly string[]>>)[scope];
    for (const name of listed ?? []) names.add(name);
  }
  return Object.fromEntries(Object.entries(all).filter(([name]) => names.has(name)));
}

/** An RFC 6750 §3 refusal: 401 with the reason in WWW-Authenticate and the body. */
function refuse(ctx: KoaContextWithOIDC, description: string): void {
  ctx.status = 401;
  ctx.set('WWW-Authenticate', `Bearer error="invalid_token", error_description="${description}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error: 'invalid_token', error_description: description };
}

export interface JwtUserinfoDeps {
  readonly issuer: string;
  readonly audience: string;
  readonly keys: readonly JWK[];
  readonly accounts: AccountLookup;
}

/**
 * Userinfo for the IdP's own JWT access tokens (issue 31 item 1), as Okta answers it: oidc-provider
 * refuses any token with an audience at userinfo and looks tokens up by their whole value (a 940-byte
 * JWT, past its store's key limit: a 500), so a brand calling userinfo with the `t` it received got a
 * server error where Okta answers with the claims. This answers a bearer JWT here: signature,
 * expiry, issuer and audience checked, the account its `uid` names still there, then the account's
 * claims that the token's `scp` releases. The account is the token's `uid`, never its `sub`: an
 * access token's `sub` is the login, as at Okta (okta-shape.ts oktaAccessTokenSubject,
 * docs/brand-contract.md §5); the answer's `sub` is the user id, as Okta's userinfo states it.
 * oidc-provider keeps no record of its JWT access tokens (it stores only opaque ones), so like any
 * resource server (RFC 9068 §6) this takes a valid token until its `exp`; the lifetime
 * (IDP_ACCESS_TOKEN_TTL_SECONDS) bounds it. Anything else (an opaque token, a token in the body)
 * goes on to oidc-provider's own userinfo.
 */
export function jwtUserinfo(deps: JwtUserinfoDeps) {
  const keySet = createLocalJWKSet(publicKeys(deps.keys));
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    if (ctx.path !== OKTA_ROUTES.userinfo || (ctx.method !== 'GET' && ctx.method !== 'POST'))
      return next();
    const header = ctx.get('authorization');
    const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/i.exec(header);
    if (!match?.[1]) return next();
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(match[1], keySet, {
        algorithms: ['RS256'],
        issuer: deps.issuer,
        audience: deps.audience,
      }));
    } catch {
      return refuse(ctx, 'the access token is not valid');
    }
    const account =
      typeof payload.uid === 'string' ? await deps.accounts.findById(payload.uid) : undefined;
    if (!account) return refuse(ctx, 'the account no longer exists');
    const scopes = Array.isArray(payload.scp)
      ? payload.scp.filter((s) => typeof s === 'string')
      : [];
    ctx.status = 200;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = releasedClaims(accountClaims(account), scopes);
  };
}
