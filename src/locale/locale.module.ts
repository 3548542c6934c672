import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { I18nJsonLoader, I18nModule } from 'nestjs-i18n';
import { LOCALES_DIR } from '../config/project-paths';
import { DEFAULT_LOCALE } from '../shared/locale';
import { RequestLocaleResolver } from './request-locale-resolver';
import { Translators } from './translators';

/**
 * nestjs-i18n always registers a global interceptor that stores the request's language in an
 * I18nContext. Nothing here reads that context: pages resolve their locale with localeOfRequest (§5)
 * and pass it to I18nService.t. A global interceptor makes Nest wrap every request in async-resource
 * bindings, which cost more than half the throughput of a redirect (npm run bench), so it is left out.
 */
function withoutGlobalInterceptor(module: DynamicModule): DynamicModule {
  const isInterceptor = (p: Provider) =>
    typeof p === 'object' && 'provide' in p && p.provide === APP_INTERCEPTOR;
  return { ...module, providers: (module.providers ?? []).filter((p) => !isInterceptor(p)) };
}

/**
 * Translations from locales/{locale}/{namespace}.json (§7), keys addressed as `namespace.key`.
 * Files are read once at start; missing keys fall back to en-US.
 */
@Global()
@Module({
  providers: [Translators],
  exports: [Translators],
  imports: [
    withoutGlobalInterceptor(
      I18nModule.forRoot({
        fallbackLanguage: DEFAULT_LOCALE,
        loader: I18nJsonLoader,
        loaderOptions: { path: LOCALES_DIR, watch: false },
        resolvers: [RequestLocaleResolver],
        disableMiddleware: true,
        skipAsyncHook: true,
        logging: false,
      }),
    ),
  ],
})
export class LocaleModule {}
