import type Database from 'better-sqlite3';
import { exportJWK, generateKeyPair } from 'jose';
import { randomBytes, randomUUID } from 'node:crypto';
import type { JWK } from 'jose';

/**
 * The IdP's RS256 signing keys, persisted so tokens stay verifiable across restarts.
 *
 * Rotation publishes a key before it signs (issue 3): the ring always holds a `next` key that is in
 * /v1/keys but unused. `rotate()` promotes `next` to `current`, demotes the old `current` to
 * `retired` (still published, so tokens it signed keep verifying until they expire) and creates a new
 * `next`. oidc-provider signs with the first suitable key, so `current` is listed first.
 */
export type KeyState = 'current' | 'next' | 'retired';

interface KeyRow {
  kid: string;
  state: KeyState;
  jwk: string;
  created_at: number;
  retired_at: number | null;
}

/** A retired key stays published this long: longer than any access or ID token lives. */
export const RETIRED_KEY_GRACE_MS = 24 * 60 * 60 * 1000;

export class SigningKeys {
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number = Date.now,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS idp_signing_keys (
        kid TEXT PRIMARY KEY,
        state TEXT NOT NULL CHECK (state IN ('current', 'next', 'retired')),
        jwk TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        retired_at INTEGER
      );
      CREATE TABLE IF NOT EXISTS idp_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);`);
  }

  /** Makes sure a `current` and a `next` key exist (first start), then returns the published set. */
  async load(): Promise<{ keys: JWK[] }> {
    if (!this.row('current')) await this.insert('current');
    if (!this.row('next')) await this.insert('next');
    return this.jwks();
  }

  /** current first (it signs), then next, then retired keys still within their grace period. */
  jwks(): { keys: JWK[] } {
    const rows = this.db
      .prepare<[number], KeyRow>(
        `SELECT * FROM idp_signing_keys WHERE state != 'retired' OR retired_at > ?
         ORDER BY CASE state WHEN 'current' THEN 0 WHEN 'next' THEN 1 ELSE 2 END, created_at DESC`,
      )
      .all(this.now() - RETIRED_KEY_GRACE_MS);
    return { keys: rows.map((r) => JSON.parse(r.jwk) as JWK) };
  }

  /** Takes effect for signing at the next start of the provider; the new `next` is published then too. */
  async rotate(): Promise<void> {
    const next = this.row('next');
    if (!next) throw new Error('no next key to promote: call load() first');
    const at = this.now();
    this.db.transaction(() => {
      this.db
        .prepare(
          `UPDATE idp_signing_keys SET state = 'retired', retired_at = ? WHERE state = 'current'`,
        )
        .run(at);
      this.db.prepare(`UPDATE idp_signing_keys SET state = 'current' WHERE kid = ?`).run(next.kid);
    })();
    await this.insert('next');
  }

  /** A random secret created once and kept (cookie signing keys of the provider). */
  secret(name: string): string {
    const row = this.db
      .prepare<[string], { value: string }>('SELECT value FROM idp_secrets WHERE name = ?')
      .get(name);
    if (row) return row.value;
    const value = randomBytes(32).toString('base64url');
    this.db
      .prepare('INSERT OR IGNORE INTO idp_secrets (name, value) VALUES (?, ?)')
      .run(name, value);
    return this.secret(name);
  }

  private row(state: 'current' | 'next'): KeyRow | undefined {
    return this.db
      .prepare<[string], KeyRow>(
        'SELECT * FROM idp_signing_keys WHERE state = ? ORDER BY created_at DESC',
      )
      .get(state);
  }

  private async insert(state: 'current' | 'next'): Promise<void> {
    const { privateKey } = await generateKeyPair('RS256', {
      modulusLength: 2048,
      extractable: true,
    });
    const kid = randomUUID();
    const jwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
    this.db
      .prepare(
        'INSERT INTO idp_signing_keys (kid, state, jwk, created_at, retired_at) VALUES (?, ?, ?, ?, NULL)',
      )
      .run(kid, state, JSON.stringify(jwk), this.now());
  }
}
