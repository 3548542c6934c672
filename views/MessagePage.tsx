import type { Translate } from '../src/shared/translate';
import { JourneyFrame } from './JourneyFrame';
import type { PageFrameData } from './shell/shell-data';

/**
 * The page's one way on: a link, or a form this service's own route takes by POST (a step that
 * changes something, such as a sign-out the collector confirms: docs/security.md, sign-out CSRF),
 * with its hidden fields.
 */
export type MessageAction =
  | { readonly href: string; readonly label: string }
  | {
      readonly post: string;
      readonly fields: Readonly<Record<string, string>>;
      readonly label: string;
    };

export interface MessagePageProps {
  readonly t: Translate;
  /** The brand's logo, locale and footer links (JourneyFrame). */
  readonly frame: PageFrameData;
  readonly title: string;
  readonly message: string;
  /** The one way on; none when there is nowhere to send the collector (an expired sign-in). */
  readonly action?: MessageAction;
  /** A second, quieter way on, as a link under the button. */
  readonly secondary?: { readonly href: string; readonly label: string };
  /** role="alert" for something that went wrong, plain text otherwise. */
  readonly alert: boolean;
}

/**
 * A page that says what happened and offers one way on (unauthorized landing, signed out, a sign-out
 * from another site to confirm).
 */
export function MessagePage({
  t,
  frame,
  title,
  message,
  action,
  secondary,
  alert,
}: MessagePageProps) {
  return (
    <JourneyFrame frame={frame} t={t}>
      <h1>{title}</h1>
      <p {...(alert ? { role: 'alert' } : {})}>{message}</p>
      {action && 'post' in action ? (
        <form className="actions" method="post" action={action.post}>
          {Object.entries(action.fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button className="button primary" type="submit">
            {action.label}
          </button>
        </form>
      ) : action ? (
        <div className="actions">
          {/* A link drawn as the sign-in steps' primary <button> (message-action in signin.css). */}
          <a className="button primary message-action" href={action.href}>
            {action.label}
          </a>
        </div>
      ) : null}
      {secondary ? (
        <p>
          <a href={secondary.href}>{secondary.label}</a>
        </p>
      ) : null}
    </JourneyFrame>
  );
}
