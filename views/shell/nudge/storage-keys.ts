/**
 * §3 Browser storage: the keys this product writes to sessionStorage or localStorage. Keeping them in
 * one typed table lets sign-out (§4 Sign-out, step 3: "the stored redirect parameters, the MFA prompt
 * flag and the session and local storage keys are cleared") remove exactly these and nothing a
 * sister site on the same origin may own. The spec does not say which storage holds which key, so the
 * sign-out code should remove each from both.
 */

/** §3 "the last-shown time of the app nudge": milliseconds since the epoch, as a decimal string. */
export const NUDGE_LAST_SHOWN_KEY = 'appNudgeLastShown';

export const STORAGE_KEYS_CLEARED_ON_SIGNOUT = [
  /** §3: the saved sign-in query. */
  'redirect-params',
  'CollectionSearch',
  'CollectionFilters',
  'VaultBannerShown',
  /** §2: 'false' skips the second-factor setup prompt. */
  'promptMfaSignin',
  NUDGE_LAST_SHOWN_KEY,
] as const;

export type StorageKey = (typeof STORAGE_KEYS_CLEARED_ON_SIGNOUT)[number];
