import { Button } from '../ui/Button';
import type { PageProps } from './page-props';
import { localizedPath } from '../../src/shared/routes';
import { signOutHref } from '../shell/header/header-nav';

/** §2 /collection: the signed-in collector's account summary. */
export function CollectionPage({ data, t }: PageProps) {
  const collectorsId = data.account?.collectorsId;
  return (
    <section className="account-summary" aria-labelledby="account-summary-title">
      <h1 id="account-summary-title">{t('common.collection.title')}</h1>
      <p>{t('common.collection.summary', { collectorsId: String(collectorsId ?? '') })}</p>
      <div className="account-summary-actions">
        <Button href={localizedPath('sessions', data.locale)} variant="secondary">
          {t('common.sessions.manage')}
        </Button>
        <Button href={signOutHref(data.brand, data.locale)} variant="secondary">
          {t('common.collection.signOut')}
        </Button>
      </div>
    </section>
  );
}
