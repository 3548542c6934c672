import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { SigninService } from '../auth/signin.service';
import type { Brand } from '../brand/brand';
import { brandFromReferrer } from '../brand/brand-from-referrer';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ResponseCookies } from '../cookies/response-cookies';
import type { SessionRecord } from '../session/sessions';
import { accountStatus } from './account-status';
import { AuthUserState, shellGuard, shellSigninUrl } from './shell-guard';

export type ShellAccess =
  | { readonly allowed: false; readonly signinUrl: string }
  | {
      readonly allowed: true;
      readonly sessionId: string;
      readonly record: SessionRecord;
      readonly state: AuthUserState;
      readonly referrerBrand?: Brand;
    };

/**
 * §2 on the server, for every guarded shell page: the live session and its account state, or the
 * /signin address (r, b, QTM_SID, QTM_UID) the collector is sent to. The browser applies the rule
 * again with its promptMfaSignin flag (views/shell/ShellGuardGate.tsx).
 */
@Injectable()
export class ShellAccessCheck {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly signin: SigninService,
    private readonly cookies: ResponseCookies,
  ) {}

  async check(req: Request): Promise<ShellAccess> {
    const jar = this.cookies.read(req);
    const record = await this.signin.liveSession(jar.sessionId);
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
