import { Button } from '../ui/Button';
import { Spinner } from '../ui/Spinner';
import type { Translate } from '../../src/shared/translate';

/** The error page's one way on: a reset of the error state (client) or a link (server). */
export type ErrorViewAction =
  | { readonly onRetry: () => void }
  | {
      readonly href: string;
      /** The button's words: try again, or start over when the address itself cannot work. */
      readonly label: 'tryAgain' | 'startOver';
    };

export interface ErrorViewProps {
  readonly t: Translate;
  /** Absent while it is being fetched: a spinner shows instead (§2 Error page). */
  readonly correlationId?: string;
  /** The error code (e.g. §8's BrandLoginFailed), for the collector to quote to support. */
  readonly code?: string;
  /** What went wrong, when more specific than the sub-header. */
  readonly message?: string;
  /** §2: {grading base}/support. */
  readonly supportUrl: string;
  /**
   * The way on; none for a rate limit, whose message says how long to wait: a button would fail at
   * once, and "Please try again" would be a second instruction.
   */
  readonly retry?: ErrorViewAction;
}

/**
 * §2 Error page: header, sub-header with the support link, the way on, the correlation id. A centred
 * card like the journey's message pages (/unauthredirect), so that an error reads as one more step of
 * the same product (issue 33).
 */
export function ErrorView({ t, correlationId, code, message, supportUrl, retry }: ErrorViewProps) {
  return (
    <section className="error-view" aria-labelledby="error-view-title">
      <h1 id="error-view-title">{t('common.errorPage.header')}</h1>
      {message ? <p role="alert">{message}</p> : null}
      <p>
        <span>{t(retry ? 'common.errorPage.subHeader' : 'common.errorPage.subHeaderWait')}</span>{' '}
        <a href={supportUrl}>{t('common.errorPage.supportLink')}</a>
      </p>
      {code ? <p className="error-code">{t('common.errorPage.code', { code })}</p> : null}
      {correlationId ? (
        <ReferenceLine
          className="correlation-id"
          text={t('common.errorPage.correlationId', { id: REFERENCE_SLOT })}
          reference={correlationId}
        />
      ) : (
        <Spinner size="sm" t={t} />
      )}
      {retry ? (
        <div className="error-view-actions">
          {'href' in retry ? (
            <Button href={retry.href}>{t(`common.errorPage.${retry.label}`)}</Button>
          ) : (
            <Button onClick={retry.onRetry}>{t('common.errorPage.tryAgain')}</Button>
          )}
        </div>
      ) : null}
    </section>
  );
}

/** Stands for the id in the translated line, which is then split around it. */
const REFERENCE_SLOT = '\u0000';

/**
 * A line that quotes a reference, such as "Reference: {id}": the words as the locale orders them,
 * the id in a code element of its own that neither breaks nor needs a drag to select.
 */
export function ReferenceLine({
  className,
  text,
  reference,
}: {
  readonly className?: string;
  readonly text: string;
  readonly reference: string;
}) {
  const at = text.indexOf(REFERENCE_SLOT);
  const before = at < 0 ? text : text.slice(0, at);
  const after = at < 0 ? '' : text.slice(at + REFERENCE_SLOT.length);
  return (
    <p className={className}>
      {before ? <span>{before}</span> : null}
      <code className="reference-id">{reference}</code>
      {after ? <span>{after}</span> : null}
    </p>
  );
}

/** §2: the support link is on the grading brand's base address. */
export function supportUrlOf(gradingBase: string): string {
  return `${gradingBase.replace(/\/$/, '')}/support`;
}
