import { themeOfRequest } from './request-theme';
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { I18nService } from 'nestjs-i18n';
import { AppLogger } from '../logging/app-logger';
import { pooledRandomBytes } from '../common/random-bytes';
import { createElement } from 'react';
import { PageRoot } from '../../views/pages/PageRoot';
import { scriptSafeJson } from '../../views/Document';
import { commonSectionsOf, type ShellData } from '../../views/shell/shell-data';
import { brandFavicon } from '../../views/shell/header/header-brand';
import { mobilePlatform } from '../../views/shell/nudge/nudge-timing';
import { NUDGE_SEEN_SCRIPT } from '../../views/shell/nudge/nudge-seen-script';
import { createTranslate } from '../shared/translate';
import { Brand, DEFAULT_BRAND, faviconPath } from '../shared/brand';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { NAMESPACES, type Locale } from '../shared/locale';
import { localeOfRequest } from '../locale/request-locale-resolver';
import { sameOriginPath } from '../shared/routes';
import type { AuthUserState } from '../shared/shell-guard';
import { CLIENT_ASSETS, type ClientAssets } from './client-assets';
import { pageCsp } from './csp';
import { sendPage } from './send-page';
import { renderPage } from './render-page';

export interface ShellPageOptions {
  /** The page component's name in views/pages/registry.ts. */
  readonly page: string;
  /** A common.* key for the document title. */
  readonly titleKey: string;
  /**
   * The brand whose favicon and logos the page shows: the session's on signed-in pages, `b` on the
   * error page; collectors when absent.
   */
  readonly brand?: Brand;
  readonly referrerBrand?: Brand;
  /** The page's language when the request does not carry it (an error of a journey); else §5's. */
  readonly locale?: Locale;
  readonly account?: AuthUserState;
  /** The session's §3 promptMfaSignin (issue 14 item 6), for the browser to store. */
  readonly promptMfaSignin?: 'false';
  readonly props?: Readonly<Record<string, unknown>>;
  readonly status?: number;
}

/**
 * Renders the hydrated shell pages (issue 6): the views/ tree from one serialisable ShellData, inside
 * the document with the bundle, the data for hydration and a per-request CSP nonce. Personalised, so
 * never cached. A render that throws becomes the error page with a correlation id (§8).
 */
@Injectable()
export class ShellRenderer {
  private readonly https: boolean;
  private readonly messageCache = new Map<
    string,
    { readonly messages: ShellData['messages']; readonly json: string }
  >();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLIENT_ASSETS) private readonly assets: ClientAssets,
    private readonly i18n: I18nService,
    private readonly logger: AppLogger,
  ) {
    this.https = config.http.publicUrl.startsWith('https:');
    this.logger.setContext('ShellRenderer');
  }

  /**
   * The translations a shell page renders with (§7 namespaces; of common only the shell's sections
   * and the page's own, commonSectionsOf), and their script-safe JSON, computed once per locale and
   * page: the locale files do not change while the process runs.
   */
  messages(
    locale: Locale,
    page: string,
  ): { readonly messages: ShellData['messages']; readonly json: string } {
    const key = `${locale}/${page}`;
    let cached = this.messageCache.get(key);
    if (!cached) {
      const all = this.i18n.getTranslations() as Record<string, Record<string, unknown>>;
      const own = all[locale] ?? {};
      const messages = Object.fromEntries(
        NAMESPACES.map((ns) => {
          const tree = (own[ns] ?? {}) as Record<string, unknown>;
          return [ns, ns === 'common' ? pickSections(tree, commonSectionsOf(page)) : tree];
        }),
      );
      cached = { messages, json: scriptSafeJson(messages) };
      this.messageCache.set(key, cached);
    }
    return cached;
  }

  data(req: Request, options: ShellPageOptions): ShellData {
    const locale = options.locale ?? localeOfRequest(req);
    const theme = themeOfRequest(req);
    return {
      page: options.page,
      locale,
      env: this.config.env,
      brand: options.brand ?? DEFAULT_BRAND,
      ...(options.referrerBrand ? { referrerBrand: options.referrerBrand } : {}),
      theme,
      services: this.config.services,
      features: this.config.features,
      currentPath: req.originalUrl,
      year: new Date().getUTCFullYear(),
      ...(options.account ? { account: options.account } : {}),
      ...(options.promptMfaSignin ? { promptMfaSignin: options.promptMfaSignin } : {}),
      messages: this.messages(locale, options.page).messages,
      ...(options.props ? { props: options.props } : {}),
      ...appNudgeOf(req),
    };
  }

  render(req: Request, res: Response, options: ShellPageOptions): void {
    const data = this.data(req, options);
    let html: string;
    let status = options.status ?? 200;
    const nonce = pooledRandomBytes(16).toString('base64');
    try {
      html = this.html(data, options.titleKey, nonce);
    } catch (error) {
      // §8 "Unhandled render error": logged with its message and path; the page shows the id.
      const correlationId =
        typeof req.id === 'string' ? req.id : pooledRandomBytes(8).toString('hex');
      this.logger.error(
        { err: error, correlationId, path: req.path, page: options.page },
        'render error',
      );
      const errorData: ShellData = {
        ...data,
        page: 'error',
        // A path on this site only, however the request was written (issue 15 item 6).
        props: { correlationId, retryHref: sameOriginPath(req.originalUrl) },
      };
      html = this.html(errorData, 'errorPage.header', nonce);
      status = 500;
    }
    sendPage(res, status, { html, csp: pageCsp(nonce, { https: this.https }) });
  }

  /** The page data as script-safe JSON, with the (large, per-locale) messages spliced in ready-made. */
  private dataJson(data: ShellData): string {
    const { messages: _messages, ...rest } = data;
    const head = scriptSafeJson(rest);
    return `${head.slice(0, -1)},"messages":${this.messages(data.locale, data.page).json}}`;
  }

  private html(data: ShellData, titleKey: string, nonce: string): string {
    const t = createTranslate(data.messages);
    return renderPage(createElement(PageRoot, { data }), {
      lang: data.locale,
      title: t(`common.${titleKey}`),
      faviconHref: faviconPath(brandFavicon(data.brand)),
      criticalCss: {
        css: data.appNudge
          ? this.assets.criticalCss + this.assets.nudgeCss
          : this.assets.criticalCss,
        nonce,
      },
      ...(data.appNudge ? { headScript: NUDGE_SEEN_SCRIPT } : {}),
      htmlClass: `theme-${data.theme}`,
      hydration: { nonce, dataJson: this.dataJson(data), script: this.assets.script },
      preload: this.assets.preload,
      deferredStyles: this.assets.deferredStyles,
    });
  }
}

/**
 * §2 Mobile-app nudge: the platform a phone's user agent names, so the page is drawn with the nudge
 * at its top (the browser hides it before the first paint when it was shown in the last 168 hours).
 * A device the user agent alone does not tell (an iPad asking for desktop sites) gets none: drawn
 * after the first paint, the banner would push the page down under the collector's finger.
 */
function appNudgeOf(req: Request): Pick<ShellData, 'appNudge'> {
  const platform = mobilePlatform(req.headers['user-agent'] ?? '');
  return platform ? { appNudge: platform } : {};
}

/** The named sections of a namespace's tree; `section.key` takes one text of a section. */
function pickSections(
  tree: Record<string, unknown>,
  names: readonly string[],
): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const name of names) {
    const [section = '', key] = name.split('.');
    if (key === undefined) {
      picked[section] = tree[section];
      continue;
    }
    const texts = (tree[section] ?? {}) as Record<string, unknown>;
    picked[section] = { ...(picked[section] as Record<string, unknown>), [key]: texts[key] };
  }
  return picked;
}
