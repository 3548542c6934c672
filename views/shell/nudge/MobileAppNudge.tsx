import { useEffect, useState } from 'react';
import type { Translate } from '../../../src/shared/translate';
import { NUDGE_LAST_SHOWN_KEY, nudgeToShow, type MobilePlatform } from './nudge-timing';

/**
 * Where each platform gets the app. The App Store page is the PSA app's (id 996239729, an id-only
 * address so that a renamed listing still resolves). The Google Play package name could not be
 * confirmed offline, so Android goes to a Play Store search for the app until it is.
 */
export const APP_STORE_LINKS: Readonly<Record<MobilePlatform, string>> = {
  ios: 'https://apps.apple.com/us/app/id996239729',
  android: 'https://play.google.com/store/search?q=PSA%20Collectors&c=apps',
};

export interface MobileAppNudgeProps {
  readonly t: Translate;
  /**
   * The platform the server found in the request's user agent (ShellData.appNudge): the nudge is
   * drawn for it from the server's HTML on, and hidden before the first paint when not due
   * (nudge-seen-script.ts). Without one, nothing is drawn.
   */
  readonly platform?: MobilePlatform;
  /** The clock; Date.now in the browser. */
  readonly now?: () => number;
  /** Where the last-shown time lives; window.localStorage in the browser. */
  readonly storage?: Pick<Storage, 'getItem' | 'setItem'>;
  /** navigator.userAgent in the browser. */
  readonly userAgent?: string;
  /** navigator.maxTouchPoints in the browser: tells an iPad in desktop mode from a Mac. */
  readonly maxTouchPoints?: number;
  /** Store pages by platform (defaults: APP_STORE_LINKS). */
  readonly storeLinks?: Readonly<Record<MobilePlatform, string>>;
}

/**
 * §2/§4 Mobile-app nudge, a banner at the top of the page. The server draws it for a phone's user
 * agent, so that it has its room before the first paint and pushes nothing down afterwards.
 * Whether it is due depends on local storage, which only the browser knows: the page's <head>
 * script hides a nudge shown in the last 168 hours before anything is drawn, and this decides again
 * after hydration, with the same rule (nudgeToShow). When it stays, the current time is stored
 * (§4 "Marking it as shown stores the current time"), so it shows at most once every 168 hours
 * whether or not the collector closes it. Closing it takes it away.
 */
export function MobileAppNudge({
  t,
  platform: drawn,
  now,
  storage,
  userAgent,
  maxTouchPoints,
  storeLinks = APP_STORE_LINKS,
}: MobileAppNudgeProps) {
  const [platform, setPlatform] = useState<MobilePlatform | undefined>(drawn);

  useEffect(() => {
    if (!drawn) return;
    const store = storage ?? browserStorage();
    const stored = readItem(store, NUDGE_LAST_SHOWN_KEY);
    // Without a storage that answers, the nudge could not remember being shown and would nag on
    // every page: it stays hidden instead.
    const nowMs = (now ?? Date.now)();
    const shown =
      store && stored !== unreadable
        ? nudgeToShow({
            userAgent: userAgent ?? navigator.userAgent,
            maxTouchPoints: maxTouchPoints ?? navigator.maxTouchPoints,
            storedLastShown: stored,
            nowMs,
          })
        : undefined;
    if (shown !== drawn || !store) {
      setPlatform(undefined);
      return;
    }
    writeItem(store, NUDGE_LAST_SHOWN_KEY, String(nowMs));
    // Decided once per page load (empty deps on purpose): a later prop change must not bring back a
    // nudge the collector closed.
  }, []);

  if (!platform) return null;
  return (
    <MobileAppNudgeBanner
      t={t}
      platform={platform}
      storeUrl={storeLinks[platform]}
      onClose={() => setPlatform(undefined)}
    />
  );
}

export interface MobileAppNudgeBannerProps {
  readonly t: Translate;
  readonly platform: MobilePlatform;
  readonly storeUrl: string;
  readonly onClose: () => void;
}

/** The banner itself: what the app offers, one store link for this device, and a close button. */
export function MobileAppNudgeBanner({
  t,
  platform,
  storeUrl,
  onClose,
}: MobileAppNudgeBannerProps) {
  return (
    <section className="app-nudge" aria-label={t('common.appNudge.label')} data-platform={platform}>
      <div className="app-nudge-text">
        <p className="app-nudge-title">{t('common.appNudge.title')}</p>
        <p className="app-nudge-body">{t('common.appNudge.body')}</p>
      </div>
      <a className="app-nudge-store" href={storeUrl}>
        {t(platform === 'ios' ? 'common.appNudge.appStore' : 'common.appNudge.googlePlay')}
      </a>
      <button
        type="button"
        className="app-nudge-close"
        aria-label={t('common.appNudge.dismiss')}
        onClick={onClose}
      >
        <span aria-hidden="true">×</span>
      </button>
    </section>
  );
}

/** localStorage, or nothing when the browser refuses it (storage disabled, some private modes). */
function browserStorage(): Pick<Storage, 'getItem' | 'setItem'> | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

const unreadable = Symbol('unreadable');

function readItem(
  store: Pick<Storage, 'getItem'> | undefined,
  key: string,
): string | null | typeof unreadable {
  try {
    return store ? store.getItem(key) : unreadable;
  } catch {
    return unreadable;
  }
}

/** A full storage must not break the page; the nudge then simply may show again. */
function writeItem(store: Pick<Storage, 'setItem'>, key: string, value: string): void {
  try {
    store.setItem(key, value);
  } catch {
    // Nothing to do: showing the nudge once too often is harmless.
  }
}
