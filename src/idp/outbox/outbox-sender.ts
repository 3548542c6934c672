import Database from 'better-sqlite3';
import { SqliteStore } from '../../common/sqlite-store';
import { MessageSender, OutgoingMessage } from './message-sender';

export interface StoredMessage extends OutgoingMessage {
  readonly id: number;
  readonly createdAt: number;
}

/** The most messages list() returns at once, whatever is asked. */
export const MAX_OUTBOX_PAGE = 500;

interface MessageRow {
  id: number;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  text: string;
  purpose: string;
  locale: string;
  created_at: number;
}

function toMessage(row: MessageRow): StoredMessage {
  return {
    id: row.id,
    channel: row.channel,
    to: row.recipient,
    ...(row.subject === null ? {} : { subject: row.subject }),
    text: row.text,
    purpose: row.purpose,
    locale: row.locale,
    createdAt: row.created_at,
  };
}

const COLUMNS = 'id, channel, recipient, subject, text, purpose, locale, created_at';

/**
 * The built-in MessageSender for local, dev and tests: every email and SMS is kept in the caller's
 * SQLite database instead of being delivered, so a developer (or a test) can read the code that was
 * "sent". The texts hold live codes: this must never be the sender in qa or prod, where a real
 * provider implements MessageSender.
 */
export class OutboxSender extends SqliteStore implements MessageSender {
  constructor(db: Database.Database, now: () => number = Date.now) {
    super(db, now);
  }

  migrate(): void {
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS outbox_messages (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         channel TEXT NOT NULL,
         recipient TEXT NOT NULL,
         subject TEXT,
         text TEXT NOT NULL,
         purpose TEXT NOT NULL,
         locale TEXT NOT NULL,
         created_at INTEGER NOT NULL
       );
       CREATE INDEX IF NOT EXISTS outbox_messages_recipient ON outbox_messages (recipient, id);`,
    );
  }

  send(message: OutgoingMessage): Promise<void> {
    return this.run(() => {
      this.statement(
        `INSERT INTO outbox_messages (channel, recipient, subject, text, purpose, locale, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        message.channel,
        message.to,
        message.subject ?? null,
        message.text,
        message.purpose,
        message.locale,
        this.now(),
      );
    });
  }

  /** Newest first; to one recipient when `to` is given. `limit` is clamped to 1..MAX_OUTBOX_PAGE. */
  list(options: { to?: string; limit?: number } = {}): Promise<StoredMessage[]> {
    const requested = Math.trunc(options.limit ?? 50);
    const limit = Number.isFinite(requested)
      ? Math.min(Math.max(requested, 1), MAX_OUTBOX_PAGE)
      : 50;
    return this.run(() => {
      const rows =
        options.to === undefined
          ? this.statement(`SELECT ${COLUMNS} FROM outbox_messages ORDER BY id DESC LIMIT ?`).all(
              limit,
            )
          : this.statement(
              `SELECT ${COLUMNS} FROM outbox_messages WHERE recipient = ? ORDER BY id DESC LIMIT ?`,
            ).all(options.to, limit);
      return (rows as MessageRow[]).map(toMessage);
    });
  }

  /** The last message to `to` (for one purpose, when given): what a test reads the code from. */
  latest(to: string, purpose?: string): Promise<StoredMessage | undefined> {
    return this.run(() => {
      const row =
        purpose === undefined
          ? this.statement(
              `SELECT ${COLUMNS} FROM outbox_messages WHERE recipient = ? ORDER BY id DESC LIMIT 1`,
            ).get(to)
          : this.statement(
              `SELECT ${COLUMNS} FROM outbox_messages WHERE recipient = ? AND purpose = ?
               ORDER BY id DESC LIMIT 1`,
            ).get(to, purpose);
      return row === undefined ? undefined : toMessage(row as MessageRow);
    });
  }
}
