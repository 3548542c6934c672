import {
  mobilePlatform,
  NUDGE_INTERVAL_MS,
  NUDGE_LAST_SHOWN_KEY,
  nudgeToShow,
  parseNudgeLastShown,
  shouldShowNudge,
  STORAGE_KEYS_CLEARED_ON_SIGNOUT,
} from './nudge-timing';

const HOUR = 60 * 60 * 1000;
const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);

const UA = {
  androidChrome:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  androidTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  iPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  iPadMobileMode:
    'Mozilla/5.0 (iPad; CPU OS 12_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1 Mobile/15E148 Safari/604.1',
  iPod: 'Mozilla/5.0 (iPod touch; CPU iPhone OS 12_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  chromeIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1',
  // iPadOS 13+ in its default desktop mode, and a Mac: the same user agent.
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  windowsPhone:
    'Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1; Microsoft; Lumia 950) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Mobile Safari/537.36 Edge/15.15063',
};

describe('mobile-app nudge timing (§4 Other, §9)', () => {
  it('waits 168 hours between nudges', () => {
    expect(NUDGE_INTERVAL_MS).toBe(168 * HOUR);
  });

  describe(shouldShowNudge.name, () => {
    it.each([
      ['nothing stored', undefined, true],
      ['shown just now', NOW, false],
      ['shown 1 hour ago', NOW - HOUR, false],
      ['shown 167 h 59 min 59.999 s ago', NOW - 168 * HOUR + 1, false],
      ['shown exactly 168 h ago', NOW - 168 * HOUR, true],
      ['shown 168 h and 1 ms ago', NOW - 168 * HOUR - 1, true],
      ['shown 30 days ago', NOW - 30 * 24 * HOUR, true],
      ['a stored time in the future', NOW + HOUR, false],
      ['NaN (an unparsable value)', NaN, true],
      ['Infinity', Infinity, true],
    ])('%s -> %p', (_, lastShown, expected) => {
      expect(shouldShowNudge(lastShown, NOW)).toBe(expected);
    });
  });

  describe(parseNudgeLastShown.name, () => {
    it.each([
      [null, undefined],
      [undefined, undefined],
      ['', undefined],
      ['   ', undefined],
      ['yesterday', undefined],
      ['12abc', undefined],
      ['-5', undefined],
      ['1.5', undefined],
      ['1e12', undefined],
      ['9'.repeat(400), undefined],
      ['{"t":1}', undefined],
      ['0', 0],
      [String(NOW), NOW],
      [` ${NOW}\n`, NOW],
    ])('%p -> %p', (stored, expected) => {
      expect(parseNudgeLastShown(stored)).toBe(expected);
    });
  });

  describe(mobilePlatform.name, () => {
    it.each([
      ['Android phone', UA.androidChrome, 0, 'android'],
      ['Android tablet', UA.androidTablet, 5, 'android'],
      ['iPhone', UA.iPhone, 5, 'ios'],
      ['Chrome on iPhone', UA.chromeIos, 5, 'ios'],
      ['iPad in mobile mode', UA.iPadMobileMode, 5, 'ios'],
      ['iPod touch', UA.iPod, 5, 'ios'],
      ['iPadOS desktop mode (Mac UA with touch points)', UA.macSafari, 5, 'ios'],
      ['a Mac (no touch points)', UA.macSafari, 0, undefined],
      ['a Mac with no touch information', UA.macSafari, undefined, undefined],
      ['Windows desktop', UA.windowsChrome, 0, undefined],
      ['Windows touch laptop', UA.windowsChrome, 10, undefined],
      ['Linux desktop', UA.linuxFirefox, 0, undefined],
      ['Windows phone (claims Android)', UA.windowsPhone, 5, undefined],
      ['an empty user agent', '', 0, undefined],
    ])('%s -> %p', (_, userAgent, touchPoints, expected) => {
      expect(mobilePlatform(userAgent, touchPoints)).toBe(expected);
    });
  });

  describe(nudgeToShow.name, () => {
    const old = String(NOW - 200 * HOUR);
    const recent = String(NOW - HOUR);
    it.each([
      ['Android, never shown', UA.androidChrome, null, 'android'],
      ['iPhone, never shown', UA.iPhone, null, 'ios'],
      ['iPhone, shown 200 h ago', UA.iPhone, old, 'ios'],
      ['iPhone, shown 1 h ago', UA.iPhone, recent, undefined],
      ['Android, unparsable stored value', UA.androidChrome, 'garbage', 'android'],
      ['desktop, never shown', UA.windowsChrome, null, undefined],
    ])('%s -> %p', (_, userAgent, storedLastShown, expected) => {
      expect(nudgeToShow({ userAgent, storedLastShown, nowMs: NOW })).toBe(expected);
    });
  });

  it('lists the §3 storage keys that sign-out clears, the nudge time among them', () => {
    expect(NUDGE_LAST_SHOWN_KEY).toBe('appNudgeLastShown');
    expect(STORAGE_KEYS_CLEARED_ON_SIGNOUT).toEqual([
      'redirect-params',
      'CollectionSearch',
      'CollectionFilters',
      'VaultBannerShown',
      'promptMfaSignin',
      'appNudgeLastShown',
    ]);
  });
});
