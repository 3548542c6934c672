import {
  DynamicModule,
  MiddlewareConsumer,
  Module,
  NestModule,
  RequestMethod,
} from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { isDeveloperEnv } from '../shared/environment';
import { ResponseCookies } from '../cookies/response-cookies';
import { DemoBrandController } from '../demo/demo-brand.controller';
import { AuthEvents } from '../logging/auth-events';
import { CollectionController } from '../shell/collection.controller';
import { SessionsController } from '../shell/sessions.controller';
import { ShellAccessCheck } from '../shell/shell-access';
import { Sessions } from '../session/sessions';
import { LegacyCookieMiddleware } from '../token/legacy-cookie.middleware';
import { TokenParamMiddleware } from '../token/token-param.middleware';
import { TokenRefresher } from '../token/token-refresher';
import { TokenVerifier } from '../token/token-verifier';
import { AppRouterFactory } from '../trpc/app-router';
import { TRPC_PATH, TrpcMiddleware } from '../trpc/trpc.middleware';
import { AccountProfiles } from './account-profiles';
import { AuthController } from './auth.controller';
import { BrandTokenService } from './brand-token.service';
import { HandoffCodes } from './handoff-codes';
import { HandoffExchange } from './handoff-exchange';
import { LoginStates } from './login-state';
import { OidcClient } from './oidc-client';
import { SigninService } from './signin.service';
import { SignoutService } from './signout.service';
import { UnauthController } from './unauth.controller';
import { SessionEnding } from './session-ending';
import { BackchannelController } from '../backchannel/backchannel.controller';
import { BackchannelNotifier } from '../backchannel/backchannel-notifier';
import { ServiceSigningKey } from '../backchannel/service-signing-key';

/** The sign-in service (issue 4): routes of §2, sessions, tokens, handoff, sign-out. */
@Module({})
export class AuthModule implements NestModule {
  static forRoot(config: AppConfig): DynamicModule {
    const providers = [
      OidcClient,
      LoginStates,
      Sessions,
      TokenVerifier,
      TokenRefresher,
      ResponseCookies,
      HandoffCodes,
      HandoffExchange,
      AccountProfiles,
      AuthEvents,
      SigninService,
      SignoutService,
      SessionEnding,
      ShellAccessCheck,
      ServiceSigningKey,
      BackchannelNotifier,
      BrandTokenService,
      AppRouterFactory,
    ];
    return {
      module: AuthModule,
      controllers: [
        AuthController,
        UnauthController,
        CollectionController,
        SessionsController,
        BackchannelController,
        ...(isDeveloperEnv(config.env) ? [DemoBrandController] : []),
      ],
      providers,
      exports: providers,
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(LegacyCookieMiddleware, TokenParamMiddleware).forRoutes('*path');
    consumer
      .apply(TrpcMiddleware)
      .forRoutes({ path: `${TRPC_PATH.slice(1)}/*path`, method: RequestMethod.ALL });
  }
}
