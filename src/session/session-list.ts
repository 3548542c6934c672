import { describeDevice } from '../shared/device';
import type { SessionSummary } from '../shared/session-summary';
import type { ListedSession } from './sessions';

export type { SessionSummary } from '../shared/session-summary';

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
