import { themeOfRequest } from '../../render/request-theme';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { Translators } from '../../locale/translators';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { legalAgreementUrl, normalizeLocale, resolveLocale } from '../../shared/locale';
import { sendPage } from '../../render/send-page';
import { EmbeddedIdp } from '../provider/embedded-idp';
import { InteractionOutcome, InteractionService } from './interaction.service';
import type { PageContext } from './page-context';
import { ROUTES } from '../../shared/routes';
import { RateLimited } from '../../rate-limit/rate-limit.guard';

/**
 * The sign-in steps of the embedded IdP (§4), one URL per oidc-provider interaction. GET shows the
 * current step; POST submits it (post/redirect/get on success, the same page with errors and a 400
 * otherwise). Works without JavaScript.
 */
@Controller(ROUTES.idpSteps)
@RateLimited()
export class InteractionController {
  constructor(
    private readonly interactions: InteractionService,
    private readonly idp: EmbeddedIdp,
    private readonly translators: Translators,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':uid')
  async show(
    @Param('uid') uid: string,
    @Query('lang') lang: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const outcome = await this.interactions.show(uid, this.idp.interaction(req, res), (ui) =>
      this.page(lang, ui, req),
    );
    this.apply(res, outcome);
  }

  @Post(':uid')
  @HttpCode(303)
  async submit(
    @Param('uid') uid: string,
    @Query('lang') lang: unknown,
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const outcome = await this.interactions.submit(
      uid,
      body ?? {},
      this.idp.interaction(req, res),
      (ui) => this.page(lang, ui, req),
    );
    this.apply(res, outcome);
  }

  private page(lang: unknown, uiLocales: string | undefined, req: Request): PageContext {
    const fromIdp = uiLocales?.split(' ').map(normalizeLocale).find(Boolean);
    const locale = resolveLocale({ lang: lang ?? fromIdp });
    const t = this.translators.for(locale);
    return {
      locale,
      t,
      termsUrl: legalAgreementUrl(this.config.services.cidRouter, locale),
      langQuery:
        typeof lang === 'string' && normalizeLocale(lang) ? `?lang=${normalizeLocale(lang)}` : '',
      // §4 Other: the theme cookie, read as the shell reads it, so the steps look like the shell.
      theme: themeOfRequest(req),
    };
  }

  private apply(res: Response, outcome: InteractionOutcome): void {
    switch (outcome.kind) {
      case 'page':
        sendPage(res, outcome.status, outcome);
        return;
      case 'next-step':
        // Post/redirect/get to the same interaction's next step.
        res.redirect(303, outcome.location);
        return;
      case 'answered-by-provider':
        return;
    }
  }
}
