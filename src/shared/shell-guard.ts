import type { Brand } from './brand';
import { DEFAULT_LOCALE, type Locale } from './locale';
import { ROUTES, type ServicePath } from './routes';

/** §3 "Auth user state". */
export interface AuthUserState {
  readonly isSignedIn: boolean;
  readonly isMigrating: boolean;
  readonly setupMfa: boolean;
  readonly showSurvey: boolean;
  readonly collectorsId?: number | string;
}

export const SIGNED_OUT: AuthUserState = {
  isSignedIn: false,
  isMigrating: false,
  setupMfa: false,
  showSurvey: false,
};

/** §2: the survey rule applies only for no brand, collectors, psa and psamobile. */
const SURVEY_BRANDS: ReadonlySet<Brand> = new Set<Brand>(['collectors', 'psa', 'psamobile']);

export type ShellGuardReason = 'not-signed-in' | 'migrating' | 'setup-mfa' | 'survey';

/**
 * §2 Signed-in shell redirect rule, pure: the shell shows only to a collector who is signed in, not
 * migrating, with no pending second-factor set-up (skipped when promptMfaSignin is 'false' or the
 * brand is psajapan) and no pending survey (only for no brand, collectors, psa, psamobile).
 * Returns why the browser goes to /signin, or undefined to show the shell.
 */
export function shellGuard(
  state: AuthUserState,
  context: { readonly brand?: Brand; readonly promptMfaSignin?: string },
): ShellGuardReason | undefined {
  if (!state.isSignedIn) return 'not-signed-in';
  if (state.isMigrating) return 'migrating';
  if (state.setupMfa && context.promptMfaSignin !== 'false' && context.brand !== 'psajapan')
    return 'setup-mfa';
  if (state.showSurvey && (context.brand === undefined || SURVEY_BRANDS.has(context.brand)))
    return 'survey';
  return undefined;
}

/**
 * §2: the redirect carries r (the current full URL), b (the brand of the referring host, if known),
 * and QTM_SID / QTM_UID (the analytics cookies, if present). It also carries `lang` when the page was
 * not in the default language (issue 14 item 2: the sign-in steps then speak it too; §2's locale
 * rule gives the default none).
 */
export function shellSigninUrl(
  base: string,
  params: {
    readonly currentUrl: string;
    readonly brand?: Brand;
    readonly qtmSid?: string;
    readonly qtmUid?: string;
    readonly locale?: Locale;
  },
): ServicePath {
  const query = new URLSearchParams({ r: params.currentUrl });
  if (params.brand) query.set('b', params.brand);
  if (params.qtmSid) query.set('QTM_SID', params.qtmSid);
  if (params.qtmUid) query.set('QTM_UID', params.qtmUid);
  if (params.locale && params.locale !== DEFAULT_LOCALE) query.set('lang', params.locale);
  return `${base}${ROUTES.signin}?${query.toString()}` as ServicePath;
}
