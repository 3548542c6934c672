import { DEFAULT_BRAND } from '../../src/shared/brand';
import { DEFAULT_LOCALE } from '../../src/shared/locale';
import { sameOriginPath, servicePath } from '../../src/shared/routes';
import { type ErrorViewAction, ErrorView, supportUrlOf } from '../shell/ErrorView';
import type { ShellData } from '../shell/shell-data';
import type { PageProps } from './page-props';

/**
 * Errors that can pass on their own: our side or a service behind it was down or slow, or a rate
 * limit. Loading the same address again is then the right thing to offer. A page rendered without a
 * code (a render error of ours) counts as one too.
 */
const PASSING_ERRORS: ReadonlySet<string> = new Set([
  'InternalServerError',
  'ServiceUnavailable',
  'BadGateway',
  'GatewayTimeout',
  'RequestTimeout',
  'OktaError',
]);

/**
 * A rate limit (ours, or the IdP's): trying again before the wait is over fails at once, and so
 * would "Start over" at the sign-in (limited too). The page says how long to wait and offers no
 * button.
 */
export const RATE_LIMIT_ERRORS: ReadonlySet<string> = new Set([
  'TooManyRequests',
  'IdpRateLimited',
]);

/**
 * The error page's one way on (issue 33). §2 asks for a try-again button, and it must lead somewhere
 * that can work:
 * - the start of the failed journey when the server named one (a single-use landing's state), or
 *   the same address when what failed can pass (PASSING_ERRORS): "Try again";
 * - nothing for a rate limit (RATE_LIMIT_ERRORS): the message says how long to wait;
 * - otherwise the address fails the same way every time (an unknown brand in the link, a page that
 *   does not exist, a bad query), and reloading it is a dead end. A collector then expects a way back
 *   into the product: "Start over" at the sign-in of the brand this page wears, in its language,
 *   which takes a signed-in collector straight on to that brand (or to /collection) and shows anyone
 *   else the sign-in page (§2, §4).
 */
export function errorPageAction(data: ShellData): ErrorViewAction | undefined {
  const props = data.props ?? {};
  const retry = typeof props.retryHref === 'string' ? props.retryHref : undefined;
  const code = typeof props.code === 'string' ? props.code : undefined;
  if (code !== undefined && RATE_LIMIT_ERRORS.has(code)) return undefined;
  const sameAddress = retry === sameOriginPath(data.currentPath);
  if (retry && (!sameAddress || code === undefined || PASSING_ERRORS.has(code)))
    return { href: retry, label: 'tryAgain' };
  return {
    href: servicePath('signin', {
      b: data.brand !== DEFAULT_BRAND ? data.brand : undefined,
      lang: data.locale !== DEFAULT_LOCALE ? data.locale : undefined,
    }),
    label: 'startOver',
  };
}

/**
 * §2 Error page as a hydrated page, for errors the server caught: the correlation id is known, so no
 * spinner.
 */
export function ErrorShellPage({ data, t }: PageProps) {
  const props = data.props ?? {};
  const text = (key: string) => (typeof props[key] === 'string' ? props[key] : undefined);
  const code = text('code');
  const message = text('message');
  const correlationId = text('correlationId');
  const retry = errorPageAction(data);
  return (
    <ErrorView
      t={t}
      supportUrl={supportUrlOf(data.services.grading)}
      {...(correlationId ? { correlationId } : {})}
      {...(code ? { code } : {})}
      {...(message ? { message } : {})}
      {...(retry ? { retry } : {})}
    />
  );
}
