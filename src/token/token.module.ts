import { Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { LegacyCookieMiddleware } from './legacy-cookie.middleware';
import { TokenParamMiddleware } from './token-param.middleware';
import { TokenParamSignin } from './token-param-signin';
import { TokenVerifier } from './token-verifier';

/**
 * Access tokens at the edge (§4 Token handling, §4 App start step 3): the verifier (JWKS, RS256,
 * claims), a page URL's `t` taken as a sign-in once verified (issue 14 item 7), and the token cookies
 * earlier versions left in browsers cleared. The two middleware run on every route, before any
 * controller.
 */
@Global()
@Module({ providers: [TokenVerifier, TokenParamSignin], exports: [TokenVerifier] })
export class TokenModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(LegacyCookieMiddleware, TokenParamMiddleware).forRoutes('*path');
  }
}
