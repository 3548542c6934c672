/** One email or SMS the identity provider sends (codes for §4 VerifyEmailCode, VerifyFactor, ...). */
export interface OutgoingMessage {
  readonly channel: 'email' | 'sms';
  /** An email address or an E.164 phone number. */
  readonly to: string;
  /** Email only. */
  readonly subject?: string;
  readonly text: string;
  /** Why it was sent (a CodePurpose, usually), so tests and the dev outbox can find it. */
  readonly purpose: string;
  /** §1 locale the text was written in. */
  readonly locale: string;
}

/**
 * Where outgoing messages go. The built-in OutboxSender keeps them in SQLite for local, dev and
 * tests; a real email or SMS provider implements this interface in its own adapter.
 */
export interface MessageSender {
  send(message: OutgoingMessage): Promise<void>;
}

/** Nest injection token for the MessageSender in use. */
export const MESSAGE_SENDER = Symbol('MESSAGE_SENDER');
