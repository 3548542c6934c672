import { Inject, Injectable } from '@nestjs/common';
import { REDIRECT_POLICY } from '../brand/brand.module';
import { RedirectPolicy, checkRedirectUrl } from '../brand/redirect-policy';
import { isLocalOverride } from '../brand/return-target';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AppError } from '../errors/app-error';
import { HANDOFF_HEADERS, RedirectOutcome, redirectTo } from '../http/outcome';
import { AuthEvents } from '../logging/auth-events';
import { redactCallerUrl } from '../logging/redaction';
import { decodedClaims } from '../oidc/account-claims';
import { IdpError, OidcClient, TokenResult } from '../oidc/oidc-client';
import { BrandGrants } from '../session/brand-grants';
import { bindingHashOf } from '../session/browser-binding';
import { HandedTokens } from '../session/handed-tokens';
import { LiveSessions } from '../session/live-sessions';
import { Sessions } from '../session/sessions';
import { randomKey } from '../store/one-time-store';
import type { Brand } from '../shared/brand';
import { ROUTES, servicePath } from '../shared/routes';
import { ATTRIBUTES, SPANS, activeTracer } from '../tracing';
import { brandRedirectUrl } from './brand-handoff';
import { HandoffCodes } from './handoff-codes';
import type { JourneyContext } from './journey';
import { BINDING_COOKIE, LoginStates, PendingLogin } from './login-states';
import type { BrandTokenStart, IdpAnswer } from './route-queries';

/**
 * The brand code redirect's landing: the IdP's answer on the callback URL, the sign-in state's
 * browser binding, and the browser's session here with its binding, where it holds one.
 */
export interface BrandTokenLanding extends IdpAnswer {
  readonly callbackUrl: URL;
  readonly binding?: string;
  readonly sessionId?: string;
  readonly sessionBinding?: string;
}

/**
 * §4 brand code redirect, on /handlebrandtokenredirect: without `code`/`state` it starts (authorize for
 * the brand's own client: response type code, no PKCE, prompt=none); with them it lands, checks the
 * state, exchanges the code with the brand's credentials and hands the tokens to the brand. Each
 * failure has its §8 code.
 */
@Injectable()
export class BrandTokenService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIRECT_POLICY) private readonly policy: RedirectPolicy,
    private readonly oidc: OidcClient,
    private readonly loginStates: LoginStates,
    private readonly handoffs: HandoffCodes,
    private readonly events: AuthEvents,
    private readonly liveSessions: LiveSessions,
    private readonly sessions: Sessions,
    private readonly brandGrants: BrandGrants,
    private readonly handed: HandedTokens,
  ) {}

  private get redirectUri(): string {
    return `${this.config.http.publicUrl}${ROUTES.brandTokenLanding}`;
  }

  /** `address`: the client address as the rate limits count it (login states are counted by it). */
  async start(request: BrandTokenStart, address: string): Promise<RedirectOutcome> {
    const brand = request.brand;
    const credentials = brand ? this.config.brandClients[brand] : undefined;
    if (
      !brand ||
      !credentials ||
      request.badReturnUrl ||
      this.config.brands[brand].clientType === 'mobile-app'
    ) {
      throw new AppError(
        'InvalidBrandTokenRedirectParams',
        'b must be a brand with its own client; r must be a valid env URL',
      );
    }
    const journey: JourneyContext = {
      brand,
      ...(request.r ? { r: request.r } : {}),
      ...(request.l ? { l: request.l } : {}),
      isNewAccount: false,
      isMigrated: false,
      postWelcome: false,
      returnToSignIn: false,
      locale: request.locale,
    };
    const nonce = randomKey();
    const { state, binding } = await this.loginStates.begin(
      { kind: 'brand', journey, nonce, brandClient: brand },
      address,
    );
    try {
      const url = await this.oidc.authorizationUrl(
        { redirectUri: this.redirectUri, state, nonce, prompt: 'none', uiLocales: journey.locale },
        credentials,
      );
      return redirectTo(url, { cookies: [{ set: BINDING_COOKIE, value: binding }] });
    } catch (error) {
      // Discovery held back by the IdP's rate limit: 429, not an outage (docs/okta.md).
      if (error instanceof IdpError && error.rateLimit) throw error;
      throw new AppError('OktaError', 'the IdP could not be reached', { cause: error });
    }
  }

  async land(landing: BrandTokenLanding): Promise<RedirectOutcome> {
    const pending = await this.loginStates.take(landing.state, landing.binding);
    if (!pending || pending.kind !== 'brand' || !pending.brandClient) {
      throw new AppError(
        'InvalidBrandTokenLoginState',
        'brand sign-in state missing, expired or from another browser',
      );
    }
    const brand = pending.brandClient;
    // Issue 17 item 2: the landing continues the trace that the brand's request started.
    return activeTracer().resume(pending.trace, SPANS.brandSigninLanding, async (span) => {
      const outcome = await this.complete(pending, brand, landing);
      span.setAttributes({
        [ATTRIBUTES.brand]: brand,
        [ATTRIBUTES.redirectTo]: redactCallerUrl(outcome.redirect),
      });
      return outcome;
    });
  }

  private async complete(
    pending: PendingLogin,
    brand: Brand,
    landing: BrandTokenLanding,
  ): Promise<RedirectOutcome> {
    const credentials = this.config.brandClients[brand];
    if (!credentials)
      throw new AppError('InvalidBrandTokenRedirectParams', 'the brand has no client');
    if (landing.error === 'login_required') {
      // No IdP session yet: the collector signs in the usual way, and comes back to the brand.
      return redirectTo(servicePath('signin', { b: brand, r: pending.journey.r }));
    }
    if (landing.error)
      throw new AppError('BrandLoginFailed', `the IdP answered ${landing.error.slice(0, 64)}`);
    let tokens: TokenResult;
    try {
      tokens = await this.oidc.exchangeCode(
        landing.callbackUrl,
        { state: landing.state, ...(pending.nonce ? { nonce: pending.nonce } : {}) },
        credentials,
      );
    } catch (e) {
      throw classify(e);
    }
    const sub = typeof tokens.claims.sub === 'string' ? tokens.claims.sub : undefined;
    const collectorsId =
      typeof tokens.claims.CollectorsId === 'number' ? tokens.claims.CollectorsId : undefined;
    this.events.signin(
      brand,
      { ...(sub ? { sub } : {}), ...(collectorsId ? { collectorsId } : {}) },
      'brand-code',
    );
    const config = this.config.brands[brand];
    const candidate = isLocalOverride(pending.journey.l, this.config.env)
      ? config.localURL
      : config.tokenURL;
    const target = checkRedirectUrl(candidate, this.policy);
    if (!target.ok)
      throw new AppError(
        'InvalidBrandTokenRedirectParams',
        'the brand target is not an allowed URL',
      );
    await this.recordHandedOver(landing, brand, tokens);
    const handoff =
      config.handoff === 'tokens-in-url'
        ? ({ mode: 'tokens-in-url', tokens } as const)
        : ({ mode: 'handoff-code', code: await this.handoffs.issue({ brand, tokens }) } as const);
    return redirectTo(brandRedirectUrl(target.url, handoff, undefined, pending.journey.r), {
      headers: HANDOFF_HEADERS,
    });
  }

  /**
   * What a brand hop records of the grant it hands over, recorded here too, so that tokens from
   * this redirect are no less bound than a hop's: the brand's earlier refresh token in this browser
   * goes (docs/brand-contract.md §6); the browser's session keeps the grant, so that its sign-out
   * revokes it and tells the brand (§7 there, OIDC Back-Channel Logout 1.0 §2.3); and its `t` signs
   * nobody in once the collector has signed out (docs/brand-contract.md §8). Only a session of the
   * collector the IdP answered for keeps it: a browser signed in here as someone else must not end
   * their grant.
   */
  private async recordHandedOver(
    landing: BrandTokenLanding,
    brand: Brand,
    tokens: TokenResult,
  ): Promise<void> {
    const { sessionId, sessionBinding } = landing;
    const own = await this.liveSessions.bound(sessionId, sessionBinding);
    const session = own && own.sub === tokens.claims.sub ? own : undefined;
    if (session && sessionId && tokens.refreshToken)
      await this.sessions.recordHandedOver(sessionId, {
        brand,
        refreshToken: tokens.refreshToken,
      });
    const browser = sessionBinding ? bindingHashOf(sessionBinding) : undefined;
    await this.brandGrants.received(browser, brand, tokens.refreshToken);
    await this.handed.handedOver(
      tokens.accessToken,
      decodedClaims(tokens.accessToken),
      session?.family,
      session?.account?.name,
    );
  }
}

/** §8: which brand error a failed exchange is. */
function classify(error: unknown): AppError {
  if (error instanceof IdpError && error.oauthError === 'invalid_client') {
    return new AppError(
      'InvalidBrandClientCredentials',
      'the IdP refused the brand client credentials',
      { cause: error },
    );
  }
  // The IdP's rate limit: the 429 page, with when to try again (docs/okta.md "Rate limits").
  if (error instanceof IdpError && error.rateLimit) return error;
  if (error instanceof IdpError && !error.outage) {
    const why = error.oauthError ?? 'the callback or the answer did not validate';
    return new AppError('BrandLoginFailed', `the IdP refused the code: ${why}`, {
      cause: error,
    });
  }
  return new AppError('OktaError', 'the IdP could not complete the exchange', { cause: error });
}
