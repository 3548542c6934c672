import type Database from 'better-sqlite3';
import type { Adapter, AdapterPayload } from 'oidc-provider';

/**
 * oidc-provider's storage contract on SQLite (its default adapter is in-memory and loses every
 * session, grant and refresh token on restart). One table for every model; grant, uid and user-code
 * columns index the look-ups the provider makes. Expired rows are invisible and swept periodically.
 */
export class SqliteOidcStorage {
  private readonly statements;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number = Date.now,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS oidc_models (
        model TEXT NOT NULL,
        id TEXT NOT NULL,
        payload TEXT NOT NULL,
        grant_id TEXT,
        uid TEXT,
        user_code TEXT,
        expires_at INTEGER,
        PRIMARY KEY (model, id)
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS oidc_models_grant ON oidc_models (grant_id);
      CREATE INDEX IF NOT EXISTS oidc_models_uid ON oidc_models (model, uid);
      CREATE INDEX IF NOT EXISTS oidc_models_user_code ON oidc_models (model, user_code);
      CREATE INDEX IF NOT EXISTS oidc_models_expires ON oidc_models (expires_at);`);
    const live = '(expires_at IS NULL OR expires_at > ?)';
    this.statements = {
      upsert: db.prepare<
        [string, string, string, string | null, string | null, string | null, number | null]
      >(
        `INSERT INTO oidc_models (model, id, payload, grant_id, uid, user_code, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
           uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`,
      ),
      find: db.prepare<[string, string, number], { payload: string }>(
        `SELECT payload FROM oidc_models WHERE model = ? AND id = ? AND ${live}`,
      ),
      findByUid: db.prepare<[string, string, number], { payload: string }>(
        `SELECT payload FROM oidc_models WHERE model = ? AND uid = ? AND ${live}`,
      ),
      findByUserCode: db.prepare<[string, string, number], { payload: string }>(
        `SELECT payload FROM oidc_models WHERE model = ? AND user_code = ? AND ${live}`,
      ),
      consume: db.prepare<[number, string, string]>(
        `UPDATE oidc_models SET payload = json_set(payload, '$.consumed', ?) WHERE model = ? AND id = ?`,
      ),
      destroy: db.prepare<[string, string]>('DELETE FROM oidc_models WHERE model = ? AND id = ?'),
      revokeByGrantId: db.prepare<[string]>('DELETE FROM oidc_models WHERE grant_id = ?'),
      purge: db.prepare<[number]>(
        'DELETE FROM oidc_models WHERE expires_at IS NOT NULL AND expires_at <= ?',
      ),
    };
  }

  /** The adapter class oidc-provider instantiates once per model name. */
  adapterFor(model: string): Adapter {
    const s = this.statements;
    const now = this.now;
    const parse = (row: { payload: string } | undefined): AdapterPayload | undefined =>
      row ? (JSON.parse(row.payload) as AdapterPayload) : undefined;
    return {
      upsert(id, payload, expiresIn) {
        const expiresAt = typeof expiresIn === 'number' ? now() + expiresIn * 1000 : null;
        s.upsert.run(
          model,
          id,
          JSON.stringify(payload),
          payload.grantId ?? null,
          payload.uid ?? null,
          payload.userCode ?? null,
          expiresAt,
        );
        return Promise.resolve();
      },
      find: (id) => Promise.resolve(parse(s.find.get(model, id, now()))),
      findByUid: (uid) => Promise.resolve(parse(s.findByUid.get(model, uid, now()))),
      findByUserCode: (userCode) =>
        Promise.resolve(parse(s.findByUserCode.get(model, userCode, now()))),
      consume(id) {
        s.consume.run(Math.floor(now() / 1000), model, id);
        return Promise.resolve();
      },
      destroy(id) {
        s.destroy.run(model, id);
        return Promise.resolve();
      },
      revokeByGrantId(grantId) {
        s.revokeByGrantId.run(grantId);
        return Promise.resolve();
      },
    };
  }

  purgeExpired(): number {
    return this.statements.purge.run(this.now()).changes;
  }
}
