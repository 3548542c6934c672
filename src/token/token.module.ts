import { Global, Module } from '@nestjs/common';
import { LegacyCookieMiddleware } from './legacy-cookie.middleware';
import { TokenParamMiddleware } from './token-param.middleware';
import { TokenParamSignin } from './token-param-signin';
import { TokenOffers } from './token-offers';
import { TokenVerifier } from './token-verifier';
import { TokenSigninController } from './token-signin.controller';

/**
 * Access tokens at the edge (§4 Token handling, §4 App start step 3): the verifier (JWKS, RS256,
 * claims), a page URL's `t` taken as a sign-in once verified (issue 14 item 7), and the token cookies
 * earlier versions left in browsers cleared. The two middleware run on every request that no static
 * file answered, before any controller: the composition root (src/app.factory.ts) mounts them in one
 * Express layer (issue 18 item 2), not as two Nest middleware layers matched per route.
 */
@Global()
@Module({
  controllers: [TokenSigninController],
  providers: [
    TokenVerifier,
    TokenOffers,
    TokenParamSignin,
    LegacyCookieMiddleware,
    TokenParamMiddleware,
  ],
  exports: [TokenVerifier, LegacyCookieMiddleware, TokenParamMiddleware],
})
export class TokenModule {}
