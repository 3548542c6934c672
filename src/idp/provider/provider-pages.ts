import { randomBytes } from 'node:crypto';
import { AppError } from '../../errors/app-error';
import { escapeHtml } from '../../render/escape-html';
import type { KoaContextWithOIDC } from 'oidc-provider';
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
 */
export const PROVIDER_PAGES: EmbeddedIdpPages = {
  renderError: (ctx, out, error) => {
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    const code = typeof out.error === 'string' ? out.error : 'server_error';
    const outage = isOutage(error);
    if (outage) ctx.status = 503;
    const advice = outage
      ? 'The sign-in service is briefly unavailable. Please try again in a moment.'
      : 'Go back to the site you came from and try again.';
    const reference = ctx.req.id ? `<p>Reference: <code>${escapeHtml(ctx.req.id)}</code></p>` : '';
    ctx.body = page(
      'Sign-in error',
      `<h1>Sign-in could not continue</h1><p role="alert">Error: <code>${escapeHtml(code)}</code></p><p>${advice}</p>${reference}`,
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
