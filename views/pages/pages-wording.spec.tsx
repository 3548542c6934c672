import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { LOCALES, type Locale } from '../../src/shared/locale';
import { createTranslate, type Translate } from '../../src/shared/translate';
import { shellData } from '../../test/fixtures/header.fixtures';
import { MessagePage } from '../MessagePage';
import { TokenSigninPage } from '../TokenSigninPage';
import type { ShellData } from '../shell/shell-data';
import { ToastProvider } from '../shell/toasts/Toasts';
import { CollectionPage } from './CollectionPage';
import { ErrorShellPage } from './ErrorShellPage';
import type { SessionRow } from './SessionsPage';
import { SessionsPage } from './SessionsPage';
import { SignedOutPage } from './SignedOutPage';

/** The locale files (views/ reads nothing of src/config: the dependency rules). */
const LOCALES_DIR = path.join(__dirname, '..', '..', 'locales');

const load = (locale: Locale, namespace: string): Record<string, unknown> =>
  JSON.parse(
    fs.readFileSync(path.join(LOCALES_DIR, locale, `${namespace}.json`), 'utf8'),
  ) as Record<string, unknown>;

const messagesOf = (locale: Locale) => ({
  common: load(locale, 'common'),
  header: load(locale, 'header'),
  footer: load(locale, 'footer'),
});

const row = (handle: string, current: boolean, device: SessionRow['device']): SessionRow => ({
  handle,
  brand: 'psa',
  brandName: 'PSA',
  device,
  current,
  createdAt: '2026-11-27T16:51:00.000Z',
  lastUsedAt: '2026-11-27T17:00:00.000Z',
  createdText: 'Nov 27, 4:51 PM UTC',
  lastUsedText: 'Nov 27, 5:00 PM UTC',
});

/** The visible text of the markup (tags out, entities of quotes back). */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"');

/** Every page of the shell's content this file's subject covers, rendered in one locale. */
function pages(locale: Locale): [string, string][] {
  const messages = messagesOf(locale);
  const t: Translate = createTranslate(messages);
  const data = (page: string, props: Record<string, unknown>): ShellData =>
    shellData({ locale, messages, page, props });
  const render = (element: ReactElement) => textOf(renderToString(element));
  const frame = shellData({ locale });
  return [
    [
      '/collection',
      render(
        <CollectionPage
          t={t}
          data={data('collection', {
            account: { name: 'Casey', email: 'c@example.com', collectorsId: 7, factors: ['sms'] },
            sessionCount: 1,
            continueTo: [{ brand: 'pcgs', name: 'PCGS', href: '/signin?b=pcgs' }],
          })}
        />,
      ),
    ],
    [
      '/account/sessions',
      render(
        <ToastProvider>
          <SessionsPage
            t={t}
            data={data('sessions', {
              sessions: [row('a', true, { browser: 'Chrome', os: 'macOS' }), row('b', false, {})],
            })}
          />
        </ToastProvider>,
      ),
    ],
    [
      'the error page',
      render(
        <ErrorShellPage
          t={t}
          data={data('error', {
            code: 'NotFound',
            message: t('common.errors.NotFound'),
            correlationId: 'abc',
            retryHref: '/collection',
          })}
        />,
      ),
    ],
    ['/handlelogoutredirect', render(<SignedOutPage t={t} data={data('signedOut', {})} />)],
    ...(['Unauthorized', 'GoldinInvalidOktaSession'] as const).map((error): [string, string] => [
      `/unauthredirect?error=${error}`,
      render(
        <MessagePage
          t={t}
          frame={frame}
          title={t('common.unauth.title')}
          message={t(`common.unauth.${error}`)}
          action={{ href: '/signin', label: t('common.unauth.signInAgain') }}
          alert
        />,
      ),
    ]),
    [
      '/signin/continue',
      render(
        <TokenSigninPage
          t={t}
          frame={frame}
          account={{ login: 'c@example.com', collectorsId: 100001 }}
          form={{ action: '/signin/continue', offerKey: 'k', csrf: 'csrf' }}
        />,
      ),
    ],
    [
      '/signin/continue (a login that is not an address, with an invisible character)',
      render(
        <TokenSigninPage
          t={t}
          frame={frame}
          account={{ login: 'collector\u200b', spelledOut: 'collector[U+200B]' }}
          form={{ action: '/signin/continue', offerKey: 'k', csrf: 'csrf' }}
        />,
      ),
    ],
    [
      '/logout/collectorsid (asked from another site)',
      render(
        <MessagePage
          t={t}
          frame={frame}
          title={t('common.signoutConfirm.title')}
          message={t('common.signoutConfirm.body')}
          action={{
            post: '/logout/collectorsid?b=psa',
            fields: { csrf: 'token' },
            label: t('common.signoutConfirm.signOut'),
          }}
          secondary={{ href: '/collection', label: t('common.signoutConfirm.stay') }}
          alert={false}
        />,
      ),
    ],
  ];
}

/**
 * Issue 33, the words of the shell's content pages: no `{placeholder}` or message key left on any of
 * them in any locale, and one term per concept (ja-JP signs in and out with サインイン/サインアウト,
 * never ログイン/ログアウト; fr-CA with se connecter/se déconnecter, never "ouvrir une session").
 */
describe.each(LOCALES)('the shell pages in %s', (locale) => {
  it.each(pages(locale))('%s: no placeholder or message key', (_page, text) => {
    expect(text).not.toMatch(/\{\w+\}/);
    expect(text).not.toMatch(/\b(common|header|footer)\.[a-zA-Z]+\./);
  });

  if (locale === 'ja-JP') {
    it.each(pages(locale))('%s: サインイン/サインアウト only', (_page, text) => {
      expect(text).not.toMatch(/ログイン|ログアウト|ログオフ/);
    });
  }
  if (locale === 'fr-CA') {
    it.each(pages(locale))('%s: se connecter / se déconnecter only', (_page, text) => {
      expect(text).not.toMatch(/ouvrir une session|fermer la session|ouverture de session/i);
    });
  }
});
