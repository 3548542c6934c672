import { Injectable } from '@nestjs/common';
import { createElement } from 'react';
import { MessagePage } from '../../views/MessagePage';
import type { Translate } from '../shared/translate';
import { Brand } from '../shared/brand';
import { BRAND_DEFINITIONS } from '../shared/brand-definitions';
import { faviconPath, logoPath } from '../shared/brand';
import type { Locale } from '../shared/locale';
import { Translators } from '../locale/translators';
import { renderPage } from './render-page';

/** Server-rendered pages that need translations and the brand's logo and favicon (§2). */
@Injectable()
export class PageRenderer {
  constructor(private readonly translators: Translators) {}

  translator(locale: Locale): Translate {
    return this.translators.for(locale);
  }

  message(
    locale: Locale,
    brand: Brand,
    content: {
      title: string;
      message: string;
      action: { href: string; label: string };
      alert: boolean;
    },
  ): string {
    const t = this.translator(locale);
    const def = BRAND_DEFINITIONS[brand];
    return renderPage(
      createElement(MessagePage, {
        t,
        ...content,
        logo: { src: logoPath(def.logo, 'color'), alt: t(`header.logoAlt.${def.logo}`) },
      }),
      {
        lang: locale,
        title: content.title,
        faviconHref: faviconPath(def.favicon),
        stylesheets: ['/static/css/signin.css'],
      },
    );
  }
}
