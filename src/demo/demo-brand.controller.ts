import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import { escapeHtml } from '../render/escape-html';
import type { Response } from 'express';
import { isBrand } from '../shared/brand';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AppError } from '../errors/app-error';
import { TOKEN_PROBLEM_MESSAGES, TokenVerifier } from '../token/token-verifier';
import { ROUTES } from '../shared/routes';

/**
 * A stand-in brand site for local and dev (issue 4, item 11): brand redirects land here by default,
 * so the whole journey is visible on one machine. It does what a brand must do: verify the received
 * access token against the IdP's JWKS, or exchange a one-time handoff code server-to-server with the
 * brand's credentials. It shows claims, never the tokens themselves.
 */
@Controller(ROUTES.demoBrand)
export class DemoBrandController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly verifier: TokenVerifier,
  ) {}

  @Get(':brand')
  async land(
    @Param('brand') brand: string,
    @Query() query: Record<string, unknown>,
    @Res() res: Response,
  ): Promise<void> {
    if (!isBrand(brand)) throw new AppError('NotFound', 'no such brand');
    let token = typeof query.t === 'string' ? query.t : undefined;
    let how = 'access token in the URL (t)';
    if (typeof query.code === 'string') {
      how = 'one-time handoff code, exchanged server-to-server';
      token = await this.exchange(brand, query.code);
    }
    // A missing token (no t, an empty t, or a code that gave none) is refused by the verifier too, so
    // the page says what §8 says for it.
    const check = await this.verifier.verify(token);
    const rows: [string, unknown][] = check.ok
      ? [
          ['CollectorsId', check.claims.CollectorsId],
          ['NavisionId', check.claims.NavisionId],
          // A brand keys on `uid`, the user id; `sub` is the login (docs/brand-contract.md).
          ['uid', check.claims.uid],
          ['sub', check.claims.sub],
          ['client (cid)', check.claims.cid],
          ['scopes (scp)', (check.claims.scp ?? []).join(' ')],
          ['expires', new Date(check.claims.exp * 1000).toISOString()],
        ]
      : [];
    const status = check.ok
      ? 'Signed in: the token verified against the IdP keys.'
      : check.reason === 'missing'
        ? `No token was received: ${TOKEN_PROBLEM_MESSAGES.missing}.`
        : `The token did not verify: ${TOKEN_PROBLEM_MESSAGES[check.reason]}.`;
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Demo brand: ${escapeHtml(brand)}</title><link rel="stylesheet" href="/static/css/signin.css"></head>
<body><main id="main" class="signin-card"><h1>Demo brand site: ${escapeHtml(this.config.brands[brand].companyName)} (${escapeHtml(brand)})</h1>
<p>This page stands in for the brand’s own site in local and dev, in English: it is a developer’s view of what the brand received. What a real brand site receives and must check is the brand contract (docs/brand-contract.md); a site to copy is examples/brand-site.</p>
<p role="status" data-testid="status">${escapeHtml(status)}</p><p>Received by: ${escapeHtml(how)}. Session id (si): ${query.si ? 'received' : 'none'}. Refresh token (rt): ${query.rt ? 'received' : 'none'}.</p>
<table><tbody>${rows.map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td data-claim="${escapeHtml(k)}">${escapeHtml(v ?? '')}</td></tr>`).join('')}</tbody></table>
${typeof query.r === 'string' ? `<p>The brand would now continue to: <code>${escapeHtml(query.r)}</code></p>` : ''}
<p><a class="button secondary" href="/logout/collectorsid?b=${escapeHtml(brand)}">Sign out</a></p></main></body></html>`;
    res
      .status(200)
      .set({
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
        'Content-Type': 'text/html; charset=utf-8',
      })
      .send(html);
  }

  /** What a brand back end does with a handoff code: POST it with its client credentials. */
  private async exchange(brand: string, code: string): Promise<string | undefined> {
    const credentials = this.config.brandClients[brand as keyof AppConfig['brandClients']];
    if (!credentials) return undefined;
    const basic = Buffer.from(
      `${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret)}`,
    ).toString('base64');
    const res = await fetch(`http://127.0.0.1:${this.config.http.port}/api/handoff/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) return undefined;
    return ((await res.json()) as { access_token?: string }).access_token;
  }
}
