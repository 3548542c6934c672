import { themeOfRequest } from '../render/request-theme';
import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { LocalizedRequest } from '../locale/locale-path.middleware';
import { AppError } from '../errors/app-error';
import { PageRenderer } from '../render/page-renderer';
import { sendPage } from '../render/send-page';
import { DEFAULT_LOCALE } from '../shared/locale';
import { ROUTES, servicePath } from '../shared/routes';
import { parseUnauthQuery } from './route-queries';

export { UNAUTH_ERRORS } from './route-queries';

/** §2 /unauthredirect: says what happened, in the collector's language, and offers to sign in again. */
@Controller()
export class UnauthController {
  constructor(private readonly pages: PageRenderer) {}

  @Get(ROUTES.unauthorized)
  show(
    @Query() raw: Record<string, unknown>,
    @Req() req: Request & LocalizedRequest,
    @Res() res: Response,
  ): void {
    const query = parseUnauthQuery(raw, req.pathLocale);
    if (!query.ok) throw new AppError('BadRequest', query.message);
    const { error, brand, locale } = query;
    const t = this.pages.translator(locale);
    const again = servicePath('signin', {
      b: brand,
      lang: locale !== DEFAULT_LOCALE ? locale : undefined,
    });
    const page = this.pages.message(locale, brand, {
      title: t('common.unauth.title'),
      message: t(`common.unauth.${error}`),
      action: { href: again, label: t('common.unauth.signInAgain') },
      alert: true,
      theme: themeOfRequest(req),
    });
    // A page the collector lands on, not a challenge: 200 (issue 16 item 6). A 401 would need a
    // WWW-Authenticate challenge (RFC 9110 §15.5.2) that no browser could answer here.
    sendPage(res, 200, page);
  }
}
