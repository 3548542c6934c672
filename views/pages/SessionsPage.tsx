import { useContext, useEffect, useState } from 'react';
import type { Locale } from '../../src/shared/locale';
import type { SessionSummary } from '../../src/shared/session-summary';
import { ShellServicesContext } from '../shell/shell-services';
import { useToasts } from '../shell/toasts/Toasts';
import { FAILURE_TOAST_ID } from '../shell/toasts/toast-queue';
import type { Translate } from '../../src/shared/translate';
import { Button } from '../ui/Button';
import type { PageProps } from './page-props';
import { signOutHref } from '../shell/header/header-nav';
import { sessionTimeText } from './session-time';

/**
 * A row as the page shows it. The server formats the dates in UTC (it cannot know the collector's
 * zone), so that hydration renders the same text; the browser then shows them in its own zone.
 */
export interface SessionRow extends SessionSummary {
  readonly lastUsedText: string;
  readonly createdText: string;
  readonly brandName: string;
}

function deviceText(row: SessionRow, t: Translate): string {
  const { browser, os } = row.device;
  if (browser && os) return t('common.sessions.deviceName', { browser, os });
  return browser ?? os ?? t('common.sessions.unknownDevice');
}

/**
 * Issue 33: a session's time in the collector's own time zone. The first render (the server's, and
 * hydration's) shows the server's UTC text, so hydration matches; after it, the browser's zone
 * replaces it. Without JavaScript the UTC text stays, and says that it is UTC.
 */
function SessionTime({
  iso,
  serverText,
  locale,
}: {
  readonly iso: string;
  readonly serverText: string;
  readonly locale: Locale;
}) {
  const [text, setText] = useState(serverText);
  useEffect(() => {
    setText(sessionTimeText(iso, locale));
  }, [iso, locale]);
  return <time dateTime={iso}>{text}</time>;
}

/**
 * Issue 7: the collector's active sessions (site, device, last use) with 'sign out this session' and
 * 'sign out everywhere'. Ending this session goes through the usual sign-out (cookies, IdP session).
 */
export function SessionsPage({ data, t }: PageProps) {
  const services = useContext(ShellServicesContext);
  const toasts = useToasts();
  const initial = (data.props?.sessions ?? []) as readonly SessionRow[];
  const [rows, setRows] = useState<readonly SessionRow[]>(initial);
  const [busy, setBusy] = useState(false);
  const signOut = signOutHref(data.brand, data.locale);
  const { locale } = data;
  // Issue 33: "Sign out everywhere" only when there is somewhere else to sign out of.
  const others = rows.filter((row) => !row.current).length;

  const endOne = async (row: SessionRow) => {
    if (row.current) {
      services.assignLocation(signOut);
      return;
    }
    setBusy(true);
    try {
      await services.endSession(row.handle);
      setRows((current) => current.filter((r) => r.handle !== row.handle));
      toasts.show({ variant: 'success', message: t('common.sessions.signedOutOne') });
    } catch {
      toasts.show({
        id: FAILURE_TOAST_ID,
        variant: 'danger',
        message: t('common.sessions.failed'),
      });
    } finally {
      setBusy(false);
    }
  };

  const endEverywhere = async () => {
    setBusy(true);
    try {
      await services.endOtherSessions();
      services.assignLocation(signOut);
    } catch {
      toasts.show({
        id: FAILURE_TOAST_ID,
        variant: 'danger',
        message: t('common.sessions.failed'),
      });
      setBusy(false);
    }
  };

  return (
    <section className="sessions-page" aria-labelledby="sessions-title">
      <h1 id="sessions-title">{t('common.sessions.title')}</h1>
      <p>{t('common.sessions.intro')}</p>
      <ul className="session-list" aria-label={t('common.sessions.listLabel')}>
        {rows.map((row) => (
          <li key={row.handle} className="session-item" data-session={row.handle}>
            <dl className="session-facts">
              <div>
                <dt>{t('common.sessions.brand')}</dt>
                <dd>{row.brandName}</dd>
              </div>
              <div>
                <dt>{t('common.sessions.device')}</dt>
                <dd>{deviceText(row, t)}</dd>
              </div>
              <div>
                <dt>{t('common.sessions.lastUsed')}</dt>
                <dd>
                  <SessionTime iso={row.lastUsedAt} serverText={row.lastUsedText} locale={locale} />
                </dd>
              </div>
              <div>
                <dt>{t('common.sessions.started')}</dt>
                <dd>
                  <SessionTime iso={row.createdAt} serverText={row.createdText} locale={locale} />
                </dd>
              </div>
            </dl>
            {/* Always a cell, empty on other rows, so every row's columns line up (issue 16 item 5). */}
            {row.current ? (
              <p className="session-status session-current">{t('common.sessions.thisDevice')}</p>
            ) : (
              <p className="session-status" aria-hidden="true" />
            )}
            <Button
              size="sm"
              variant="secondary"
              destructive
              className="session-action"
              disabled={busy}
              onClick={() => void endOne(row)}
            >
              {t('common.sessions.signOutThis')}
            </Button>
          </li>
        ))}
      </ul>
      {others === 0 ? (
        <p className="sessions-none">{t('common.sessions.noOthers')}</p>
      ) : (
        <div className="sessions-actions">
          <Button destructive disabled={busy} onClick={() => void endEverywhere()}>
            {t('common.sessions.signOutEverywhere')}
          </Button>
        </div>
      )}
    </section>
  );
}
