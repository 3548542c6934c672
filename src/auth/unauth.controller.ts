import { Controller, Get, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { parseBrandParam } from '../shared/brand-query';
import { AppError } from '../errors/app-error';
import { resolveLocale } from '../shared/locale';
import { PageRenderer } from '../render/page-renderer';
import { ROUTES, servicePath } from '../shared/routes';

/** §2, §8: the two values /unauthredirect takes. */
export const UNAUTH_ERRORS = ['Unauthorized', 'GoldinInvalidOktaSession'] as const;
type UnauthError = (typeof UNAUTH_ERRORS)[number];

/** §2 /unauthredirect: says what happened, in the collector's language, and offers to sign in again. */
@Controller()
export class UnauthController {
  constructor(private readonly pages: PageRenderer) {}

  @Get(ROUTES.unauthorized)
  show(@Query() query: Record<string, unknown>, @Res() res: Response): void {
    const error = query.error ?? 'Unauthorized';
    if (typeof error !== 'string' || !(UNAUTH_ERRORS as readonly string[]).includes(error)) {
      throw new AppError('BadRequest', `error must be one of ${UNAUTH_ERRORS.join(', ')}`);
    }
    const b = parseBrandParam(query.b);
    // The Goldin error names the auction brand; anything else keeps the brand asked for.
    const brand = error === 'GoldinInvalidOktaSession' ? 'goldin' : b.ok ? b.brand : 'collectors';
    const locale = resolveLocale({ l: query.l, lang: query.lang, brand });
    const t = this.pages.translator(locale);
    const again = new URLSearchParams({
      b: brand,
      ...(locale !== 'en-US' ? { lang: locale } : {}),
    });
    const html = this.pages.message(locale, brand, {
      title: t('common.unauth.title'),
      message: t(`common.unauth.${error as UnauthError}`),
      action: { href: servicePath('signin', again), label: t('common.unauth.signInAgain') },
      alert: true,
    });
    res
      .status(401)
      .set({ 'Cache-Control': 'no-store', 'Content-Type': 'text/html; charset=utf-8' })
      .send(html);
  }
}
