import type { QueryClient } from '@tanstack/react-query';
import type { Translate } from '../../src/shared/translate';
import type { ShellData } from '../../views/shell/shell-data';
import type { ShellServices } from '../../views/shell/shell-services';
import type { ToastApi } from '../../views/shell/toasts/Toasts';
import type { ToastInput } from '../../views/shell/toasts/toast-queue';
import type { ApiClient } from '../api/api-client';
import { QUERY_KEYS } from '../api/queries';
import { watchAuthMayHaveChanged } from './auth-recheck';

/** localStorage when the browser allows it (private modes and policies may refuse it). */
function safeStorage(): ShellServices['storage'] {
  try {
    const storage = window.localStorage;
    const probe = '__storage_probe__';
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return storage;
  } catch {
    return undefined;
  }
}

export function readDocumentCookie(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A toast, or one written once the page's translations are at hand. */
export type OutletToast = ToastInput | ((t: Translate) => ToastInput);

/**
 * Where code outside the components sends toasts; queued until the page's queue connects. Code
 * outside the tree has no translations, so it may pass a function of the page's `t`: a toast on a
 * French page is in French.
 */
export function createToastOutlet() {
  let sink: { queue: Pick<ToastApi, 'show' | 'dismiss'>; t: Translate } | undefined;
  const waiting: OutletToast[] = [];
  const showIn = (target: NonNullable<typeof sink>, toast: OutletToast) =>
    target.queue.show(typeof toast === 'function' ? toast(target.t) : toast);
  return {
    connect(queue: Pick<ToastApi, 'show' | 'dismiss'>, t: Translate) {
      const target = { queue, t };
      sink = target;
      for (const toast of waiting.splice(0)) showIn(target, toast);
    },
    show(toast: OutletToast) {
      if (sink) showIn(sink, toast);
      else waiting.push(toast);
    },
  };
}

export type ToastOutlet = ReturnType<typeof createToastOutlet>;

/** The ShellServices of a real browser page. */
export function browserShellServices(
  api: ApiClient,
  queryClient: QueryClient,
  data: ShellData,
  toasts: ToastOutlet,
): ShellServices {
  const storage = safeStorage();
  return {
    connectToasts: (queue, t) => toasts.connect(queue, t),
    openConsent: () => {
      // A chunk that fails to load (offline) leaves the page as it is; the next click tries again.
      import('../consent/consent')
        .then((consent) => consent.openConsentPreferences(data.locale))
        .catch(() => undefined);
    },
    reportError: async (message, path) => {
      const answer = await api.log.clientError.mutate({
        message: message.slice(0, 2000) || 'unknown error',
        path: path.slice(0, 2048) || '/',
      });
      return answer.correlationId;
    },
    // §2: a fresh answer (staleTime 0) that also replaces the one the server seeded the cache with;
    // concurrent re-checks share one request.
    accountStatus: () =>
      queryClient.fetchQuery({
        queryKey: QUERY_KEYS.accountStatus,
        queryFn: () => api.account.status.query(),
        staleTime: 0,
      }),
    onAuthMayHaveChanged: (listener) => watchAuthMayHaveChanged(window, listener),
    ...(storage ? { storage } : {}),
    replaceLocation: (url) => window.location.replace(url),
    assignLocation: (url) => window.location.assign(url),
    endSession: async (handle) => {
      await api.account.endSession.mutate({ handle });
    },
    endOtherSessions: async () => (await api.account.endOtherSessions.mutate()).ended,
    currentUrl: () => window.location.href,
    readCookie: (name) => readDocumentCookie(document.cookie, name),
  };
}
