import * as path from 'node:path';
import type { AppConfig } from '../../config/app-config';
import { loadRedisSessionStore } from '../../store/redis-session-store.loader';
import type { SessionStore } from '../../store/session-store';
import { SqliteSessionStore } from '../../store/sqlite-session-store';

/** The embedded IdP's shared state, injected where the provider, the flows and the CLI need it. */
export const IDP_STATE_STORE = Symbol('IDP_STATE_STORE');

/**
 * Where the embedded IdP keeps what it issues (provider artefacts, flow progress, keys): the same kind
 * of store as the service's sessions (issue 7: Redis when several instances run), on the same port and
 * contract, but its own file or key space. The IdP stands in for an outside issuer, so it fails on its
 * own: the service's session file filling up must look like a session-store fault, not like an IdP one.
 */
export async function createIdpStateStore(config: AppConfig): Promise<SessionStore> {
  const store = config.sessionStore;
  switch (store.kind) {
    case 'sqlite':
      // Its log is copied on the request thread, as SQLite does by default: a checkpoint worker
      // costs about 9 MB of RSS, and this store runs only where the embedded IdP does (local and
      // dev), and npm run bench:load holds such a process to 250 MB.
      return new SqliteSessionStore(
        path.join(config.dataDir, 'idp-state.sqlite'),
        Date.now,
        'embedded IdP state store',
        false,
      );
    case 'redis':
    case 'redis-sentinel':
    case 'redis-cluster':
      return new (await loadRedisSessionStore())(store, 'cs:', 'embedded IdP state store');
  }
}
