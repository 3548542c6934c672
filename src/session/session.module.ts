import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AppMetrics } from '../metrics';
import { AccountProfiles } from './account-profiles';
import { InstrumentedSessionStore } from '../store/instrumented-session-store';
import { LiveSessions } from './live-sessions';
import { SessionEnding } from './session-ending';
import { Sessions } from './sessions';
import { TokenRefresher } from './token-refresher';
import { TokenVault } from '../store/token-vault';
import { AccountSummaries } from './account-summaries';
import { RevocationQueue } from './revocation-queue';
import { HandedTokens } from './handed-tokens';
import { BrandGrants } from './brand-grants';
import { createSessionStore } from '../store/create-session-store';
import { SESSION_STORE, SessionStore } from '../store/session-store';

const SESSION_PROVIDERS = [
  Sessions,
  TokenRefresher,
  LiveSessions,
  SessionEnding,
  AccountProfiles,
  AccountSummaries,
  RevocationQueue,
  HandedTokens,
  BrandGrants,
];

/**
 * Server-side state (docs/design.md "Storage"): the store port with its configured adapter, the session
 * records, live sessions (read with their refresh), session ending, and the account facts kept
 * beside them. Global: nearly every module reads who is signed in.
 */
@Global()
@Module({
  providers: [
    ...SESSION_PROVIDERS,
    // Issue 15 item 9: the key ring that seals tokens at rest (sessions, handoff codes).
    {
      provide: TokenVault,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new TokenVault(config.tokenKeys),
    },
    {
      provide: SESSION_STORE,
      inject: [APP_CONFIG, AppMetrics],
      // Issue 7: whichever adapter is configured, every call is timed and every failure counted.
      useFactory: async (config: AppConfig, metrics: AppMetrics): Promise<SessionStore> =>
        new InstrumentedSessionStore(await createSessionStore(config), metrics),
    },
  ],
  exports: [SESSION_STORE, TokenVault, ...SESSION_PROVIDERS],
})
export class SessionModule implements OnApplicationShutdown {
  constructor(@Inject(SESSION_STORE) private readonly store: SessionStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
