import { ErrorView, supportUrlOf } from '../shell/ErrorView';
import type { PageProps } from './page-props';

/**
 * §2 Error page as a hydrated page, for errors the server caught: the correlation id is known, so no
 * spinner; try again loads the failed address again.
 */
export function ErrorShellPage({ data, t }: PageProps) {
  const props = data.props ?? {};
  const text = (key: string) => (typeof props[key] === 'string' ? props[key] : undefined);
  const code = text('code');
  const message = text('message');
  const correlationId = text('correlationId');
  return (
    <ErrorView
      t={t}
      supportUrl={supportUrlOf(data.services.grading)}
      {...(correlationId ? { correlationId } : {})}
      {...(code ? { code } : {})}
      {...(message ? { message } : {})}
      retry={{ href: text('retryHref') ?? '/' }}
    />
  );
}
