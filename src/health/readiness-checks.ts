import type { SessionStore } from '../store/session-store';
import type { ReadinessCheck } from './readiness-check';

export function sessionStoreCheck(store: SessionStore): ReadinessCheck {
  return { name: `sessionStore:${store.kind}`, check: () => store.ping() };
}
