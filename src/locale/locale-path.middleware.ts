import type { IncomingMessage, ServerResponse } from 'node:http';
import { splitLocalePath } from '../shared/locale';
import type { Locale } from '../shared/locale';
import { LOCALIZED_PAGES, ROUTES } from '../shared/routes';

/** The request as this middleware leaves it: the locale its path named, if any. */
export interface LocalizedRequest {
  /** Set when the path began with a locale prefix (§2 "Locale path rule"). */
  pathLocale?: Locale;
}

const PAGES: ReadonlySet<string> = new Set(LOCALIZED_PAGES.map((name) => ROUTES[name]));

/**
 * §2 "Locale path rule" on the way in: `/fr-CA/collection` is answered by the /collection route in
 * fr-CA. The prefix is taken off `req.url` (what the router matches) and kept as `pathLocale`, which
 * localeOfRequest reads first; `req.originalUrl` keeps it, so the §2 shell redirect's `r` and the
 * page's own links stay in the collector's language. Only LOCALIZED_PAGES take a prefix: every other
 * path is left as it came, so `/fr-CA/signin` stays a 404 rather than a second address (in French).
 */
export function localePathPrefix() {
  return (
    req: IncomingMessage & LocalizedRequest,
    _res: ServerResponse,
    next: () => void,
  ): void => {
    const split = splitLocalePath(req.url ?? '');
    if (split) {
      const query = split.rest.indexOf('?');
      const path = query === -1 ? split.rest : split.rest.slice(0, query);
      // Any path's prefix says the language, so a mistyped `/ja-JP/…` gets its 404 in Japanese
      // (issue 33); only a page's prefix is taken off for the router.
      req.pathLocale = split.locale;
      if (PAGES.has(path)) req.url = split.rest;
    }
    next();
  };
}
