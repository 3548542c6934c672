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
import { I18nService } from 'nestjs-i18n';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Locale, legalAgreementUrl, normalizeLocale, resolveLocale } from '../../shared/locale';
import { NO_STORE_HEADERS } from '../../render/render-page';
import type { Translate } from '../../../views/translate';
import { InteractionService } from './interaction.service';

/**
 * The sign-in steps of the embedded IdP (§4), one URL per oidc-provider interaction. GET shows the
 * current step; POST submits it (post/redirect/get on success, the same page with errors and a 400
 * otherwise). Works without JavaScript.
 */
@Controller('idp/signin')
export class InteractionController {
  constructor(
    private readonly interactions: InteractionService,
    private readonly i18n: I18nService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':uid')
  async show(
    @Param('uid') uid: string,
    @Query('lang') lang: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const page = await this.interactions.show(uid, req, res, (ui) => this.page(lang, ui));
    if (page) this.send(res, page.status, page.html);
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
    const page = await this.interactions.submit(uid, body ?? {}, req, res, (ui) =>
      this.page(lang, ui),
    );
    if (page) this.send(res, page.status, page.html);
  }

  private page(lang: unknown, uiLocales: string | undefined): PageContext {
    const fromIdp = uiLocales?.split(' ').map(normalizeLocale).find(Boolean);
    const locale = resolveLocale({ lang: lang ?? fromIdp });
    const t: Translate = (key, args) =>
      this.i18n.t(key, { lang: locale, ...(args ? { args } : {}) });
    return {
      locale,
      t,
      termsUrl: legalAgreementUrl(this.config.services.cidRouter, locale),
      langQuery:
        typeof lang === 'string' && normalizeLocale(lang) ? `?lang=${normalizeLocale(lang)}` : '',
    };
  }

  private send(res: Response, status: number, html: string): void {
    res
      .status(status)
      .set({ ...NO_STORE_HEADERS, 'Content-Type': 'text/html; charset=utf-8' })
      .send(html);
  }
}

export interface PageContext {
  readonly locale: Locale;
  readonly t: Translate;
  readonly termsUrl: string;
  /** Keeps an explicit ?lang= across the post/redirect/get hops. */
  readonly langQuery: string;
}
