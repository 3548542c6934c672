import type { LandingData } from '../../src/shared/landing';
import { localizedPath } from '../../src/shared/routes';
import { signOutHref } from '../shell/header/header-nav';
import { Button } from '../ui/Button';
import type { PageProps } from './page-props';
import { countText } from './plural';

/** The page data's landing, or an empty one (a page rendered without it shows what it can). */
function landingOf(props: PageProps['data']['props']): LandingData {
  const landing = props as Partial<LandingData> | undefined;
  return {
    account: landing?.account ?? { factors: [] },
    sessionCount: typeof landing?.sessionCount === 'number' ? landing.sessionCount : 0,
    continueTo: Array.isArray(landing?.continueTo) ? landing.continueTo : [],
  };
}

/**
 * §2 /collection, the collector's account home (issue 16 item 4): who is signed in and their second
 * factors, their sessions, and the family's sites they can continue to, signed in, in their language.
 * It shows the account, not a collection, and its heading says so (issue 33).
 */
export function CollectionPage({ data, t }: PageProps) {
  const { account, sessionCount, continueTo } = landingOf(data.props);
  const collectorsId = account.collectorsId ?? data.account?.collectorsId;
  return (
    <section className="account-summary" aria-labelledby="account-summary-title">
      <h1 id="account-summary-title">{t('common.collection.title')}</h1>
      <p>{t('common.collection.summary', { collectorsId: String(collectorsId ?? '') })}</p>

      <section className="account-summary__block" aria-labelledby="account-title">
        <h2 id="account-title">{t('common.collection.account')}</h2>
        <dl className="account-summary__facts">
          {account.name ? (
            <div>
              <dt>{t('common.collection.name')}</dt>
              <dd>{account.name}</dd>
            </div>
          ) : null}
          {account.email ? (
            <div>
              <dt>{t('common.collection.email')}</dt>
              <dd>{account.email}</dd>
            </div>
          ) : null}
          {collectorsId !== undefined ? (
            <div>
              <dt>{t('common.collection.collectorNumber')}</dt>
              <dd>{String(collectorsId)}</dd>
            </div>
          ) : null}
        </dl>
      </section>

      <section className="account-summary__block" aria-labelledby="factors-title">
        <h2 id="factors-title">{t('common.collection.factorsTitle')}</h2>
        {account.factors.length > 0 ? (
          <ul className="account-summary__list">
            {account.factors.map((factor) => (
              <li key={factor}>{t(`common.collection.factorNames.${factor}`)}</li>
            ))}
          </ul>
        ) : (
          <p>{t('common.collection.noFactors')}</p>
        )}
      </section>

      <section className="account-summary__block" aria-labelledby="sessions-title">
        <h2 id="sessions-title">{t('common.collection.sessionsTitle')}</h2>
        <p>{countText(t, data.locale, 'common.collection.sessionCount', sessionCount)}</p>
        <div className="account-summary-actions">
          <Button href={localizedPath('sessions', data.locale)} variant="secondary">
            {t('common.sessions.manage')}
          </Button>
          <Button href={signOutHref(data.brand, data.locale)} variant="secondary">
            {t('common.collection.signOut')}
          </Button>
        </div>
      </section>

      {continueTo.length > 0 ? (
        <nav className="account-summary__block" aria-labelledby="continue-title">
          <h2 id="continue-title">{t('common.collection.continueTitle')}</h2>
          {/* Issue 33: link cards, not underlined text in grey boxes; the arrow says "go there". */}
          <ul className="account-summary__sites">
            {continueTo.map((link) => (
              <li key={link.brand}>
                <a
                  className="continue-card"
                  href={link.href}
                  aria-label={t('common.collection.continueLabel', { name: link.name })}
                >
                  <span className="continue-card__name">{link.name}</span>
                  {/* The stylesheet draws the arrow (pages.css says why). */}
                  <span className="continue-card__arrow" aria-hidden="true" />
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </section>
  );
}
