import { Inject, Injectable } from '@nestjs/common';
import type { Brand } from '../shared/brand';
import type { Locale } from '../shared/locale';
import { brandFromReferrer } from '../brand/brand-from-referrer';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { RedirectOutcome, redirectTo } from '../http/outcome';
import { LiveSessions } from '../session/live-sessions';
import type { SessionRecord } from '../session/sessions';
import { accountStatus, promptMfaSigninOf } from '../session/account-status';
import { AuthUserState, shellGuard, shellSigninUrl } from '../shared/shell-guard';

/** What the §2 check reads of a request to a guarded page (shell-door.ts takes it from HTTP). */
export interface ShellVisit {
  /** The path and query asked for, e.g. `/collection?x=1`. */
  readonly url: string;
  readonly referer?: string;
  readonly sessionId?: string;
  /** The browser binding (sessionBinding cookie) the session must match. */
  readonly binding?: string;
  readonly qtmSid?: string;
  readonly qtmUid?: string;
  /** The page's language (§5), carried to /signin so the sign-in speaks it too. */
  readonly locale?: Locale;
}

export interface ShellAdmission {
  readonly allowed: true;
  readonly sessionId: string;
  readonly record: SessionRecord;
  readonly state: AuthUserState;
  readonly referrerBrand?: Brand;
}

export type ShellAccess =
  { readonly allowed: false; readonly redirect: RedirectOutcome } | ShellAdmission;

/**
 * What a guarded page renders with from its admission: the brand the session records (its favicon
 * and logos, issue 14 item 3), the account state, the referring brand, and the session's
 * promptMfaSignin (issue 14 item 6), which the page has the browser store as §3 asks.
 */
export function signedInPageOptions(admission: ShellAdmission): {
  readonly brand: Brand;
  readonly account: AuthUserState;
  readonly referrerBrand?: Brand;
  readonly promptMfaSignin?: 'false';
} {
  const promptMfaSignin = promptMfaSigninOf(admission.record);
  return {
    brand: admission.record.brand,
    account: admission.state,
    ...(admission.referrerBrand ? { referrerBrand: admission.referrerBrand } : {}),
    ...(promptMfaSignin ? { promptMfaSignin } : {}),
  };
}

/**
 * §2 on the server, for every guarded shell page: the live session and its account state, or the
 * redirect to /signin (r, b, QTM_SID, QTM_UID) the collector is sent to. promptMfaSignin is the one
 * the session holds (the collector's "Not now" at the IdP, issue 14 item 6). The browser applies the
 * rule again with its stored flag (views/shell/ShellGuardGate.tsx), which the page data sets.
 */
@Injectable()
export class ShellAccessCheck {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly liveSessions: LiveSessions,
  ) {}

  async check(visit: ShellVisit): Promise<ShellAccess> {
    const record = await this.liveSessions.read(visit.sessionId, visit.binding);
    const state = accountStatus(record);
    const brand = brandFromReferrer(visit.referer, this.config.brands);
    const promptMfaSignin = promptMfaSigninOf(record);
    const reason = shellGuard(state, {
      ...(brand ? { brand } : {}),
      ...(promptMfaSignin ? { promptMfaSignin } : {}),
    });
    if (reason || !record || !visit.sessionId) {
      const base = this.config.http.publicUrl;
      return {
        allowed: false,
        redirect: redirectTo(
          shellSigninUrl(base, {
            currentUrl: `${base}${visit.url}`,
            ...(brand ? { brand } : {}),
            ...(visit.qtmSid ? { qtmSid: visit.qtmSid } : {}),
            ...(visit.qtmUid ? { qtmUid: visit.qtmUid } : {}),
            ...(visit.locale ? { locale: visit.locale } : {}),
          }),
        ),
      };
    }
    return {
      allowed: true,
      sessionId: visit.sessionId,
      record,
      state,
      ...(brand ? { referrerBrand: brand } : {}),
    };
  }
}
