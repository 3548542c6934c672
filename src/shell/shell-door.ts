import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ResponseCookies } from '../cookies/response-cookies';
import { applyRedirect } from '../http/apply-outcome';
import { localeOfRequest } from '../locale/request-locale-resolver';
import { LiveSessions } from '../session/live-sessions';
import { ShellAccessCheck, ShellAdmission, ShellVisit } from './shell-access-check';

/**
 * The HTTP side of the §2 check, shared by every guarded page's controller: reads the visit from the
 * request, marks the answer no-store (it is personal either way) and, when the collector may not see
 * the page, answers with the redirect to /signin. The page renders only when this returns an
 * admission.
 */
@Injectable()
export class ShellDoor {
  constructor(
    private readonly access: ShellAccessCheck,
    private readonly cookies: ResponseCookies,
    private readonly liveSessions: LiveSessions,
  ) {}

  async admit(req: Request, res: Response): Promise<ShellAdmission | undefined> {
    const access = await this.access.check(await this.visit(req));
    res.set({ 'Cache-Control': 'no-store' });
    if (access.allowed) return access;
    applyRedirect(res, this.cookies, access.redirect);
    return undefined;
  }

  private async visit(req: Request): Promise<ShellVisit> {
    const jar = this.cookies.read(req);
    // docs/security.md, a shadowed session cookie: the browser's own session id, not the first a
    // sibling subdomain planted.
    const sessionId = await this.liveSessions.sessionIdOf(
      this.cookies.sessionIds(req),
      jar.sessionBinding,
    );
    const referer = req.headers.referer;
    return {
      url: req.originalUrl,
      locale: localeOfRequest(req),
      ...(typeof referer === 'string' ? { referer } : {}),
      ...(sessionId ? { sessionId } : {}),
      ...(jar.sessionBinding ? { binding: jar.sessionBinding } : {}),
      ...(jar.QTM_SID ? { qtmSid: jar.QTM_SID } : {}),
      ...(jar.QTM_UID ? { qtmUid: jar.QTM_UID } : {}),
    };
  }
}
