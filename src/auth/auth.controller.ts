import { themeOfRequest } from '../render/request-theme';
import { Body, Controller, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
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
import { SignoutRequest, SignoutService } from './signout.service';
import { confirmationRefusal, signoutDoubt } from './signout-request';
import {
  CONFIRMATION_FIELD,
  SignoutConfirmationPage,
  signoutConfirmationContent,
} from './signout-confirmation-page';
import { RateLimited } from '../rate-limit/rate-limit.guard';
import { LiveSessions } from '../session/live-sessions';
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
    private readonly liveSessions: LiveSessions,
  ) {
    this.logger.setContext(AuthController.name);
    this.ownOrigin = new URL(this.config.http.publicUrl).origin;
    const idpOrigin = new URL(this.config.idp.issuer).origin;
    // Where a consent may come from: the brands' origins, this service's and the IdP's.
    this.consentOrigins = new Set([...this.policy.allowedOrigins, this.ownOrigin, idpOrigin]);
    // Where a sign-out may come from at once (docs/security.md, sign-out CSRF): this service and
    // the brands, the redirect policy's origins, but not the IdP's (unless it is this service's
    // own, the embedded one).
    this.signoutOrigins = new Set(
      [...this.policy.allowedOrigins, this.ownOrigin].filter(
        (origin) => origin !== idpOrigin || origin === this.ownOrigin,
      ),
    );
  }

  private readonly ownOrigin: string;
  private readonly consentOrigins: ReadonlySet<string>;
  private readonly signoutOrigins: ReadonlySet<string>;

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
    const outcome = await this.signin.start({
      journey,
      ...(await this.sessionOf(req)),
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
    const header = (name: string) => headerOf(req, name);
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
    const { sessionId, binding: sessionBinding } = await this.sessionOf(req);
    const userAgent = req.headers['user-agent'];
    this.send(
      res,
      await this.signin.land({
        ...parseIdpAnswer(raw),
        callbackUrl: this.callbackUrl(req),
        ...(jar[BINDING_COOKIE] ? { binding: jar[BINDING_COOKIE] } : {}),
        ...(sessionId ? { sessionId } : {}),
        ...(sessionBinding ? { sessionBinding } : {}),
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
    const { sessionId, binding: sessionBinding } = await this.sessionOf(req);
    this.send(
      res,
      await this.brandToken.land({
        ...query,
        callbackUrl: this.callbackUrl(req),
        ...(binding ? { binding } : {}),
        ...(sessionId ? { sessionId } : {}),
        ...(sessionBinding ? { sessionBinding } : {}),
      }),
    );
  }

  /**
   * §4 Sign-out, at once when it comes from this service's pages or a brand's; from anywhere else
   * (another site, a link opened outside the browser, an image) a page that asks first, and nothing
   * ends until its form comes back (docs/security.md, sign-out CSRF, signout-request.ts).
   */
  @Get(ROUTES.logout)
  async logout(@Query() raw: RawQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    const request = await this.logoutRequest(raw, req);
    const doubt = signoutDoubt(
      {
        ...withValue('secFetchSite', headerOf(req, 'sec-fetch-site')),
        ...withValue('secFetchMode', headerOf(req, 'sec-fetch-mode')),
        ...withValue('secFetchDest', headerOf(req, 'sec-fetch-dest')),
        ...withValue('referer', headerOf(req, 'referer')),
      },
      this.signoutOrigins,
    );
    if (doubt === undefined) {
      this.send(res, await this.signout.signOut(request));
      return;
    }
    this.logger.info(
      { event: 'signout-confirmation-asked', brand: request.brand, reason: doubt },
      'a sign-out from outside this service and its brands: asking first',
    );
    this.confirmSignout(req, res, await this.signout.askFirst(request));
  }

  /**
   * The confirmation page's form (docs/security.md, sign-out CSRF): only from this service's own
   * page (Fetch Metadata, Origin), and only with the token that page carried for this browser; a
   * token that does not do (expired, used, another browser's) shows the page again rather than
   * signing out.
   */
  @Post(ROUTES.logout)
  async confirmLogout(
    @Query() raw: RawQuery,
    @Body() body: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const refusal = confirmationRefusal(
      {
        ...withValue('secFetchSite', headerOf(req, 'sec-fetch-site')),
        ...withValue('origin', headerOf(req, 'origin')),
      },
      this.ownOrigin,
    );
    if (refusal) throw new AppError('Forbidden', 'a sign-out is confirmed from this site only');
    const request = await this.logoutRequest(raw, req);
    const token = (body as Record<string, unknown> | undefined)?.[CONFIRMATION_FIELD];
    const outcome = await this.signout.confirm(request, token);
    if ('redirect' in outcome) this.send(res, outcome);
    else this.confirmSignout(req, res, outcome);
  }

  /** What a sign-out was asked with, and the browser's session. */
  private async logoutRequest(raw: RawQuery, req: Request): Promise<SignoutRequest> {
    const { brand, carried, dropped } = parseLogoutQuery(raw);
    // docs/security.md, unauthenticated writes: a sign-out carries a bounded query; what did not
    // fit is counted, not stored.
    if (dropped > 0)
      this.logger.warn(
        { event: 'signout-query-trimmed', brand, dropped, carried: Object.keys(carried).length },
        'sign-out query trimmed: parameters beyond the carried limit were dropped',
      );
    return { brand, carried, ...(await this.sessionOf(req)) };
  }

  private confirmSignout(req: Request, res: Response, page: SignoutConfirmationPage): void {
    const framed = this.pages.message(page.locale, page.brand, {
      ...signoutConfirmationContent(page, this.pages.translator(page.locale)),
      theme: themeOfRequest(req),
    });
    // Under the pages' `no-referrer` a browser sends `Origin: null` with a form post, even to its own
    // origin (Fetch, "serializing a request origin"); `same-origin` lets the confirmation's post say
    // where it comes from, and still sends nothing to another origin.
    res.setHeader('Referrer-Policy', 'same-origin');
    sendPage(res, 200, framed);
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
   * a brand"): the RFC 6749 §4.1.3 form with client_secret_basic or client_secret_post, and the
   * older JSON `{code}` with Basic as a documented alias (the rules: readTokenRequest). It reads
   * its own body (a raw prefix in src/app.factory.ts), so that a body too large or unreadable is
   * answered in the RFC 6749 §5.2 format like every other refusal.
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

  /**
   * The browser's session cookie and its binding. Of several `sessionId` cookies, the one bound to
   * this browser (docs/security.md, a shadowed session cookie): the first may be a sibling
   * subdomain's.
   */
  private async sessionOf(req: Request): Promise<{ sessionId?: string; binding?: string }> {
    const binding = this.cookies.read(req).sessionBinding;
    const sessionId = await this.liveSessions.sessionIdOf(this.cookies.sessionIds(req), binding);
    return { ...(sessionId ? { sessionId } : {}), ...(binding ? { binding } : {}) };
  }

  private send(res: Response, outcome: RedirectOutcome): void {
    applyRedirect(res, this.cookies, outcome);
  }

  /** The whole callback URL as the IdP sent it, on this service's public origin. */
  private callbackUrl(req: Request): URL {
    return new URL(req.originalUrl, this.config.http.publicUrl);
  }
}

function headerOf(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** `{ [key]: value }` when there is a value, else nothing: for optional fields of typed input. */
function withValue<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}
