import { themeOfRequest } from '../render/request-theme';
import { Controller, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { REDIRECT_POLICY } from '../brand/brand.module';
import type { RedirectPolicy } from '../brand/redirect-policy';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ResponseCookies } from '../cookies/response-cookies';
import { AppError } from '../errors/app-error';
import { applyRedirect } from '../http/apply-outcome';
import { readBodyBytes } from '../http/read-body-bytes';
import { AppLogger } from '../logging/app-logger';
import { redactCallerUrl } from '../logging/redaction';
import type { RedirectOutcome } from '../http/outcome';
import { ROUTES } from '../shared/routes';
import { DEFAULT_BRAND } from '../shared/brand';
import { localeOfRequest } from '../locale/request-locale-resolver';
import { ShellRenderer } from '../render/shell-renderer';
import { PageRenderer } from '../render/page-renderer';
import { sendPage } from '../render/send-page';
import type { SignedOutProps } from '../../views/pages/SignedOutPage';
import { BrandTokenService } from './brand-token.service';
import { HandoffExchange } from './handoff-exchange';
import { TOKEN_REQUEST_MAX_BYTES } from './handoff-token-request';
import { consentRefusal } from './consent-request';
import { type JourneyContext, parseSigninQuery } from './journey';
import { BINDING_COOKIE } from './login-states';
import {
  parseBrandTokenQuery,
  parseIdpAnswer,
  parseLogoutLanding,
  parseLogoutQuery,
} from './route-queries';
import { SigninService } from './signin.service';
import { PendingStepPage, pendingStepContent } from './pending-step-page';
import { SignoutService } from './signout.service';
import { RateLimited } from '../rate-limit/rate-limit.guard';
import { rateLimitAddress } from '../rate-limit/client-address';

type RawQuery = Record<string, unknown>;

/**
 * §2 routes of the sign-in service. Each handler parses the request into typed input, asks its
 * service, and applies the outcome; the services never see the request or the response.
 */
@Controller()
@RateLimited()
export class AuthController {
  constructor(
    private readonly signin: SigninService,
    private readonly signout: SignoutService,
    private readonly brandToken: BrandTokenService,
    private readonly handoff: HandoffExchange,
    private readonly cookies: ResponseCookies,
    private readonly shell: ShellRenderer,
    private readonly pages: PageRenderer,
    @Inject(REDIRECT_POLICY) private readonly policy: RedirectPolicy,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly logger: AppLogger,
  ) {
    this.logger.setContext(AuthController.name);
    // Where a consent may come from: the brands' origins, this service's and the IdP's.
    this.consentOrigins = new Set([
      ...this.policy.allowedOrigins,
      new URL(this.config.http.publicUrl).origin,
      new URL(this.config.idp.issuer).origin,
    ]);
  }

  private readonly consentOrigins: ReadonlySet<string>;

  @Get(ROUTES.signin)
  async start(@Query() raw: RawQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    const parsed = parseSigninQuery(raw, this.policy);
    if (!parsed.ok) {
      // Never a redirect on bad input: the error page, in the collector's language (§8).
      const first = parsed.problems[0];
      throw new AppError(
        first?.code ?? 'BadRequest',
        parsed.problems.map((p) => p.message).join('; '),
      );
    }
    for (const dropped of parsed.dropped) {
      // §5: the sign-in goes on without it; the brand learns which of its links is off from the log.
      this.logger.warn(
        {
          event: 'return-url-dropped',
          brand: parsed.journey.brand,
          param: dropped.param,
          reason: dropped.reason,
          url: redactCallerUrl(dropped.value),
        },
        'return URL dropped: it does not pass the redirect policy',
      );
    }
    const journey = this.withConsentFrom(req, parsed.journey);
    const { sessionId, sessionBinding } = this.cookies.read(req);
    const outcome = await this.signin.start({
      journey,
      ...(sessionId ? { sessionId } : {}),
      ...(sessionBinding ? { binding: sessionBinding } : {}),
      address: rateLimitAddress(req.ip),
    });
    if ('redirect' in outcome) this.send(res, outcome);
    else this.pendingStep(req, res, outcome);
  }

  /**
   * §3 acceptedTermsAndConditions changes a stored consent, so it is taken only from a top-level
   * navigation that came from this service, a brand or the IdP (issue 15 item 10, consent-request.ts);
   * otherwise it is ignored and logged, and the sign-in goes on.
   */
  private withConsentFrom(req: Request, journey: JourneyContext): JourneyContext {
    if (journey.acceptedTermsAndConditions === undefined) return journey;
    const header = (name: string) => {
      const value = req.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const refusal = consentRefusal(
      {
        ...(header('sec-fetch-mode') ? { secFetchMode: header('sec-fetch-mode') } : {}),
        ...(header('sec-fetch-dest') ? { secFetchDest: header('sec-fetch-dest') } : {}),
        ...(header('sec-fetch-site') ? { secFetchSite: header('sec-fetch-site') } : {}),
        ...(header('referer') ? { referer: header('referer') } : {}),
      },
      this.consentOrigins,
    );
    if (!refusal) return journey;
    this.logger.warn(
      { event: 'consent-ignored', brand: journey.brand, reason: refusal },
      'acceptedTermsAndConditions ignored: not a navigation from this service, a brand or the IdP',
    );
    const { acceptedTermsAndConditions: _ignored, ...rest } = journey;
    return rest;
  }

  /** Issue 14 item 10: the step is still pending after a trip to the IdP for it; no second trip. */
  private pendingStep(req: Request, res: Response, page: PendingStepPage): void {
    this.logger.warn(
      { event: 'pending-step-unresolved', brand: page.brand, step: page.step },
      'a pending step is still pending after the IdP was asked for it: showing the page',
    );
    const framed = this.pages.message(page.locale, page.brand, {
      ...pendingStepContent(page, this.pages.translator(page.locale)),
      theme: themeOfRequest(req),
    });
    sendPage(res, 200, framed);
  }

  @Get(ROUTES.loginLanding)
  async land(@Query() raw: RawQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    const jar = this.cookies.read(req);
    const userAgent = req.headers['user-agent'];
    this.send(
      res,
      await this.signin.land({
        ...parseIdpAnswer(raw),
        callbackUrl: this.callbackUrl(req),
        ...(jar[BINDING_COOKIE] ? { binding: jar[BINDING_COOKIE] } : {}),
        ...(jar.sessionId ? { sessionId: jar.sessionId } : {}),
        ...(typeof userAgent === 'string' ? { userAgent } : {}),
        address: rateLimitAddress(req.ip),
      }),
    );
  }

  @Get(ROUTES.brandTokenLanding)
  async brand(@Query() raw: RawQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    const query = parseBrandTokenQuery(raw, this.policy);
    if (query.kind === 'start') {
      this.send(res, await this.brandToken.start(query, rateLimitAddress(req.ip)));
      return;
    }
    const binding = this.cookies.read(req)[BINDING_COOKIE];
    this.send(
      res,
      await this.brandToken.land({
        ...query,
        callbackUrl: this.callbackUrl(req),
        ...(binding ? { binding } : {}),
      }),
    );
  }

  @Get(ROUTES.logout)
  async logout(@Query() raw: RawQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    const { sessionId, sessionBinding } = this.cookies.read(req);
    const { brand, carried, dropped } = parseLogoutQuery(raw);
    // Issue 50 item 5: a sign-out carries a bounded query; what did not fit is counted, not stored.
    if (dropped > 0)
      this.logger.warn(
        { event: 'signout-query-trimmed', brand, dropped, carried: Object.keys(carried).length },
        'sign-out query trimmed: parameters beyond the carried limit were dropped',
      );
    this.send(
      res,
      await this.signout.signOut({
        brand,
        carried,
        ...(sessionId ? { sessionId } : {}),
        ...(sessionBinding ? { binding: sessionBinding } : {}),
      }),
    );
  }

  /**
   * §4 Sign-out steps 3-5 for every sign-out (issue 14 item 8): a page, not a redirect, because the
   * browser's part (this product's storage keys, the Logout event) needs a script of ours to run
   * before the collector goes on, whoever sent them to /logout/collectorsid.
   */
  @Get(ROUTES.logoutLanding)
  async loggedOut(
    @Query() raw: RawQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const query = parseLogoutLanding(raw);
    const landing = await this.signout.landed(query.state, {
      brand: query.brand ?? DEFAULT_BRAND,
      locale: localeOfRequest(req),
    });
    const props: SignedOutProps = {
      target: landing.target,
      signedOut: landing.signedOut,
      ...(landing.collectorsId !== undefined ? { collectorsId: landing.collectorsId } : {}),
    };
    this.shell.render(req, res, {
      page: 'signedOut',
      titleKey: 'signedOut.title',
      brand: landing.brand,
      locale: landing.locale,
      props: { ...props },
    });
  }

  /**
   * The handoff exchange, an OAuth 2.0 token endpoint (docs/signin-service.md "Handing the session to
   * a brand"): the RFC 6749 §4.1.3 form with client_secret_basic or client_secret_post, and issue 4's
   * JSON `{code}` with Basic as a documented alias (the rules: readTokenRequest). It reads its own
   * body (a raw prefix in src/app.factory.ts), so that a body too large or unreadable is answered in
   * the RFC 6749 §5.2 format like every other refusal.
   */
  @Post(ROUTES.handoffToken)
  async exchange(@Req() req: Request, @Res() res: Response): Promise<void> {
    const body = await readBodyBytes(req, TOKEN_REQUEST_MAX_BYTES);
    const result = await this.handoff.exchange({
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body,
    });
    // RFC 6749 §5.1: tokens are never cached.
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    // The rest of an oversized body is never read: the connection ends with this answer.
    if (body.kind === 'too-large') res.set('Connection', 'close');
    if (result.ok) {
      res.status(200).json(result.body);
      return;
    }
    if (result.status === 401) res.set('WWW-Authenticate', 'Basic realm="handoff"');
    res.status(result.status).json({ error: result.error, error_description: result.description });
  }

  private send(res: Response, outcome: RedirectOutcome): void {
    applyRedirect(res, this.cookies, outcome);
  }

  /** The whole callback URL as the IdP sent it, on this service's public origin. */
  private callbackUrl(req: Request): URL {
    return new URL(req.originalUrl, this.config.http.publicUrl);
  }
}
