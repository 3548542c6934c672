// Rules Okta keeps that oidc-provider does not, for test/support/okta-idp/server.mjs.
//
// Client authentication the way Okta enforces it: an app is
// registered with exactly one token_endpoint_auth_method (client_secret_basic unless it says
// otherwise) and Okta refuses a request that authenticates any other way
// (developer.okta.com/docs/api/openapi/okta-oauth/guides/client-auth). oidc-provider alone takes
// client_secret_basic and client_secret_post for each other, so this tells them apart first.
import { errors } from 'oidc-provider';

/** The endpoints that authenticate the client, under the mount. */
const AUTHENTICATED = new Set(['/v1/token', '/v1/revoke', '/v1/introspect']);

/** Okta's answer to a client that did not authenticate as registered. */
const OKTA_INVALID_CLIENT = {
  error: 'invalid_client',
  error_description:
    'Client authentication failed. Either the client or the client credentials are invalid.',
};

/** The method a request used, from what it carries (RFC 6749 §2.3.1, RFC 7523 §2.2). */
function methodUsed(authorization, form) {
  if (/^Basic /i.test(authorization ?? '')) return 'client_secret_basic';
  if (form.has('client_assertion')) return 'private_key_jwt';
  if (form.has('client_secret')) return 'client_secret_post';
  return 'none';
}

/** The client a request names: in the Basic header, the form, or the assertion's `sub`. */
function clientIdOf(authorization, form) {
  const basic = /^Basic (\S+)$/i.exec(authorization ?? '');
  if (basic) {
    const pair = Buffer.from(basic[1], 'base64').toString('utf8');
    return decodeURIComponent(pair.slice(0, pair.indexOf(':')).replace(/\+/g, '%20'));
  }
  if (form.get('client_id')) return form.get('client_id');
  const assertion = form.get('client_assertion');
  if (!assertion) return undefined;
  try {
    return JSON.parse(Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString()).sub;
  } catch {
    return undefined;
  }
}

/**
 * A koa middleware for the provider (provider.use): on the endpoints that authenticate clients, it
 * reads the body once (oidc-provider then parses the text it is handed), notes the method used in
 * `seen`, and answers Okta's 401 invalid_client when it is not the client's registered one.
 * `registered` maps a client id to its method.
 */
export function registeredMethodOnly(registered, seen) {
  return async (ctx, next) => {
    if (ctx.method !== 'POST' || !AUTHENTICATED.has(ctx.path)) return next();
    let text = '';
    for await (const chunk of ctx.req) text += chunk;
    ctx.req.body = text;
    const form = new URLSearchParams(text);
    const authorization = ctx.get('authorization');
    const clientId = clientIdOf(authorization, form);
    const method = methodUsed(authorization, form);
    const expected = registered.get(clientId);
    if (expected !== undefined && method !== expected) {
      process.stderr.write(`okta-idp: ${clientId} used ${method}, registered ${expected}\n`);
      seen.push({ path: ctx.path, client_id: clientId, method, status: 401 });
      ctx.status = 401;
      ctx.body = OKTA_INVALID_CLIENT;
      return undefined;
    }
    await next();
    seen.push({ path: ctx.path, client_id: clientId, method, status: ctx.status });
    return undefined;
  };
}

/**
 * oidc-provider's hook for a client assertion's claims: Okta wants `aud` to be the endpoint the
 * assertion is sent to ("the full URL of the resource that you're using the JWT to authenticate
 * to", developer.okta.com/docs/guides/implement-oauth-for-okta-serviceapp/create-sign-jwt), where
 * oidc-provider would also take the issuer.
 */
export function endpointAudienceOnly(issuer) {
  return (ctx, claims) => {
    const endpoint = `${issuer}${ctx.path}`;
    if (claims.aud !== endpoint)
      throw new errors.InvalidClientAuth(
        'The audience claim for client_assertion must be the endpoint invoked for the request.',
      );
  };
}

/**
 * Okta's /v1/logout requires `id_token_hint` (support.okta.com, "The purpose of id_token_hint in
 * the logout API"); oidc-provider would instead ask the user to confirm. A logout without one is
 * refused with 400 here, and the Okta session stays.
 */
export function logoutNeedsIdTokenHint() {
  return async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/v1/logout' && !ctx.query.id_token_hint) {
      process.stderr.write('okta-idp: /v1/logout without id_token_hint refused\n');
      ctx.status = 400;
      ctx.body = {
        error: 'invalid_request',
        error_description: "The 'id_token_hint' parameter is required.",
      };
      return undefined;
    }
    return next();
  };
}
