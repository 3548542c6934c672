import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AuthModule } from './auth/auth.module';
import { BrandModule } from './brand/brand.module';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { AllExceptionsFilter } from './errors/all-exceptions.filter';
import { HealthModule } from './health/health.module';
import { IdpModule } from './idp/idp.module';
import { LocaleModule } from './locale/locale.module';
import { LoggingModule, LoggingOptions } from './logging/logging.module';
import { MetricsModule } from './metrics';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { RenderModule } from './render/render.module';
import { SessionModule } from './session/session.module';

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
        SessionModule,
        BrandModule,
        RateLimitModule,
        HealthModule,
        AuthModule.forRoot(config),
        ...(config.idp.mode === 'embedded' ? [IdpModule.forRoot()] : []),
      ],
      providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }],
    };
  }
}
