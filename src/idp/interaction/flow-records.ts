import type Database from 'better-sqlite3';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FactorType } from '../accounts/factor-store';

/**
 * Server-side progress of one sign-in interaction (keyed by oidc-provider's interaction uid): the
 * flow state and what earlier steps learned. Never trusted from the browser; expires with the
 * interaction.
 */
export interface FlowData {
  readonly state: string;
  /** Per-interaction CSRF token, checked on every POST. */
  readonly csrf: string;
  readonly email?: string;
  readonly accountId?: string;
  readonly isNewAccount?: boolean;
  /** The second factor being used (sign-in) or enrolled (set-up). */
  readonly factor?: FactorType;
  readonly enrolmentId?: string;
  readonly totp?: { readonly secret: string; readonly qrSvg: string };
  /** A message key for the next page (e.g. code sent), with its values. */
  readonly notice?: { readonly key: string; readonly args?: Record<string, string> };
}

export class FlowRecords {
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number = Date.now,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS idp_flows (
      uid TEXT PRIMARY KEY, data TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID`);
  }

  get(uid: string): FlowData | undefined {
    const row = this.db
      .prepare<[string, number], { data: string }>(
        'SELECT data FROM idp_flows WHERE uid = ? AND expires_at > ?',
      )
      .get(uid, this.now());
    return row ? (JSON.parse(row.data) as FlowData) : undefined;
  }

  create(uid: string, state: string, expiresAt: number): FlowData {
    const data: FlowData = { state, csrf: newCsrfToken() };
    this.save(uid, data, expiresAt);
    return data;
  }

  save(uid: string, data: FlowData, expiresAt: number): void {
    this.db
      .prepare(
        'INSERT INTO idp_flows (uid, data, expires_at) VALUES (?, ?, ?) ON CONFLICT(uid) DO UPDATE SET data = excluded.data, expires_at = excluded.expires_at',
      )
      .run(uid, JSON.stringify(data), expiresAt);
  }

  delete(uid: string): void {
    this.db.prepare('DELETE FROM idp_flows WHERE uid = ?').run(uid);
  }

  purgeExpired(): void {
    this.db.prepare('DELETE FROM idp_flows WHERE expires_at <= ?').run(this.now());
  }
}

export function newCsrfToken(): string {
  return randomBytes(24).toString('base64url');
}

export function csrfMatches(expected: string, received: unknown): boolean {
  if (typeof received !== 'string' || received.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(received));
}
