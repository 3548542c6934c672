import { ExecutionContext, Injectable } from '@nestjs/common';
import type { I18nResolver } from 'nestjs-i18n';
import { parseBrandParam } from '../brand/brand-query';
import { resolveLocale } from './locale';

/** Header the browser client sends on API calls (§7 "Requests carry a locale header"). */
export const LOCALE_HEADER = 'x-locale';

/**
 * nestjs-i18n resolver applying §5: `l`, then `lang`, then the brand in `b`, then the locale header
 * of API calls, else en-US. Accept-Language is never read (§1).
 */
@Injectable()
export class QueryLocaleResolver implements I18nResolver {
  resolve(context: ExecutionContext): string | undefined {
    if (context.getType() !== 'http') return undefined;
    const req = context
      .switchToHttp()
      .getRequest<{ query?: Record<string, unknown>; headers: Record<string, unknown> }>();
    const query = req.query ?? {};
    const brand = parseBrandParam(query.b);
    return resolveLocale({
      l: query.l,
      lang: query.lang ?? req.headers[LOCALE_HEADER],
      ...(brand.ok ? { brand: brand.brand } : {}),
    });
  }
}
