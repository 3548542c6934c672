/**
 * The browser entry (docs/design.md "Browser"): hydrates the server-rendered page from the data the
 * server embedded, with the browser's services (API client, theme, consent, error reporting) in
 * context. Built by scripts/build-client.js, where React resolves to preact/compat.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { hydrateRoot } from 'react-dom/client';
import { PAGE_DATA_ID, ROOT_ID } from '../views/Document';
import { PageRoot } from '../views/pages/PageRoot';
import type { ShellData } from '../views/shell/shell-data';
import { ShellServicesContext } from '../views/shell/shell-services';
import { ThemeContext } from '../views/shell/theme-context';
import { createApiClient, UNAUTHORIZED_URL } from './api/api-client';
import { ApiContext, createQueryClient } from './api/queries';
import { networkMessageKey } from './api/network-fetch';
import { FAILURE_TOAST_ID } from '../views/shell/toasts/toast-queue';
import { createAnalytics } from './analytics';
import { consentGiven } from './consent/consent';
import { browserShellServices, createToastOutlet } from './shell/browser-services';
import { applyDeferredStyles } from './shell/deferred-styles';
import { finishSignOut } from './shell/signout';
import { signedOutProps } from '../views/pages/SignedOutPage';
import { useThemeControl } from './shell/theme';

function readPageData(): ShellData {
  const element = document.getElementById(PAGE_DATA_ID);
  if (!element?.textContent) throw new Error('page data missing');
  return JSON.parse(element.textContent) as ShellData;
}

const data = readPageData();
const api = createApiClient({
  locale: () => data.locale,
  onUnauthorized: () => window.location.assign(UNAUTHORIZED_URL),
  // §8: a call that never got an answer is surfaced with one of the three network messages, in the
  // page's language.
  onNetworkError: (message) =>
    toasts.show((t) => ({
      id: FAILURE_TOAST_ID,
      variant: 'danger',
      message: t(networkMessageKey(message)),
    })),
  fetch: (input, init) =>
    window.fetch(input, { ...init, cache: 'no-store', credentials: 'same-origin' }),
});
const toasts = createToastOutlet();
const queryClient = createQueryClient(data);
const services = browserShellServices(api, queryClient, data, toasts);

function App() {
  const theme = useThemeControl(data.theme, api);
  return (
    <QueryClientProvider client={queryClient}>
      <ApiContext.Provider value={api}>
        <ShellServicesContext.Provider value={services}>
          <ThemeContext.Provider value={theme}>
            <PageRoot data={data} />
          </ThemeContext.Provider>
        </ShellServicesContext.Provider>
      </ApiContext.Provider>
    </QueryClientProvider>
  );
}

applyDeferredStyles();
const root = document.getElementById(ROOT_ID);
if (root) hydrateRoot(root, <App />);

// §4 Sign-out steps 3-5 happen on the logout landing, which every sign-out passes (issue 14 item 8).
if (data.page === 'signedOut') {
  const analytics = createAnalytics({
    consented: () => consentGiven('analytics'),
    dataLayer: () => ((window as { dataLayer?: unknown[] }).dataLayer ??= []),
  });
  let session: Storage | undefined;
  try {
    session = window.sessionStorage;
  } catch {
    session = undefined;
  }
  finishSignOut(signedOutProps(data.props), data.brand, {
    storages: [services.storage, session],
    track: (event) => analytics.track(event),
    replaceLocation: (url) => window.location.replace(url),
  });
}
