import type { QueryClient } from '@tanstack/react-query';
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

/** Where code outside the components sends toasts; queued until the page's queue connects. */
export function createToastOutlet() {
  let sink: Pick<ToastApi, 'show' | 'dismiss'> | undefined;
  const waiting: ToastInput[] = [];
  return {
    connect(toasts: Pick<ToastApi, 'show' | 'dismiss'>) {
      sink = toasts;
      for (const toast of waiting.splice(0)) sink.show(toast);
    },
    show(toast: ToastInput) {
      if (sink) sink.show(toast);
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
    connectToasts: (queue) => toasts.connect(queue),
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
