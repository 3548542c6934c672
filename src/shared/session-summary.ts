import type { Brand } from './brand';
import type { DeviceName } from './device';

/** One row of the session management page and of account.sessions (no token, no session id). */
export interface SessionSummary {
  readonly handle: string;
  readonly brand: Brand;
  readonly device: DeviceName;
  readonly createdAt: string;
  readonly lastUsedAt: string;
  /** The session this request comes from. */
  readonly current: boolean;
}
