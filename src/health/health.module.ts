import { Global, Module } from '@nestjs/common';
import { ShutdownState } from '../lifecycle/shutdown-state';
import { StartupTasks } from '../lifecycle/startup-tasks';
import { SESSION_STORE, SessionStore } from '../store/session-store';
import { HealthController } from './health.controller';
import { READINESS_CHECKS } from './health.tokens';
import { ReadinessCheck } from './readiness-check';
import { sessionStoreCheck } from './readiness-checks';

/**
 * Global: any module may hand StartupTasks work that can finish after the listener is up.
 *
 * The probes' home is the management listener (src/management/, docs/operating.md "The management
 * port"), which serves the same controller. The public app still answers /healthz and /readyz
 * because they are routes of the brand contract (docs/openapi.yaml), removed only in its next major
 * version after the notice CHANGELOG.md announces (compose's nginx already forwards neither).
 */
@Global()
@Module({
  controllers: [HealthController],
  providers: [
    // One instance: main.ts sets it on SIGTERM, readiness reads it.
    ShutdownState,
    StartupTasks,
    {
      provide: READINESS_CHECKS,
      inject: [SESSION_STORE, StartupTasks],
      useFactory: (store: SessionStore, startup: StartupTasks): ReadinessCheck[] => [
        { name: 'startup', check: () => startup.check() },
        // Only what replacing this instance can fix (issue 31 item 3): the IdP is not here; an
        // outage of it shows in /healthz, the idp_up metric and the log (src/oidc/idp-status.ts).
        sessionStoreCheck(store),
      ],
    },
  ],
  exports: [ShutdownState, StartupTasks, READINESS_CHECKS],
})
export class HealthModule {}
