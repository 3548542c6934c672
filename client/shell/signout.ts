import { STORAGE_KEYS_CLEARED_ON_SIGNOUT } from '../../views/shell/nudge/storage-keys';
import { ROUTES } from '../../src/shared/routes';

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

/** Links that sign the collector out (§2 /logout/collectorsid); the server does steps 1, 2 and 5. */
export function isSignoutLink(href: string, origin: string): boolean {
  try {
    const url = new URL(href, origin);
    return url.origin === origin && url.pathname === ROUTES.logout;
  } catch {
    return false;
  }
}
