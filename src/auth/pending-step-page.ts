import type { SafeRedirectUrl } from '../brand/redirect-policy';
import type { MessageContent } from '../render/page-renderer';
import type { Brand } from '../shared/brand';
import { DEFAULT_LOCALE, type Locale } from '../shared/locale';
import type { ShellPendingStep } from '../shared/pending-step';
import { ROUTES, type ServicePath, servicePath } from '../shared/routes';
import type { Translate } from '../shared/translate';

/**
 * What /signin answers when the collector's step is still pending after this service already sent
 * them to the IdP for it (issue 14 item 10): a page in their language and in their brand's frame that
 * says what is pending and what to do, instead of another trip that would end the same way. The
 * service never sends a collector to the IdP for the same pending reason twice in a row, whatever
 * the IdP (one that does not know `pending_step` answers such a trip without showing the step).
 */
export interface PendingStepPage {
  readonly kind: 'pending-step';
  readonly step: ShellPendingStep;
  readonly brand: Brand;
  readonly locale: Locale;
  /**
   * The way on: sign out, then back to where the collector was going, which starts a new sign-in;
   * an IdP shows pending steps after the password of a new sign-in (the embedded one does).
   */
  readonly signOutAndIn: ServicePath;
}

/** The text keys of each step under common.pendingStep (all four locales). */
const MESSAGE_KEYS: Readonly<Record<ShellPendingStep, string>> = {
  migrating: 'migrating',
  'setup-mfa': 'setupMfa',
  survey: 'survey',
};

export function pendingStepPage(
  step: ShellPendingStep,
  journey: { readonly brand: Brand; readonly locale: Locale; readonly r?: SafeRedirectUrl },
): PendingStepPage {
  return {
    kind: 'pending-step',
    step,
    brand: journey.brand,
    locale: journey.locale,
    // §4 Sign-out step 5: the logout landing carries this query back (r, b, lang).
    signOutAndIn: servicePath('logout', {
      b: journey.brand,
      r: journey.r,
      lang: journey.locale !== DEFAULT_LOCALE ? journey.locale : undefined,
    }),
  };
}

/** The page's words: what is pending, what to do, and the one way on. */
export function pendingStepContent(page: PendingStepPage, t: Translate): MessageContent {
  const key = MESSAGE_KEYS[page.step];
  return {
    title: t(`common.pendingStep.${key}.title`),
    message: `${t(`common.pendingStep.${key}.body`)} ${t('common.pendingStep.whatToDo')}`,
    action: { href: page.signOutAndIn, label: t('common.pendingStep.signOutAndIn') },
    alert: false,
    currentPath: ROUTES.signin,
  };
}
