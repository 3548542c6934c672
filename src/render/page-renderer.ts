import { pooledRandomBytes } from '../common/random-bytes';
import { Inject, Injectable } from '@nestjs/common';
import { createElement, type ReactElement } from 'react';
import { type MessageAction, MessagePage } from '../../views/MessagePage';
import { TokenSigninPage, type TokenSigninPageProps } from '../../views/TokenSigninPage';
import { brandFavicon } from '../../views/shell/header/header-brand';
import type { PageFrameData, Theme } from '../../views/shell/shell-data';
import { REDIRECT_POLICY } from '../brand/brand.module';
import type { RedirectPolicy } from '../brand/redirect-policy';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { Translate } from '../shared/translate';
import { Brand, faviconPath } from '../shared/brand';
import type { Locale } from '../shared/locale';
import { Translators } from '../locale/translators';
import { CLIENT_ASSETS, type ClientAssets } from './client-assets';
import { pageCsp } from './csp';
import { formActionSources } from './form-action';
import { type FramedPage, renderPage } from './render-page';

/** What a message page says; the frame (logo, favicon, footer) comes from the brand. */
export interface MessageContent {
  readonly title: string;
  readonly message: string;
  /**
   * A link, or a form posted to this service (docs/security.md, sign-out CSRF: a sign-out to
   * confirm).
   */
  readonly action?: MessageAction;
  /** A second, quieter way on (a link under the button). */
  readonly secondary?: { readonly href: string; readonly label: string };
  readonly alert: boolean;
  /** The document's <title> when it differs from the heading. */
  readonly documentTitle?: string;
  /** This page's path, for the footer's current-page marks; `/` when not given. */
  readonly currentPath?: string;
  /** The collector's theme (the shell's theme cookie, §4 Other); light when not given. */
  readonly theme?: Theme;
}

/**
 * Server-rendered pages without the shell's hydration (message pages, the IdP's sign-in steps and
 * error pages), in the frame of the brand the collector came from: its logo in the simple header, its
 * favicon and the legal footer (§2, issue 14 item 3).
 */
@Injectable()
export class PageRenderer {
  /** The shell's first-paint rules and signin.css after them (its header and footer rules win). */
  private readonly css: string;
  private readonly https: boolean;
  /**
   * The form-action sources of these pages (docs/design.md "Headers"): the IdP's sign-in steps post
   * forms whose redirect chains end at a brand, and Chromium checks every hop against this
   * directive (./form-action.ts). Worked out once, at start, from the one redirect policy.
   */
  private readonly formAction: readonly string[];

  constructor(
    private readonly translators: Translators,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLIENT_ASSETS) assets: ClientAssets,
    @Inject(REDIRECT_POLICY) policy: RedirectPolicy,
  ) {
    this.css = assets.pageCriticalCss;
    this.https = config.http.publicUrl.startsWith('https:');
    this.formAction = formActionSources(policy);
  }

  translator(locale: Locale): Translate {
    return this.translators.for(locale);
  }

  /** What the simple header and the footer of a page for `brand` in `locale` read. */
  frame(brand: Brand, locale: Locale, currentPath: string): PageFrameData {
    return {
      brand,
      locale,
      env: this.config.env,
      services: this.config.services,
      currentPath,
      year: new Date().getUTCFullYear(),
    };
  }

  /**
   * The document around a framed page: its language, title and the brand's favicon; its styles inline
   * under a fresh nonce, and the policy that allows them, with its one inline script if it has one
   * (a sign-in step's, which says which fields are empty before a post). The theme
   * class goes on <html>, as on the shell's pages (§4 Other): the frame's own class colours only the
   * frame, and the canvas around it, overscroll and the scrollbar follow the root element's.
   */
  framed(
    frame: PageFrameData,
    title: string,
    body: ReactElement,
    inlineScript?: string,
  ): FramedPage {
    const nonce = pooledRandomBytes(16).toString('base64');
    const html = renderPage(body, {
      lang: frame.locale,
      htmlClass: `theme-${frame.theme ?? 'light'}`,
      title,
      faviconHref: faviconPath(brandFavicon(frame.brand)),
      criticalCss: { css: this.css, nonce },
      ...(inlineScript ? { inlineScript } : {}),
    });
    return { html, csp: pageCsp(nonce, { https: this.https, formAction: this.formAction }) };
  }

  message(locale: Locale, brand: Brand, content: MessageContent): FramedPage {
    const t = this.translator(locale);
    const frame = {
      ...this.frame(brand, locale, content.currentPath ?? '/'),
      ...(content.theme ? { theme: content.theme } : {}),
    };
    return this.framed(
      frame,
      content.documentTitle ?? content.title,
      createElement(MessagePage, {
        t,
        frame,
        title: content.title,
        message: content.message,
        alert: content.alert,
        ...(content.action ? { action: content.action } : {}),
        ...(content.secondary ? { secondary: content.secondary } : {}),
      }),
    );
  }

  /**
   * The page that asks before a cross-site `t` signs this browser in (docs/security.md: login CSRF
   * through `t`, a look-alike account, the offer key): the account in full and a form whose two
   * buttons post back to it.
   */
  tokenSignin(
    locale: Locale,
    brand: Brand,
    content: Pick<TokenSigninPageProps, 'account' | 'form'> & {
      readonly currentPath: string;
      readonly theme?: Theme;
    },
  ): FramedPage {
    const t = this.translator(locale);
    const frame = {
      ...this.frame(brand, locale, content.currentPath),
      ...(content.theme ? { theme: content.theme } : {}),
    };
    return this.framed(
      frame,
      t('common.tokenSignin.title'),
      createElement(TokenSigninPage, { t, frame, account: content.account, form: content.form }),
    );
  }
}
