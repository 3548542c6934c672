import { Global, Module } from '@nestjs/common';
import { IdpStatus } from './idp-status';
import { OidcClient } from './oidc-client';

/**
 * The OpenID Connect client adapter (openid-client behind one class): every module that talks to the
 * IdP (sign-in, refresh, revocation, token verification) uses this one instance, so discovery is
 * done once per client. IdpStatus keeps what its calls said about the IdP's health.
 */
@Global()
@Module({ providers: [OidcClient, IdpStatus], exports: [OidcClient, IdpStatus] })
export class OidcModule {}
