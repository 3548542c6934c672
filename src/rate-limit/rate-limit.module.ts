import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { SESSION_STORE, SessionStore } from '../session/session-store';
import { RateLimitGuard } from './rate-limit.guard';
import { StoreThrottlerStorage } from './store-throttler-storage';

@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, SESSION_STORE],
      useFactory: (config: AppConfig, store: SessionStore) => ({
        throttlers: [
          {
            // 'default' keeps the standard Retry-After header name (named throttlers suffix it).
            name: 'default',
            limit: config.rateLimit.credentialPosts.limit,
            ttl: config.rateLimit.credentialPosts.windowSeconds * 1000,
            blockDuration: config.rateLimit.credentialPosts.windowSeconds * 1000,
          },
        ],
        storage: new StoreThrottlerStorage(store),
      }),
    }),
  ],
  providers: [{ provide: APP_GUARD, useClass: RateLimitGuard }],
})
export class RateLimitModule {}
