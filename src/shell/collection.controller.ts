import { ROUTES } from '../shared/routes';
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { localeOfRequest } from '../locale/request-locale-resolver';
import { ShellRenderer } from '../render/shell-renderer';
import { accountSummaryOf } from '../session/account-summaries';
import { Sessions } from '../session/sessions';
import type { LandingData } from '../shared/landing';
import { continueLinks } from './landing';
import { signedInPageOptions } from './shell-access-check';
import { ShellDoor } from './shell-door';

/**
 * §2 /collection, the default landing after sign-in: the signed-in collector's account summary; a
 * collector the §2 rule keeps out goes to /signin with r, b, QTM_SID and QTM_UID (shell-access-check.ts).
 */
@Controller()
export class CollectionController {
  constructor(
    private readonly door: ShellDoor,
    private readonly shell: ShellRenderer,
    private readonly sessions: Sessions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Issue 16 item 4: the collector's account home: who is signed in and their second factors (the
   * session's summary, from the ID token and userinfo at the sign-in), how many sessions they have,
   * and the family's sites to continue to in their language.
   */
  @Get(ROUTES.collection)
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    const admission = await this.door.admit(req, res);
    if (!admission) return;
    const landing: LandingData = {
      account: accountSummaryOf(admission.record),
      sessionCount: (await this.sessions.listForSubject(admission.record.sub)).length,
      continueTo: continueLinks(this.config.brands, localeOfRequest(req)),
    };
    this.shell.render(req, res, {
      page: 'collection',
      titleKey: 'collection.title',
      ...signedInPageOptions(admission),
      props: { ...landing },
    });
  }
}
