import { Global, Module } from '@nestjs/common';
import { IdpCalls } from './idp-calls';
import { IdpStatus } from './idp-status';
import { OidcClient } from './oidc-client';

/**
 * The OpenID Connect client adapter (openid-client behind one class): every module that talks to the
 * IdP (sign-in, refresh, revocation, token verification) uses this one instance, so discovery is
 * done once per client. IdpStatus keeps what its calls said about the IdP's health; IdpCalls times
 * every call and holds an endpoint back while the IdP rate-limits it (docs/okta.md "Rate limits").
 */
@Global()
@Module({
  providers: [OidcClient, IdpStatus, IdpCalls],
  exports: [OidcClient, IdpStatus, IdpCalls],
})
export class OidcModule {}
