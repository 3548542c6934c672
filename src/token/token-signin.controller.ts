import { Body, Controller, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ResponseCookies } from '../cookies/response-cookies';
import { AppError } from '../errors/app-error';
import { applyRedirect } from '../http/apply-outcome';
import { HANDOFF_HEADERS } from '../http/outcome';
import type { LocalizedRequest } from '../locale/locale-path.middleware';
import { RateLimited } from '../rate-limit/rate-limit.guard';
import { PageRenderer } from '../render/page-renderer';
import { themeOfRequest } from '../render/request-theme';
import { sendPage } from '../render/send-page';
import { DEFAULT_LOCALE, normalizeLocale } from '../shared/locale';
import { ROUTES } from '../shared/routes';
import { isSameOriginPost } from './token-param.middleware';
import { TokenParamSignin } from './token-param-signin';
import type { OfferRefusal } from './token-offers';

/**
 * The page's answer headers: never cached (it holds the form's CSRF token), and a Referer only to
 * this origin. Not `no-referrer`, as elsewhere: under it a browser sends `Origin: null` with the
 * page's own form post (Fetch, "append a request Origin header"), and the post could not prove that
 * it came from this origin. Nothing reaches another origin, and the `k` a same-origin Referer
 * carries is redacted from the logs like `t` (docs/security.md, the offer key).
 */
const CONFIRMATION_HEADERS = { ...HANDOFF_HEADERS, 'Referrer-Policy': 'same-origin' } as const;

/** What the confirmation page's form posts (docs/security.md, the offer key). */
interface ConfirmationForm {
  readonly k?: unknown;
  readonly csrf?: unknown;
  readonly action?: unknown;
}

/**
 * Issue 32 item 1: the page a cross-site `t` leads to. It names the account the link would sign this
 * browser into and asks (docs/security.md, a look-alike account: the whole address and the
 * collector number, see TokenSigninPage), or go on without signing in. The offer is this browser's
 * only (the signinBinding cookie), lives five minutes, is the token's only live one and is taken
 * once (TokenOffers).
 *
 * docs/security.md, the offer key: showing the page changes nothing (GET). Both answers are a form
 * post from the page (POST): a same-origin one (isSameOriginPost) carrying the page's CSRF token
 * and the browser's binding, all checked before the offer is touched, so another site, another
 * browser or a forged form cannot confirm the collector's offer, nor burn it. "Not you?" ends the
 * offer.
 */
@Controller()
@RateLimited()
export class TokenSigninController {
  private readonly ownOrigin: string;

  constructor(
    private readonly signin: TokenParamSignin,
    private readonly pages: PageRenderer,
    private readonly cookies: ResponseCookies,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ownOrigin = new URL(config.http.publicUrl).origin;
  }

  @Get(ROUTES.tokenSignin)
  async show(
    @Query('k') key: unknown,
    @Req() req: Request & LocalizedRequest,
    @Res() res: Response,
  ): Promise<void> {
    const offer = await this.signin.shownOffer(key, this.cookies.read(req).signinBinding);
    if (!offer || typeof key !== 'string') throw expired();
    const locale = req.pathLocale ?? normalizeLocale(offer.locale) ?? DEFAULT_LOCALE;
    const page = this.pages.tokenSignin(locale, offer.brand, {
      account: offer.account,
      form: { action: ROUTES.tokenSignin, offerKey: key, csrf: offer.csrf },
      currentPath: ROUTES.tokenSignin,
      theme: themeOfRequest(req),
    });
    for (const [name, value] of Object.entries(CONFIRMATION_HEADERS)) res.setHeader(name, value);
    sendPage(res, 200, page);
  }

  @Post(ROUTES.tokenSignin)
  async answer(
    @Body() form: ConfirmationForm | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    if (!isSameOriginPost(req.headers, this.ownOrigin))
      throw new AppError('Forbidden', 'the sign-in is confirmed from this site only');
    const { k, csrf, action } = form ?? {};
    if (action !== 'continue' && action !== 'decline')
      throw new AppError('BadRequest', 'action must be continue or decline');
    const binding = this.cookies.read(req).signinBinding;
    const outcome =
      action === 'continue'
        ? await this.signin.confirm(k, binding, csrf)
        : await this.signin.decline(k, binding, csrf);
    if (typeof outcome === 'string') throw refused(outcome);
    applyRedirect(res, this.cookies, outcome);
  }
}

function expired(): AppError {
  return new AppError('InvalidLoginState', 'this sign-in link has expired or was already used');
}

function refused(reason: OfferRefusal): AppError {
  return reason === 'csrf'
    ? new AppError('Forbidden', 'the sign-in is confirmed from its own page only')
    : expired();
}
