import { Global, Module } from '@nestjs/common';
import { OidcClient } from './oidc-client';

/**
 * The OpenID Connect client adapter (openid-client behind one class): every module that talks to the
 * IdP (sign-in, refresh, revocation, token verification) uses this one instance, so discovery is
 * done once per client.
 */
@Global()
@Module({ providers: [OidcClient], exports: [OidcClient] })
export class OidcModule {}
