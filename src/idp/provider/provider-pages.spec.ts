import type { I18nService } from 'nestjs-i18n';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { testConfig } from '../../../test/support/test-config';
import { redirectPolicyFromConfig } from '../../brand/redirect-policy';
import { AppError } from '../../errors/app-error';
import { Translators } from '../../locale/translators';
import { PageRenderer } from '../../render/page-renderer';
import { providerPages } from './provider-pages';

/** Translations are not under test here: every key reads as itself. */
const translators = new Translators({ t: (key: string) => key } as unknown as I18nService);
const config = testConfig();
const pages = providerPages(
  new PageRenderer(
    translators,
    config,
    {
      script: '/static/app/app.js',
      preload: [],
      criticalCss: 'body{margin:0}',
      pageCriticalCss: 'body{margin:0}',
      nudgeCss: '.app-nudge{display:flex}',
      deferredStyles: ['/static/app/deferred.css'],
    },
    redirectPolicyFromConfig(config),
  ),
);

function fakeContext(requestId?: string, params?: Record<string, unknown>, cookie?: string) {
  const headers: Record<string, string> = {};
  const ctx = {
    status: 400,
    type: '',
    body: '',
    path: '/oauth2/default/v1/authorize',
    req: { id: requestId, headers: cookie ? { cookie } : {} },
    ...(params ? { oidc: { params } } : {}),
    set: (name: string, value: string) => {
      headers[name] = value;
    },
  };
  return { ctx, headers, as: ctx as unknown as KoaContextWithOIDC };
}

describe('providerPages().renderError', () => {
  it('names the OAuth error and the reference, escaped, and is never stored', async () => {
    const { ctx, headers, as } = fakeContext('req-1234abcd');
    await pages.renderError(as, { error: 'invalid_request<script>' }, new Error('x'));
    expect(ctx.status).toBe(400);
    expect(headers['Cache-Control']).toBe('no-store');
    expect(ctx.body).toContain('<code>invalid_request&lt;script&gt;</code>');
    expect(ctx.body).not.toContain('<script>');
    // Texts are keys here (identity translator); the words are checked in the journeys.
    expect(ctx.body).toContain(
      'common.idp.referenceLabel<!-- --> <code class="reference-id">req-1234abcd</code>',
    );
    expect(ctx.body).toContain('common.idp.adviceRetry');
  });

  it.each([
    ['theme=dark', 'theme-dark'],
    ['theme=light', 'theme-light'],
    [undefined, 'theme-light'],
  ])('follows the theme cookie (%s): <html class="%s">', async (cookie, htmlClass) => {
    const { ctx, as } = fakeContext('req-1', undefined, cookie);
    await pages.renderError(as, { error: 'invalid_request' }, new Error('x'));
    expect(ctx.body).toMatch(new RegExp(`<html[^>]* class="${htmlClass}"`));
  });

  it('answers 503 and says to retry when its state store is down', async () => {
    const { ctx, as } = fakeContext('req-5678efgh');
    const outage = new AppError('ServiceUnavailable', 'the embedded IdP state store is down');
    await pages.renderError(as, { error: 'server_error' }, outage);
    expect(ctx.status).toBe(503);
    expect(ctx.body).toContain('common.idp.adviceOutage');
    expect(ctx.body).not.toContain('state store is down');
  });

  it('leaves the reference out when the request has no id', async () => {
    const { ctx, as } = fakeContext();
    await pages.renderError(as, { error: 'server_error' }, new Error('x'));
    expect(ctx.body).not.toContain('common.idp.referenceLabel');
  });

  // Issue 14 item 2: the language of the request's ui_locales, else en-US.
  it.each([
    ['fr-CA', 'fr-CA'],
    ['de-DE ja-JP', 'ja-JP'],
    ['xx', 'en-US'],
  ])('ui_locales %s: the page is %s', async (uiLocales, lang) => {
    const { ctx, as } = fakeContext('req-1', { ui_locales: uiLocales });
    await pages.renderError(as, { error: 'invalid_request' }, new Error('x'));
    expect(String(ctx.body)).toContain(`<html lang="${lang}"`);
  });

  // Issue 14 item 3: the brand the authorization request named, else collectors.
  it.each([
    ['the request named pcgs', { brand: 'pcgs' }, 'pcgs', 'legal'],
    ['the request named psajapan', { brand: 'psajapan' }, 'psa', 'legal'],
    ['the request named powerpacks', { brand: 'powerpacks' }, 'collectors', 'powerpacks'],
    ['the request named no brand of ours', { brand: 'PCGS<x>' }, 'collectors', 'legal'],
    ['the provider read no parameters', undefined, 'collectors', 'legal'],
  ])('%s: that logo, favicon and footer', async (_case, params, mark, footer) => {
    const { ctx, as } = fakeContext('req-1', params);
    await pages.renderError(as, { error: 'invalid_request' }, new Error('x'));
    const body = String(ctx.body);
    expect(body).toContain(`<link rel="icon" href="/static/brand/favicon-${mark}.svg"`);
    expect(body).toMatch(
      new RegExp(
        `<img class="simple-site-header__logo" src="/static/brand/logo-${mark}-color.svg"`,
      ),
    );
    expect(body).toContain(`class="site-footer site-footer--${footer}"`);
  });
});
