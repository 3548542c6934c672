/**
 * A short, human name for the device a session was started on (the session management page, issue 7):
 * the browser and the operating system read from the User-Agent, e.g. "Chrome on macOS". Only names
 * from these tables can come out, so a crafted User-Agent cannot put its own text on the page.
 */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|\bChrome\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bPSA\b|\bpsacard\b/i, 'PSA app'],
  [/\bCollectors\b/i, 'Collectors app'],
];

const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\biPhone\b|\biPod\b/, 'iOS'],
  [/\biPad\b/, 'iPadOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bLinux\b/, 'Linux'],
];

export interface DeviceName {
  readonly browser?: string;
  readonly os?: string;
}

export function describeDevice(userAgent: string | undefined): DeviceName {
  if (!userAgent) return {};
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const os = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  return { ...(browser ? { browser } : {}), ...(os ? { os } : {}) };
}
