import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AuthModule } from './auth/auth.module';
import { BackchannelModule } from './backchannel/backchannel.module';
import { BrandModule } from './brand/brand.module';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { isDeveloperEnv } from './shared/environment';
import { CookiesModule } from './cookies/cookies.module';
import { DemoModule } from './demo/demo.module';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { HealthModule } from './health/health.module';
import { IdpModule } from './idp/idp.module';
import { LocaleModule } from './locale/locale.module';
import { ManagementModule } from './management/management.module';
import { LoggingModule, LoggingOptions } from './logging/logging.module';
import { MetricsModule } from './metrics';
import { OidcModule } from './oidc/oidc.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { RenderModule } from './render/render.module';
import { SessionModule } from './session/session.module';
import { ShellModule } from './shell/shell.module';
import { TokenModule } from './token/token.module';
import { ApiModule } from './api/api.module';

export type AppModuleOptions = LoggingOptions;

@Module({})
export class AppModule {
  /** The configuration is parsed before Nest starts (main.ts), so a bad one never half-starts the app. */
  static forRoot(config: AppConfig, options: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule.forRoot(options),
        MetricsModule,
        LocaleModule,
        RenderModule,
        BrandModule,
        CookiesModule,
        OidcModule,
        SessionModule,
        RateLimitModule,
        HealthModule,
        ManagementModule,
        TokenModule,
        AuthModule,
        ShellModule,
        ApiModule,
        BackchannelModule,
        ...(isDeveloperEnv(config.env) ? [DemoModule] : []),
        ...(config.idp.mode === 'embedded' ? [IdpModule.forRoot()] : []),
      ],
      providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }],
    };
  }
}
