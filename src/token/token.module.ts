import { Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { LegacyCookieMiddleware } from './legacy-cookie.middleware';
import { TokenParamMiddleware } from './token-param.middleware';
import { TokenVerifier } from './token-verifier';

/**
 * Access tokens at the edge (§4 Token handling, §4 App start step 3): the verifier (JWKS, RS256,
 * claims), a page URL's `t` stored as the accessToken cookie once verified, and legacy JSON-wrapped
 * token cookies unwrapped. The two middleware run on every route, before any controller.
 */
@Global()
@Module({ providers: [TokenVerifier], exports: [TokenVerifier] })
export class TokenModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(LegacyCookieMiddleware, TokenParamMiddleware).forRoutes('*path');
  }
}
