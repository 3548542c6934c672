import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AppMetrics, InstrumentedSessionStore } from '../metrics';
import { RedisSessionStore } from './redis-session-store';
import { SESSION_STORE, SessionStore } from './session-store';
import { SqliteSessionStore } from './sqlite-session-store';

export function createSessionStore(config: AppConfig): SessionStore {
  const store = config.sessionStore;
  switch (store.kind) {
    case 'sqlite':
      return new SqliteSessionStore(store.file);
    case 'redis':
      return new RedisSessionStore(store.url);
  }
}

@Global()
@Module({
  providers: [
    {
      provide: SESSION_STORE,
      inject: [APP_CONFIG, AppMetrics],
      // Issue 7: whichever adapter is configured, every call is timed and every failure counted.
      useFactory: (config: AppConfig, metrics: AppMetrics): SessionStore =>
        new InstrumentedSessionStore(createSessionStore(config), metrics),
    },
  ],
  exports: [SESSION_STORE],
})
export class SessionModule implements OnApplicationShutdown {
  constructor(@Inject(SESSION_STORE) private readonly store: SessionStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
