import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ShutdownState } from '../lifecycle/shutdown-state';
import { StartupTasks } from '../lifecycle/startup-tasks';
import { SESSION_STORE, SessionStore } from '../session/session-store';
import { HealthController } from './health.controller';
import { READINESS_CHECKS } from './health.tokens';
import { ReadinessCheck } from './readiness-check';
import { idpDiscoveryCheck, sessionStoreCheck } from './readiness-checks';

/** Global: any module may hand StartupTasks work that can finish after the listener is up. */
@Global()
@Module({
  controllers: [HealthController],
  providers: [
    // One instance: main.ts sets it on SIGTERM, readiness reads it.
    ShutdownState,
    StartupTasks,
    {
      provide: READINESS_CHECKS,
      inject: [APP_CONFIG, SESSION_STORE, StartupTasks],
      useFactory: (
        config: AppConfig,
        store: SessionStore,
        startup: StartupTasks,
      ): ReadinessCheck[] => [
        { name: 'startup', check: () => startup.check() },
        sessionStoreCheck(store),
        // The embedded IdP runs in this process: if we answer, it does.
        ...(config.idp.mode === 'external' ? [idpDiscoveryCheck(config.idp.issuer)] : []),
      ],
    },
  ],
  exports: [ShutdownState, StartupTasks],
})
export class HealthModule {}
