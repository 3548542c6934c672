import type { Translate } from '../src/shared/translate';

export interface MessagePageProps {
  readonly t: Translate;
  readonly title: string;
  readonly message: string;
  readonly action: { readonly href: string; readonly label: string };
  readonly logo: { readonly src: string; readonly alt: string };
  /** role="alert" for something that went wrong, plain text otherwise. */
  readonly alert: boolean;
}

/** A page that says what happened and offers one way on (unauthorized landing, signed out). */
export function MessagePage({ t, title, message, action, logo, alert }: MessagePageProps) {
  return (
    <>
      <a className="skip-link" href="#main">
        {t('header.a11y.skipToMain')}
      </a>
      <header className="simple-header">
        <img src={logo.src} alt={logo.alt} height={40} />
      </header>
      <main id="main" className="signin-card" tabIndex={-1}>
        <h1>{title}</h1>
        <p {...(alert ? { role: 'alert' } : {})}>{message}</p>
        <div className="actions">
          <a className="button primary" href={action.href}>
            {action.label}
          </a>
        </div>
      </main>
    </>
  );
}
