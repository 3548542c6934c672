import { ROUTES } from '../shared/routes';
import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { SessionRow } from '../../views/pages/SessionsPage';
import { sessionTimeText } from '../../views/pages/session-time';
import { BRAND_DEFINITIONS } from '../shared/brand-definitions';
import type { Locale } from '../shared/locale';
import { localeOfRequest } from '../locale/request-locale-resolver';
import { ShellRenderer } from '../render/shell-renderer';
import { listSessions } from '../session/session-list';
import { Sessions } from '../session/sessions';
import { signedInPageOptions } from './shell-access-check';
import { ShellDoor } from './shell-door';

/**
 * The server's text of a session's time: it cannot know the collector's time zone, so it says UTC;
 * the browser rewrites it in the collector's own zone once the page has hydrated (SessionsPage).
 */
function formatDate(iso: string, locale: Locale): string {
  return sessionTimeText(iso, locale, { timeZone: 'UTC', sayZone: true });
}

/**
 * Issue 7: the session management page, /account/sessions: the signed-in collector's active sessions
 * with 'sign out this session' and 'sign out everywhere' (account.endSession, account.endOtherSessions).
 * Like /collection, the §2 rule applies first (shell-access-check.ts).
 */
@Controller()
export class SessionsController {
  constructor(
    private readonly door: ShellDoor,
    private readonly sessions: Sessions,
    private readonly shell: ShellRenderer,
  ) {}

  @Get(ROUTES.sessions)
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    const admission = await this.door.admit(req, res);
    if (!admission) return;
    const locale = localeOfRequest(req);
    const rows: SessionRow[] = listSessions(
      await this.sessions.listForSubject(admission.record.sub),
      await this.sessions.handleOf(admission.sessionId),
    ).map((s) => ({
      ...s,
      brandName: BRAND_DEFINITIONS[s.brand].companyName,
      lastUsedText: formatDate(s.lastUsedAt, locale),
      createdText: formatDate(s.createdAt, locale),
    }));
    this.shell.render(req, res, {
      page: 'sessions',
      titleKey: 'sessions.title',
      ...signedInPageOptions(admission),
      props: { sessions: rows },
    });
  }
}
