import { randomBytes } from 'node:crypto';
import { createElement } from 'react';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { ProviderErrorPage } from '../../../views/signin/ProviderErrorPage';
import { AppError } from '../../errors/app-error';
import { escapeHtml } from '../../render/escape-html';
import type { PageRenderer } from '../../render/page-renderer';
import { DEFAULT_LOCALE } from '../../shared/locale';
import { journeyBrand } from './journey-brand';
import type { EmbeddedIdpPages } from './embedded-idp';

function page(title: string, body: string, extraHead = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(
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
 * reading its parameters (issue 14 item 3); the logout pages know no brand and stay plain.
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
      const advice = outage
        ? 'The sign-in service is briefly unavailable. Please try again in a moment.'
        : 'Go back to the site you came from and try again.';
      // ctx.oidc is absent when the request failed before the provider took it up.
      const params = (ctx as Partial<KoaContextWithOIDC>).oidc?.params;
      const frame = pages.frame(journeyBrand(params), DEFAULT_LOCALE, ctx.path ?? '/');
      ctx.body = pages.framed(
        frame,
        'Sign-in error',
        createElement(ProviderErrorPage, {
          t: pages.translator(DEFAULT_LOCALE),
          frame,
          code,
          advice,
          ...(ctx.req.id ? { reference: String(ctx.req.id) } : {}),
        }),
      );
    },
    // RP-initiated logout (issue 3): Okta signs out straight away, so the confirmation form is submitted
    // by a nonce'd script; without JavaScript the collector presses the button.
    logoutSource: (ctx: KoaContextWithOIDC, form: string) => {
      const nonce = randomBytes(16).toString('base64');
      ctx.set('Cache-Control', 'no-store');
      ctx.set(
        'Content-Security-Policy',
        `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
      );
      ctx.type = 'html';
      ctx.body = page(
        'Signing out',
        `<h1>Signing you out</h1>${form.replace('</form>', '<input type="hidden" name="logout" value="yes"/></form>')}<div class="actions"><button class="button primary" type="submit" form="op.logoutForm">Sign out</button></div><script nonce="${nonce}">document.getElementById('op.logoutForm').submit()</script>`,
      );
    },
    postLogoutSuccessSource: (ctx) => {
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = page('Signed out', '<h1>You are signed out</h1><p>You can close this window.</p>');
    },
  };
}
