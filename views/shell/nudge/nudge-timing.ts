/** §4 Other "Mobile-app nudge" and §9: when the get-the-app banner appears, and on which devices. */
export {
  NUDGE_LAST_SHOWN_KEY,
  STORAGE_KEYS_CLEARED_ON_SIGNOUT,
  type StorageKey,
} from './storage-keys';

/** §9: the nudge appears at most once every 168 hours (7 days). */
export const NUDGE_INTERVAL_MS = 168 * 60 * 60 * 1000;

export type MobilePlatform = 'android' | 'ios';

/**
 * §4: show the nudge when no earlier time is stored, or when the stored time is at least 168 hours
 * ago (exactly 168 h counts). A value that is not a finite number counts as nothing stored.
 */
export function shouldShowNudge(lastShownMs: number | undefined, nowMs: number): boolean {
  if (lastShownMs === undefined || !Number.isFinite(lastShownMs)) return true;
  return nowMs - lastShownMs >= NUDGE_INTERVAL_MS;
}

/**
 * Reads the stored last-shown time (milliseconds since the epoch, written by String(Date.now())).
 * Anything else (null, '', 'yesterday', '1e400', '12abc') is not a time: the nudge may show again.
 */
export function parseNudgeLastShown(stored: string | null | undefined): number | undefined {
  if (stored === null || stored === undefined || !/^\d+$/.test(stored.trim())) return undefined;
  const value = Number(stored.trim());
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * §2: the nudge is for Android and iOS devices only.
 *
 * iPadOS 13+ Safari asks for desktop sites by default and then sends a Mac user agent ("Macintosh;
 * Intel Mac OS X") with no trace of the iPad. The user agent alone cannot tell it from a Mac, so it
 * counts as desktop unless maxTouchPoints says the device has a touch screen (no Mac has one): the
 * component passes navigator.maxTouchPoints. Windows phones also claim Android and iPhone in their
 * user agent, and are not Android or iOS.
 */
export function mobilePlatform(userAgent: string, maxTouchPoints = 0): MobilePlatform | undefined {
  if (/Windows Phone|IEMobile/i.test(userAgent)) return undefined;
  if (/Android/i.test(userAgent)) return 'android';
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'ios';
  if (/Macintosh/i.test(userAgent) && maxTouchPoints > 1) return 'ios';
  return undefined;
}

/** What the nudge reads after hydration, gathered so the decision stays a pure function. */
export interface NudgeContext {
  readonly userAgent: string;
  readonly maxTouchPoints?: number;
  readonly storedLastShown: string | null | undefined;
  readonly nowMs: number;
}

/** The platform to nudge towards, or undefined when the nudge stays hidden. */
export function nudgeToShow(context: NudgeContext): MobilePlatform | undefined {
  const platform = mobilePlatform(context.userAgent, context.maxTouchPoints);
  if (!platform) return undefined;
  return shouldShowNudge(parseNudgeLastShown(context.storedLastShown), context.nowMs)
    ? platform
    : undefined;
}
