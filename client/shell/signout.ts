import { STORAGE_KEYS_CLEARED_ON_SIGNOUT } from '../../views/shell/nudge/storage-keys';
import type { SignedOutProps } from '../../views/pages/SignedOutPage';
import type { AnalyticsEvent } from '../analytics';

type Removable = Pick<Storage, 'removeItem'>;

/** §4 Sign-out step 3: this product's keys leave both storages; other keys on the origin stay. */
export function clearSignedOutStorage(storages: readonly (Removable | undefined)[]): void {
  for (const storage of storages) {
    if (!storage) continue;
    for (const key of STORAGE_KEYS_CLEARED_ON_SIGNOUT) {
      try {
        storage.removeItem(key);
      } catch {
        // A storage that refuses access holds nothing of ours.
      }
    }
  }
}

/** What finishing a sign-out needs of the browser (client/main.tsx gives the real ones). */
export interface SignOutDeps {
  readonly storages: readonly (Removable | undefined)[];
  /** Records an analytics event when consent allows it (client/analytics.ts). */
  readonly track: (event: AnalyticsEvent) => unknown;
  readonly replaceLocation: (url: string) => void;
}

/**
 * §4 Sign-out steps 3-5 on the logout landing, for every sign-out (issue 14 item 8): this product's
 * storage keys go, the Logout event is recorded when a sign-out of ours led here (consent permitting,
 * inside track), and the page is replaced by the target the server chose, so Back does not return to
 * the landing.
 */
export function finishSignOut(props: SignedOutProps, brand: string, deps: SignOutDeps): void {
  clearSignedOutStorage(deps.storages);
  if (props.signedOut) {
    deps.track({
      action: 'Logout',
      category: 'Auth',
      label: brand,
      ...(props.collectorsId !== undefined ? { user: props.collectorsId } : {}),
    });
  }
  deps.replaceLocation(props.target);
}
