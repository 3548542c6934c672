import { Controller, Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import { createElement } from 'react';
import type { Request, Response } from 'express';
import { DemoBrandPage } from '../../views/tools/DemoBrandPage';
import { PageRenderer } from '../render/page-renderer';
import { themeOfRequest } from '../render/request-theme';
import { sendPage } from '../render/send-page';
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
    private readonly pages: PageRenderer,
  ) {}

  @Get(':brand')
  async land(
    @Param('brand') brand: string,
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
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
    // The brand's own frame (its logo and favicon) in the collector's theme; English, as a
    // developer's page.
    const frame = {
      ...this.pages.frame(brand, 'en-US', req.originalUrl),
      theme: themeOfRequest(req),
    };
    const page = createElement(DemoBrandPage, {
      t: this.pages.translator('en-US'),
      frame,
      brand,
      companyName: this.config.brands[brand].companyName,
      status,
      signedIn: check.ok,
      how,
      sessionId: Boolean(query.si),
      refreshToken: Boolean(query.rt),
      claims: rows.map(([name, value]) => [name, claimText(value)] as const),
      ...(typeof query.r === 'string' ? { returnTo: query.r } : {}),
      signOutHref: `/logout/collectorsid?b=${encodeURIComponent(brand)}`,
    });
    res.setHeader('Referrer-Policy', 'no-referrer');
    sendPage(res, 200, this.pages.framed(frame, `Demo brand: ${brand}`, page));
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

/** A claim as the page prints it: a string as it is, anything else as JSON, nothing as empty. */
function claimText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
