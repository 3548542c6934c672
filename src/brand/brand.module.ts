import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { redirectPolicyFromConfig } from './redirect-policy';

export const REDIRECT_POLICY = Symbol('REDIRECT_POLICY');

/** The redirect policy is built once from configuration and shared by every flow that redirects. */
@Global()
@Module({
  providers: [
    {
      provide: REDIRECT_POLICY,
      inject: [APP_CONFIG],
      useFactory: (c: AppConfig) => redirectPolicyFromConfig(c),
    },
  ],
  exports: [REDIRECT_POLICY],
})
export class BrandModule {}
