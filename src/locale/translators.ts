import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import type { Locale } from '../shared/locale';
import type { Translate } from '../shared/translate';

/**
 * The one translator factory of the server (§7 translation files): `namespace.key`, `{name}`
 * placeholders, en-US where a locale lacks a key (nestjs-i18n's fallback). Pages, the error page and
 * the embedded IdP's steps all translate through it. One translator per locale, made once.
 */
@Injectable()
export class Translators {
  private readonly byLocale = new Map<Locale, Translate>();

  constructor(private readonly i18n: I18nService) {}

  for(locale: Locale): Translate {
    let t = this.byLocale.get(locale);
    if (!t) {
      t = (key, args) => String(this.i18n.t(key, { lang: locale, ...(args ? { args } : {}) }));
      this.byLocale.set(locale, t);
    }
    return t;
  }
}
