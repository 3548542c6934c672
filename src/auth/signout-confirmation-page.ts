import type { MessageContent } from '../render/page-renderer';
import type { Brand } from '../shared/brand';
import type { Locale } from '../shared/locale';
import { ROUTES, type ServicePath } from '../shared/routes';
import type { Translate } from '../shared/translate';

/** The form field that carries the confirmation's token. */
export const CONFIRMATION_FIELD = 'csrf';

/**
 * What GET /logout/collectorsid answers when the sign-out does not evidently come from this service or
 * a brand (docs/security.md, sign-out CSRF, signout-request.ts): a page of this service, in the
 * sign-out's language and the brand's frame, that asks before anything ends. Its form posts the
 * same query back to the same route with a token bound to this browser; nothing ends until then.
 */
export interface SignoutConfirmationPage {
  readonly kind: 'confirm-signout';
  readonly brand: Brand;
  readonly locale: Locale;
  /** This route with the query the sign-out was asked with (minus `t`): where the form posts. */
  readonly action: ServicePath;
  /** One use, 10 minutes, bound to the browser's binding cookie (SignoutService.confirm). */
  readonly token: string;
  /** Staying signed in: the account page, in the collector's language. */
  readonly stay: ServicePath;
}

/** The page's words: what was asked, the button that signs out, and the way to stay. */
export function signoutConfirmationContent(
  page: SignoutConfirmationPage,
  t: Translate,
): MessageContent {
  return {
    title: t('common.signoutConfirm.title'),
    message: t('common.signoutConfirm.body'),
    action: {
      post: page.action,
      fields: { [CONFIRMATION_FIELD]: page.token },
      label: t('common.signoutConfirm.signOut'),
    },
    secondary: { href: page.stay, label: t('common.signoutConfirm.stay') },
    alert: false,
    currentPath: ROUTES.logout,
  };
}
