import type { Brand } from '../brand/brand';
import { describeDevice, type DeviceName } from './device';
import type { ListedSession } from './sessions';

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

/** The caller's sessions, this one first, then the most recently used. */
export function listSessions(
  listed: readonly ListedSession[],
  currentHandle: string,
): SessionSummary[] {
  return listed
    .map(({ handle, record }) => ({
      handle,
      brand: record.brand,
      device: describeDevice(record.userAgent),
      createdAt: new Date(record.createdAt).toISOString(),
      lastUsedAt: new Date(record.lastUsedAt).toISOString(),
      current: handle === currentHandle,
    }))
    .sort(
      (a, b) => Number(b.current) - Number(a.current) || b.lastUsedAt.localeCompare(a.lastUsedAt),
    );
}
