import type { Translate } from '../src/shared/translate';
import { JourneyFrame } from './JourneyFrame';
import type { PageFrameData } from './shell/shell-data';

export interface MessagePageProps {
  readonly t: Translate;
  /** The brand's logo, locale and footer links (JourneyFrame). */
  readonly frame: PageFrameData;
  readonly title: string;
  readonly message: string;
  /** The one way on; none when there is nowhere to send the collector (an expired sign-in). */
  readonly action?: { readonly href: string; readonly label: string };
  /** A second, quieter way on, as a link under the button. */
  readonly secondary?: { readonly href: string; readonly label: string };
  /** role="alert" for something that went wrong, plain text otherwise. */
  readonly alert: boolean;
}

/** A page that says what happened and offers one way on (unauthorized landing, signed out). */
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
      {action ? (
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
