import { Module } from '@nestjs/common';
import { I18nJsonLoader, I18nModule } from 'nestjs-i18n';
import { LOCALES_DIR } from '../config/project-paths';
import { DEFAULT_LOCALE } from './locale';
import { RequestLocaleResolver } from './request-locale';

/**
 * Translations from locales/{locale}/{namespace}.json (§7), keys addressed as `namespace.key`.
 * Files are read once at start; missing keys fall back to en-US. The per-request middleware is off:
 * pages resolve their locale with localeOfRequest (§5) and pass it to I18nService.t, so requests that
 * render no text (redirects, probes, the IdP) pay nothing for i18n.
 */
@Module({
  imports: [
    I18nModule.forRoot({
      fallbackLanguage: DEFAULT_LOCALE,
      loader: I18nJsonLoader,
      loaderOptions: { path: LOCALES_DIR, watch: false },
      resolvers: [RequestLocaleResolver],
      disableMiddleware: true,
      // No AsyncLocalStorage context per request: nothing reads I18nContext.current().
      skipAsyncHook: true,
      logging: false,
    }),
  ],
})
export class LocaleModule {}
