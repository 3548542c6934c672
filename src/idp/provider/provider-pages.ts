import { themeOfRequest } from '../../render/request-theme';
import { pooledRandomBytes } from '../../common/random-bytes';
import { createElement } from 'react';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { ProviderErrorPage } from '../../../views/signin/ProviderErrorPage';
import { AppError } from '../../errors/app-error';
import { escapeHtml } from '../../render/escape-html';
import type { PageRenderer } from '../../render/page-renderer';
import type { Locale } from '../../shared/locale';
import { journeyBrand, journeyLocale } from './journey-brand';
import type { EmbeddedIdpPages } from './embedded-idp';

function page(locale: Locale, title: string, body: string, extraHead = ''): string {
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(
    title,
  )}</title><link rel="stylesheet" href="/static/css/signin.css">${extraHead}</head><body><main id="main" class="signin-card">${body}</main></body></html>`;
}

/** The IdP's state store could not answer (Redis or its file is down): worth a retry, not a report. */
function isOutage(error: unknown): boolean {
  return error instanceof AppError && error.code === 'ServiceUnavailable';
}

/**
 * The few pages oidc-provider renders itself. Errors name the OAuth error code (for the integrating
 * team) and the request's reference (the x-request-id its log lines carry, embedded-idp.ts), but never
 * echo request values or stacks. An outage of the IdP's state store answers 503 and says to retry.
 * The error page shows the brand the authorization request named, when the provider got as far as
 * reading its parameters (issue 14 item 3), in the language of its ui_locales (item 2); the logout
 * pages know no brand and stay plain, in the language of the logout request's ui_locales.
 */
export function providerPages(
  pages: Pick<PageRenderer, 'frame' | 'framed' | 'translator'>,
): EmbeddedIdpPages {
  return {
    renderError: (ctx, out, error) => {
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-store');
      const code = typeof out.error === 'string' ? out.error : 'server_error';
      const outage = isOutage(error);
      if (outage) ctx.status = 503;
      // ctx.oidc is absent when the request failed before the provider took it up.
      const params = (ctx as Partial<KoaContextWithOIDC>).oidc?.params;
      const locale = journeyLocale(params);
      const t = pages.translator(locale);
      const advice = t(outage ? 'common.idp.adviceOutage' : 'common.idp.adviceRetry');
      const frame = {
        ...pages.frame(journeyBrand(params), locale, ctx.path ?? '/'),
        theme: themeOfRequest(ctx.req),
      };
      const page = pages.framed(
        frame,
        t('common.idp.errorDocumentTitle'),
        createElement(ProviderErrorPage, {
          t,
          frame,
          code,
          advice,
          ...(ctx.req.id ? { reference: String(ctx.req.id) } : {}),
        }),
      );
      ctx.set('Content-Security-Policy', page.csp);
      ctx.body = page.html;
    },
    // RP-initiated logout (issue 3): Okta signs out straight away, so the confirmation form is submitted
    // by a nonce'd script; without JavaScript the collector presses the button. Only a request that
    // names the session (id_token_hint) or a relying party's registered landing is submitted by
    // script: anyone else's link (a cross-site logout CSRF) waits for the collector's press
    // (issue 15 item 10; RP-Initiated Logout 1.0 §2 and §6).
    logoutSource: (ctx: KoaContextWithOIDC, form: string) => {
      const autoSubmit = mayAutoSubmitLogout(ctx);
      // In the language the sign-out was asked in: this service sends ui_locales (issue 14 item 2).
      const locale = journeyLocale(ctx.oidc.params);
      const t = pages.translator(locale);
      const nonce = pooledRandomBytes(16).toString('base64');
      ctx.set('Cache-Control', 'no-store');
      // form-action 'self' is enough here, though Chromium checks a post's whole redirect chain against
      // it (docs/design.md "Headers", src/render/form-action.ts): this post's chain ends on this
      // service's logout landing (the only registered post_logout_redirect_uri), a page that goes
      // on to the brand's `r` by a navigation of its own
      // (test/browser/first-signin-cross-origin.spec.ts).
      ctx.set(
        'Content-Security-Policy',
        `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
      );
      ctx.type = 'html';
      ctx.body = page(
        locale,
        t('common.idp.signingOutTitle'),
        `<h1>${escapeHtml(t('common.idp.signingOutHeading'))}</h1>${form.replace('</form>', '<input type="hidden" name="logout" value="yes"/></form>')}<div class="actions"><button class="button primary" type="submit" form="op.logoutForm">${escapeHtml(t('common.idp.signOutButton'))}</button></div>${autoSubmit ? `<script nonce="${nonce}">document.getElementById('op.logoutForm').submit()</script>` : ''}`,
      );
    },
    postLogoutSuccessSource: (ctx) => {
      const t = pages.translator(journeyLocale(ctx.oidc.params));
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = page(
        journeyLocale(ctx.oidc.params),
        t('common.idp.signedOutTitle'),
        `<h1>${escapeHtml(t('common.idp.signedOutHeading'))}</h1><p>${escapeHtml(t('common.idp.signedOutBody'))}</p>`,
      );
    },
  };
}

/**
 * Whether the logout confirmation may submit itself: the request carried an id_token_hint, or a
 * post_logout_redirect_uri registered for the client it named (oidc-provider has already checked
 * both against the client before showing this page).
 */
export function mayAutoSubmitLogout(ctx: Pick<KoaContextWithOIDC, 'oidc'>): boolean {
  const params = ctx.oidc?.params ?? {};
  if (typeof params.id_token_hint === 'string' && params.id_token_hint.length > 0) return true;
  const uri = params.post_logout_redirect_uri;
  const registered = ctx.oidc?.client?.postLogoutRedirectUris ?? [];
  return typeof uri === 'string' && registered.includes(uri);
}
