import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { SigninService } from '../auth/signin.service';
import { brandFromReferrer } from '../brand/brand-from-referrer';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ResponseCookies } from '../cookies/response-cookies';
import { ShellRenderer } from '../render/shell-renderer';
import { accountStatus } from './account-status';
import { shellGuard, shellSigninUrl } from './shell-guard';

/**
 * §2 /collection, the default landing after sign-in: the signed-in collector's account summary; a
 * collector who is not signed in goes to /signin with r, b, QTM_SID and QTM_UID. The other rules of §2
 * (migrating, second-factor set-up, survey) need the browser's promptMfaSignin flag: the hydrated
 * page applies them (views/shell/ShellGuardGate.tsx).
 */
@Controller()
export class CollectionController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly signin: SigninService,
    private readonly cookies: ResponseCookies,
    private readonly shell: ShellRenderer,
  ) {}

  @Get('collection')
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    const jar = this.cookies.read(req);
    const record = await this.signin.liveSession(jar.sessionId);
    const state = accountStatus(record);
    const brand = brandFromReferrer(req.headers.referer, this.config.brands);
    const reason = shellGuard(state, {
      ...(brand ? { brand } : {}),
      ...(jar.promptMfaSignin ? { promptMfaSignin: jar.promptMfaSignin } : {}),
    });
    res.set({ 'Cache-Control': 'no-store' });
    if (reason) {
      const url = shellSigninUrl(this.config.http.publicUrl, {
        currentUrl: `${this.config.http.publicUrl}${req.originalUrl}`,
        ...(brand ? { brand } : {}),
        ...(jar.QTM_SID ? { qtmSid: jar.QTM_SID } : {}),
        ...(jar.QTM_UID ? { qtmUid: jar.QTM_UID } : {}),
      });
      res.redirect(302, url);
      return;
    }
    this.shell.render(req, res, {
      page: 'collection',
      titleKey: 'collection.title',
      account: state,
      ...(brand ? { referrerBrand: brand } : {}),
    });
  }
}
