import { createContext } from 'react';
import type { AuthUserState } from '../../src/shared/shell-guard';
import type { Translate } from '../../src/shared/translate';
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
  /** §7 account.status, asked afresh (not from the cache the server's answer seeded). */
  readonly accountStatus: () => Promise<AuthUserState>;
  /**
   * §2: calls `listener` whenever the auth state the page was rendered with may have changed
   * elsewhere (the page comes back from the back-forward cache, or its tab becomes visible again).
   * Returns the unsubscribe function.
   */
  readonly onAuthMayHaveChanged: (listener: () => void) => () => void;
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
   * client's failures, §8 network messages) can show toasts, in the page's language (`t`).
   */
  readonly connectToasts?: (toasts: Pick<ToastApi, 'show' | 'dismiss'>, t: Translate) => void;
}

export const SERVER_SHELL_SERVICES: ShellServices = {
  openConsent: () => undefined,
  reportError: () => Promise.reject(new Error('errors are reported from the browser')),
  accountStatus: () => Promise.reject(new Error('the auth state is re-checked in the browser')),
  onAuthMayHaveChanged: () => () => undefined,
  replaceLocation: () => undefined,
  assignLocation: () => undefined,
  endSession: () => Promise.reject(new Error('sessions are ended from the browser')),
  endOtherSessions: () => Promise.reject(new Error('sessions are ended from the browser')),
  currentUrl: () => '',
  readCookie: () => undefined,
};

export const ShellServicesContext = createContext<ShellServices>(SERVER_SHELL_SERVICES);
