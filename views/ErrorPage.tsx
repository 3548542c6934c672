import type { Translate } from './translate';

export interface ErrorPageProps {
  readonly t: Translate;
  /** What went wrong, in the collector's language (may be more specific than the sub-header). */
  readonly message?: string;
  readonly correlationId: string;
  /** The error code (e.g. §8's BrandLoginFailed), for the collector to quote to support. */
  readonly code?: string;
  /** §2: the support link is on the grading brand's base address. */
  readonly supportUrl: string;
  /** Where "try again" leads; the same page for a GET. */
  readonly retryHref: string;
  readonly logo: { readonly src: string; readonly alt: string };
}

/** §2 Error page: header, sub-header with the support link, try again, and the correlation id. */
export function ErrorPage({
  t,
  message,
  correlationId,
  code,
  supportUrl,
  retryHref,
  logo,
}: ErrorPageProps) {
  return (
    <>
      <header className="simple-header">
        <img src={logo.src} alt={logo.alt} height={40} />
      </header>
      <main id="main" className="signin-card error-page">
        <h1>{t('common.errorPage.header')}</h1>
        {message ? <p role="alert">{message}</p> : null}
        <p>
          {t('common.errorPage.subHeader')}{' '}
          <a href={supportUrl}>{t('common.errorPage.supportLink')}</a>
        </p>
        {code ? <p className="error-code">{t('common.errorPage.code', { code })}</p> : null}
        <p className="correlation-id">
          {t('common.errorPage.correlationId', { id: correlationId })}
        </p>
        <div className="actions">
          <a className="button primary" href={retryHref}>
            {t('common.errorPage.tryAgain')}
          </a>
        </div>
      </main>
    </>
  );
}
