import { ExecutionContext, Injectable } from '@nestjs/common';
import type { I18nResolver } from 'nestjs-i18n';
import { parseBrandParam } from '../shared/brand-query';
import { Locale, resolveLocale } from '../shared/locale';

/** Header the browser client sends on API calls (§7 "Requests carry a locale header"). */
import { LOCALE_HEADER } from '../shared/api-wire';

export { LOCALE_HEADER };

/**
 * §5 for any request: a locale path prefix (`/fr-CA/collection`, §2 "Locale path rule", taken off by
 * locale-path.middleware.ts), then `l`, then `lang`, then the brand in `b`, then the locale header of
 * API calls, else en-US. Accept-Language is never read (§1). Computed on demand where text is
 * rendered, rather than by a middleware on every request.
 */
export function localeOfRequest(req: {
  query?: unknown;
  headers: Record<string, unknown>;
  pathLocale?: Locale;
}): Locale {
  if (req.pathLocale) return req.pathLocale;
  const query = (typeof req.query === 'object' && req.query !== null ? req.query : {}) as Record<
    string,
    unknown
  >;
  const brand = parseBrandParam(query.b);
  return resolveLocale({
    l: query.l,
    lang: query.lang ?? req.headers[LOCALE_HEADER],
    ...(brand.ok ? { brand: brand.brand } : {}),
  });
}

/**
 * nestjs-i18n wants a resolver for its per-request interceptor; this one applies the same §5 rule,
 * so `I18nContext` (where anything uses it) agrees with the pages.
 */
@Injectable()
export class RequestLocaleResolver implements I18nResolver {
  resolve(context: ExecutionContext): string | undefined {
    if (context.getType() !== 'http') return undefined;
    return localeOfRequest(
      context.switchToHttp().getRequest<{ query?: unknown; headers: Record<string, unknown> }>(),
    );
  }
}
