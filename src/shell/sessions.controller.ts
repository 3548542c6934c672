import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { SessionRow } from '../../views/pages/SessionsPage';
import { SigninService } from '../auth/signin.service';
import { brandFromReferrer } from '../brand/brand-from-referrer';
import { BRAND_DEFINITIONS } from '../brand/brand-definitions';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ResponseCookies } from '../cookies/response-cookies';
import type { Locale } from '../locale/locale';
import { localeOfRequest } from '../locale/request-locale';
import { ShellRenderer } from '../render/shell-renderer';
import { listSessions } from '../session/session-list';
import { Sessions } from '../session/sessions';
import { accountStatus } from './account-status';
import { shellSigninUrl } from './shell-guard';

/** Dates as the page shows them: in the collector's language, in UTC (the server has no time zone of theirs). */
function formatDate(iso: string, locale: Locale): string {
  return `${new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(iso))} UTC`;
}

/**
 * Issue 7: the session management page, /account/sessions: the signed-in collector's active sessions
 * with 'sign out this session' and 'sign out everywhere' (account.endSession, account.endOtherSessions).
 * Like /collection, a collector who is not signed in goes to /signin first (§2).
 */
@Controller()
export class SessionsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly signin: SigninService,
    private readonly sessions: Sessions,
    private readonly cookies: ResponseCookies,
    private readonly shell: ShellRenderer,
  ) {}

  @Get('account/sessions')
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    const jar = this.cookies.read(req);
    const record = await this.signin.liveSession(jar.sessionId);
    const brand = brandFromReferrer(req.headers.referer, this.config.brands);
    res.set({ 'Cache-Control': 'no-store' });
    if (!record || !jar.sessionId) {
      res.redirect(
        302,
        shellSigninUrl(this.config.http.publicUrl, {
          currentUrl: `${this.config.http.publicUrl}${req.originalUrl}`,
          ...(brand ? { brand } : {}),
          ...(jar.QTM_SID ? { qtmSid: jar.QTM_SID } : {}),
          ...(jar.QTM_UID ? { qtmUid: jar.QTM_UID } : {}),
        }),
      );
      return;
    }
    const locale = localeOfRequest(req);
    const rows: SessionRow[] = listSessions(
      await this.sessions.listForSubject(record.sub),
      this.sessions.handle(jar.sessionId),
    ).map((s) => ({
      ...s,
      brandName: BRAND_DEFINITIONS[s.brand].companyName,
      lastUsedText: formatDate(s.lastUsedAt, locale),
      createdText: formatDate(s.createdAt, locale),
    }));
    this.shell.render(req, res, {
      page: 'sessions',
      titleKey: 'sessions.title',
      account: accountStatus(record),
      ...(brand ? { referrerBrand: brand } : {}),
      props: { sessions: rows },
    });
  }
}
