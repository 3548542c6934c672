import type { AppConfig } from '../config/app-config';
import { loadRedisSessionStore } from './redis-session-store.loader';
import type { SessionStore } from './session-store';
import { SqliteSessionStore } from './sqlite-session-store';

/** The adapter the configuration names (docs/design.md "Storage"); Redis is loaded only when named. */
export async function createSessionStore(config: AppConfig): Promise<SessionStore> {
  const store = config.sessionStore;
  switch (store.kind) {
    case 'sqlite':
      return new SqliteSessionStore(store.file);
    case 'redis':
    case 'redis-sentinel':
    case 'redis-cluster':
      return new (await loadRedisSessionStore())(store);
  }
}
