import type Database from 'better-sqlite3';

/**
 * What every SQLite-backed store of the embedded IdP shares: statements prepared once on first use
 * (after migrate() created their tables), an injectable clock, and promises for a synchronous driver
 * so that callers never see a throw where they await.
 */
export abstract class SqliteStore {
  private readonly statements = new Map<string, Database.Statement>();

  protected constructor(
    protected readonly db: Database.Database,
    protected readonly now: () => number = Date.now,
  ) {}

  protected statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Turns synchronous driver errors and refusals into rejected promises. */
  protected run<T>(work: () => T): Promise<T> {
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
