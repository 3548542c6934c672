import type { Translate } from '../src/shared/translate';
import { JourneyFrame } from './JourneyFrame';
import type { PageFrameData } from './shell/shell-data';

export interface TokenSigninPageProps {
  readonly t: Translate;
  /** The brand's logo, locale and footer links (JourneyFrame). */
  readonly frame: PageFrameData;
  /**
   * The account the link would sign in: the name recorded when the token was handed over, the
   * whole login, spelled out when it holds characters that look like others, and the collector
   * number when known.
   */
  readonly account: {
    readonly name?: string;
    readonly login: string;
    readonly spelledOut?: string;
    readonly collectorsId?: number;
  };
  /** Where the form posts, the offer's key and the page's CSRF token (hidden fields). */
  readonly form: { readonly action: string; readonly offerKey: string; readonly csrf: string };
}

/**
 * The page a `t` from another site leads to (docs/security.md, login CSRF through `t`): it names
 * the account the link would sign this browser into and asks. docs/security.md, a look-alike
 * account: the collector's name and the whole address, in a box of its own above the buttons,
 * and the collector number when the token carries it, so that a look-alike account
 * (cx@example.com for collector@example.com) reads as what it is, and an address with characters
 * that only look like others is spelled out beneath it. docs/security.md, the offer key: both answers are posts of one form with the page's
 * CSRF token, never links: "Continue" signs in, "Not you?" ends the offer. Works without
 * JavaScript, as every journey page does.
 */
export function TokenSigninPage({ t, frame, account, form }: TokenSigninPageProps) {
  const isEmail = account.login.includes('@');
  return (
    <JourneyFrame frame={frame} t={t}>
      <h1>{t('common.tokenSignin.title')}</h1>
      <p className="intro">{t('common.tokenSignin.body')}</p>
      <dl className="token-account">
        {account.name !== undefined ? (
          <div>
            <dt>{t('common.tokenSignin.name')}</dt>
            <dd className="token-account__name">{account.name}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t(isEmail ? 'common.tokenSignin.email' : 'common.tokenSignin.login')}</dt>
          <dd className="token-account__login">{account.login}</dd>
        </div>
        {account.collectorsId !== undefined ? (
          <div>
            <dt>{t('common.tokenSignin.collectorNumber')}</dt>
            <dd>{account.collectorsId}</dd>
          </div>
        ) : null}
      </dl>
      {account.spelledOut !== undefined ? (
        <p className="notice token-account__unusual">
          {t('common.tokenSignin.unusual', { spelled: account.spelledOut })}
        </p>
      ) : null}
      <form method="post" action={form.action}>
        <input type="hidden" name="k" value={form.offerKey} />
        <input type="hidden" name="csrf" value={form.csrf} />
        <div className="actions">
          <button type="submit" name="action" value="continue" className="button primary">
            {t('common.tokenSignin.continue', { account: account.login })}
          </button>
          <button type="submit" name="action" value="decline" className="button link">
            {t('common.tokenSignin.decline')}
          </button>
        </div>
      </form>
    </JourneyFrame>
  );
}
