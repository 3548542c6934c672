import { createContext } from 'react';
import type { ToastApi } from './toasts/Toasts';

/**
 * What only the browser can do, offered to the views through context: the server renders with the
 * inert defaults below (no markup depends on them), and client/main.tsx provides the real ones.
 */
export interface ShellServices {
  /** Opens the consent manager's preference dialog (§2 Footer). */
  readonly openConsent: () => void;
  /** Reports a render error through log.clientError and resolves to the correlation id (§8). */
  readonly reportError: (message: string, path: string) => Promise<string>;
  /** The browser's storage, for the §2 shell rule's promptMfaSignin flag and the nudge. */
  readonly storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** Replaces the page (the §2 redirect to /signin). */
  readonly replaceLocation: (url: string) => void;
  /** The current full URL (§2: r). */
  readonly currentUrl: () => string;
  /** A cookie the browser may read (QTM_SID, QTM_UID). */
  readonly readCookie: (name: string) => string | undefined;
  /** Issue 7: ends one of the collector's sessions (account.endSession). */
  readonly endSession: (handle: string) => Promise<void>;
  /** Issue 7: ends every other session of the collector (account.endOtherSessions). */
  readonly endOtherSessions: () => Promise<number>;
  /** Goes to an address of this site (e.g. the sign-out route after 'sign out everywhere'). */
  readonly assignLocation: (url: string) => void;
  /**
   * Receives the page's toast queue once it exists, so code outside the component tree (the API
   * client's failures, §8 network messages) can show toasts.
   */
  readonly connectToasts?: (toasts: Pick<ToastApi, 'show' | 'dismiss'>) => void;
}

export const SERVER_SHELL_SERVICES: ShellServices = {
  openConsent: () => undefined,
  reportError: () => Promise.reject(new Error('errors are reported from the browser')),
  replaceLocation: () => undefined,
  assignLocation: () => undefined,
  endSession: () => Promise.reject(new Error('sessions are ended from the browser')),
  endOtherSessions: () => Promise.reject(new Error('sessions are ended from the browser')),
  currentUrl: () => '',
  readCookie: () => undefined,
};

export const ShellServicesContext = createContext<ShellServices>(SERVER_SHELL_SERVICES);
