import type { Translate } from '../../src/shared/translate';
import { JourneyFrame } from '../JourneyFrame';
import type { PageFrameData } from '../shell/shell-data';

/** One message of the built-in outbox, as the page shows it. */
export interface OutboxRow {
  /** ISO 8601, UTC. */
  readonly sentAt: string;
  readonly channel: string;
  readonly to: string;
  readonly purpose: string;
  readonly subject: string;
  readonly text: string;
}

export interface OutboxPageProps {
  readonly t: Translate;
  readonly frame: PageFrameData;
  readonly rows: readonly OutboxRow[];
}

/**
 * The embedded IdP's outbox (docs/embedded-idp.md "Outbox"): the email and SMS it would have sent,
 * newest first. A developer's tool, often the first page a newcomer opens, so it wears the
 * product's frame and wide card; its words are English, as the documentation that sends people
 * here.
 */
export function OutboxPage({ t, frame, rows }: OutboxPageProps) {
  return (
    <JourneyFrame frame={frame} t={t} wide>
      <h1>Outbox</h1>
      <p className="intro">
        Email and SMS the embedded identity provider would have sent, newest first. Local and dev
        only: readable from this machine alone.
      </p>
      {rows.length === 0 ? (
        <p className="notice">No message has been sent yet.</p>
      ) : (
        // A region of its own, focusable, so a keyboard can scroll a table wider than a phone.
        <div className="tool-table" role="region" aria-labelledby="outbox-caption" tabIndex={0}>
          <table>
            <caption id="outbox-caption">Messages ({rows.length})</caption>
            <thead>
              <tr>
                <th scope="col">Sent (UTC)</th>
                <th scope="col">Channel</th>
                <th scope="col">To</th>
                <th scope="col">Purpose</th>
                <th scope="col">Subject</th>
                <th scope="col">Text</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => (
                <tr key={index}>
                  <td className="tool-table__time">
                    <time dateTime={row.sentAt}>{row.sentAt.replace('T', ' ').slice(0, 19)}</time>
                  </td>
                  <td>{row.channel}</td>
                  <td>{row.to}</td>
                  <td>{row.purpose}</td>
                  <td>{row.subject}</td>
                  <td className="tool-table__text">{row.text}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </JourneyFrame>
  );
}
