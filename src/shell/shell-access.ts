import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Brand } from '../shared/brand';
import { brandFromReferrer } from '../brand/brand-from-referrer';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ResponseCookies } from '../cookies/response-cookies';
import { LiveSessions } from '../session/live-sessions';
import type { SessionRecord } from '../session/sessions';
import { accountStatus } from '../session/account-status';
import { AuthUserState, shellGuard, shellSigninUrl } from '../shared/shell-guard';

export interface ShellAdmission {
  readonly allowed: true;
  readonly sessionId: string;
  readonly record: SessionRecord;
  readonly state: AuthUserState;
  readonly referrerBrand?: Brand;
}

export type ShellAccess = { readonly allowed: false; readonly signinUrl: string } | ShellAdmission;

/** What a guarded page renders with from its admission: the account state and the referring brand. */
export function signedInPageOptions(admission: ShellAdmission): {
  readonly account: AuthUserState;
  readonly referrerBrand?: Brand;
} {
  return {
    account: admission.state,
    ...(admission.referrerBrand ? { referrerBrand: admission.referrerBrand } : {}),
  };
}

/**
 * §2 on the server, for every guarded shell page: the live session and its account state, or the
 * /signin address (r, b, QTM_SID, QTM_UID) the collector is sent to. The browser applies the rule
 * again with its promptMfaSignin flag (views/shell/ShellGuardGate.tsx).
 */
@Injectable()
export class ShellAccessCheck {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly liveSessions: LiveSessions,
    private readonly cookies: ResponseCookies,
  ) {}

  /**
   * The door of every guarded page: marks the answer no-store (it is personal either way) and, when
   * the collector may not see the page, answers with the redirect to /signin; the page renders only
   * when this returns an admission.
   */
  async admit(req: Request, res: Response): Promise<ShellAdmission | undefined> {
    const access = await this.check(req);
    res.set({ 'Cache-Control': 'no-store' });
    if (access.allowed) return access;
    res.redirect(302, access.signinUrl);
    return undefined;
  }

  private async check(req: Request): Promise<ShellAccess> {
    const jar = this.cookies.read(req);
    const record = await this.liveSessions.read(jar.sessionId);
    const state = accountStatus(record);
    const brand = brandFromReferrer(req.headers.referer, this.config.brands);
    const reason = shellGuard(state, {
      ...(brand ? { brand } : {}),
      ...(jar.promptMfaSignin ? { promptMfaSignin: jar.promptMfaSignin } : {}),
    });
    if (reason || !record || !jar.sessionId) {
      const base = this.config.http.publicUrl;
      return {
        allowed: false,
        signinUrl: shellSigninUrl(base, {
          currentUrl: `${base}${req.originalUrl}`,
          ...(brand ? { brand } : {}),
          ...(jar.QTM_SID ? { qtmSid: jar.QTM_SID } : {}),
          ...(jar.QTM_UID ? { qtmUid: jar.QTM_UID } : {}),
        }),
      };
    }
    return {
      allowed: true,
      sessionId: jar.sessionId,
      record,
      state,
      ...(brand ? { referrerBrand: brand } : {}),
    };
  }
}
