import { Module } from '@nestjs/common';
import { I18nJsonLoader, I18nModule } from 'nestjs-i18n';
import { LOCALES_DIR } from '../config/project-paths';
import { DEFAULT_LOCALE } from './locale';
import { QueryLocaleResolver } from './query-locale.resolver';

/**
 * Translations from locales/{locale}/{namespace}.json (§7), keys addressed as `namespace.key`.
 * Files are read once at start; missing keys fall back to en-US.
 */
@Module({
  imports: [
    I18nModule.forRoot({
      fallbackLanguage: DEFAULT_LOCALE,
      loader: I18nJsonLoader,
      loaderOptions: { path: LOCALES_DIR, watch: false },
      resolvers: [QueryLocaleResolver],
      logging: false,
    }),
  ],
})
export class LocaleModule {}
