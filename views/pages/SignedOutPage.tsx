import { Button } from '../ui/Button';
import type { PageProps } from './page-props';

/**
 * What /handlelogoutredirect tells the browser (issue 14 item 8, §4 Sign-out steps 3-5): where to go
 * on to, and whether a sign-out of ours led here. The browser clears this product's storage keys,
 * records the Logout event when `signedOut`, then replaces the page with `target`
 * (client/shell/signout.ts).
 */
export interface SignedOutProps {
  /** The validated return URL or the brand's sign-in page; the server built it (never the query). */
  readonly target: string;
  readonly signedOut: boolean;
  readonly collectorsId?: number;
}

export function signedOutProps(
  props: Readonly<Record<string, unknown>> | undefined,
): SignedOutProps {
  const target = typeof props?.target === 'string' ? props.target : '/signin';
  return {
    target,
    signedOut: props?.signedOut === true,
    ...(typeof props?.collectorsId === 'number' ? { collectorsId: props.collectorsId } : {}),
  };
}

/**
 * The logout landing, in the collector's language and the brand's look. It shows only for a moment
 * while the browser finishes the sign-out; without JavaScript, 'continue' goes on by hand. A centred
 * card like the other message pages (issue 33).
 */
export function SignedOutPage({ data, t }: PageProps) {
  const { target } = signedOutProps(data.props);
  return (
    <section className="signed-out" aria-labelledby="signed-out-title">
      <h1 id="signed-out-title">{t('common.signedOut.title')}</h1>
      <p>{t('common.signedOut.body')}</p>
      <div className="signed-out-actions">
        <Button href={target}>{t('common.signedOut.continue')}</Button>
      </div>
    </section>
  );
}
