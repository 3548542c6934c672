import { themeOfRequest } from '../render/request-theme';
import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ResponseCookies } from '../cookies/response-cookies';
import { AppError } from '../errors/app-error';
import { applyRedirect } from '../http/apply-outcome';
import { HANDOFF_HEADERS } from '../http/outcome';
import type { LocalizedRequest } from '../locale/locale-path.middleware';
import { PageRenderer } from '../render/page-renderer';
import { RateLimited } from '../rate-limit/rate-limit.guard';
import { sendPage } from '../render/send-page';
import { DEFAULT_LOCALE, normalizeLocale } from '../shared/locale';
import { ROUTES, servicePath } from '../shared/routes';
import { isSameSite } from './token-param.middleware';
import { TokenParamSignin } from './token-param-signin';

/**
 * Issue 32 item 1: the page a cross-site `t` leads to. It names the account the link would sign this
 * browser into and asks: "Continue as c•••@example.com", or go on without signing in. The offer is
 * this browser's only (the signinBinding cookie), lives five minutes and is taken once; the
 * confirmation itself must be a same-site navigation (Fetch Metadata, where the browser sends it),
 * so another site cannot click it for the collector.
 */
@Controller()
@RateLimited()
export class TokenSigninController {
  constructor(
    private readonly signin: TokenParamSignin,
    private readonly pages: PageRenderer,
    private readonly cookies: ResponseCookies,
  ) {}

  @Get(ROUTES.tokenSignin)
  async show(
    @Query('k') key: unknown,
    @Query('confirm') confirm: unknown,
    @Req() req: Request & LocalizedRequest,
    @Res() res: Response,
  ): Promise<void> {
    const binding = this.cookies.read(req).signinBinding;
    if (confirm === '1') {
      const site = req.headers['sec-fetch-site'];
      if (site !== undefined && !isSameSite(req.headers))
        throw new AppError('Forbidden', 'the sign-in is confirmed from this site only');
      const outcome = await this.signin.confirm(key, binding);
      if (!outcome) throw expired();
      applyRedirect(res, this.cookies, outcome);
      return;
    }
    const offer = await this.signin.shownOffer(key, binding);
    if (!offer) throw expired();
    const locale = req.pathLocale ?? normalizeLocale(offer.locale) ?? DEFAULT_LOCALE;
    const t = this.pages.translator(locale);
    const page = this.pages.message(locale, offer.brand, {
      title: t('common.tokenSignin.title', { account: offer.account }),
      message: t('common.tokenSignin.body', { account: offer.account }),
      action: {
        href: servicePath('tokenSignin', { k: String(key), confirm: '1' }),
        label: t('common.tokenSignin.continue', { account: offer.account }),
      },
      secondary: { href: offer.target, label: t('common.tokenSignin.decline') },
      alert: false,
      currentPath: ROUTES.tokenSignin,
      theme: themeOfRequest(req),
    });
    for (const [name, value] of Object.entries(HANDOFF_HEADERS)) res.setHeader(name, value);
    sendPage(res, 200, page);
  }
}

function expired(): AppError {
  return new AppError('InvalidLoginState', 'this sign-in link has expired or was already used');
}
