import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { parseBrandParam } from '../shared/brand-query';
import { REDIRECT_POLICY } from '../brand/brand.module';
import { RedirectPolicy, checkRedirectUrl } from '../brand/redirect-policy';
import { isLocalOverride, selectReturnTarget } from '../brand/return-target';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ResponseCookies } from '../cookies/response-cookies';
import { AppError } from '../errors/app-error';
import { AuthEvents } from '../logging/auth-events';
import { resolveLocale } from '../shared/locale';
import { brandRedirectUrl } from './brand-handoff';
import { HandoffCodes } from './handoff-codes';
import { LoginStates, random } from './login-state';
import { IdpError, OidcClient, TokenResult } from '../oidc/oidc-client';
import { BINDING_COOKIE, HANDOFF_HEADERS } from './signin.service';
import type { SigninQuery } from './signin-query';

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
    private readonly cookies: ResponseCookies,
    private readonly handoffs: HandoffCodes,
    private readonly events: AuthEvents,
  ) {}

  private get redirectUri(): string {
    return `${this.config.http.publicUrl}/handlebrandtokenredirect`;
  }

  async handle(req: Request, res: Response): Promise<string> {
    const landing =
      req.query.state !== undefined ||
      req.query.code !== undefined ||
      req.query.error !== undefined;
    return landing ? this.land(req, res) : this.start(req, res);
  }

  private async start(req: Request, res: Response): Promise<string> {
    const b = parseBrandParam(req.query.b);
    const credentials = b.ok ? this.config.brandClients[b.brand] : undefined;
    const r = req.query.r;
    const target =
      r === undefined
        ? { kind: 'none' as const }
        : selectReturnTarget({ r }, this.policy, { allowForced: false });
    if (
      !b.ok ||
      !credentials ||
      target.kind === 'rejected' ||
      this.config.brands[b.brand].clientType === 'mobile-app'
    ) {
      throw new AppError(
        'InvalidBrandTokenRedirectParams',
        'b must be a brand with its own client; r must be a valid env URL',
      );
    }
    const l = typeof req.query.l === 'string' ? req.query.l : undefined;
    const query: SigninQuery = {
      brand: b.brand,
      ...(target.kind === 'url' ? { r: target.url } : {}),
      ...(l ? { l } : {}),
      isNewAccount: false,
      isMigrated: false,
      postWelcome: false,
      returnToSignIn: false,
      locale: resolveLocale({ l, lang: req.query.lang, brand: b.brand }),
    };
    const nonce = random();
    const { state, binding } = await this.loginStates.begin({
      kind: 'brand',
      query,
      nonce,
      brandClient: b.brand,
    });
    this.cookies.set(res, BINDING_COOKIE, binding);
    try {
      const url = await this.oidc.authorizationUrl(
        { redirectUri: this.redirectUri, state, nonce, prompt: 'none', uiLocales: query.locale },
        credentials,
      );
      return url.href;
    } catch (error) {
      throw new AppError('OktaError', 'the IdP could not be reached', { cause: error });
    }
  }

  private async land(req: Request, res: Response): Promise<string> {
    const pending = await this.loginStates.take(
      req.query.state,
      this.cookies.read(req)[BINDING_COOKIE],
    );
    if (!pending || pending.kind !== 'brand' || !pending.brandClient) {
      throw new AppError(
        'InvalidBrandTokenLoginState',
        'brand sign-in state missing, expired or from another browser',
      );
    }
    const brand = pending.brandClient;
    const credentials = this.config.brandClients[brand];
    if (!credentials)
      throw new AppError('InvalidBrandTokenRedirectParams', 'the brand has no client');
    const error = typeof req.query.error === 'string' ? req.query.error : undefined;
    if (error === 'login_required') {
      // No IdP session yet: the collector signs in the usual way, and comes back to the brand.
      const back = new URLSearchParams({
        b: brand,
        ...(pending.query.r ? { r: pending.query.r } : {}),
      });
      return `/signin?${back.toString()}`;
    }
    if (error) throw new AppError('BrandLoginFailed', `the IdP answered ${error.slice(0, 64)}`);
    let tokens: TokenResult;
    try {
      tokens = await this.oidc.exchangeCode(
        new URL(req.originalUrl, this.config.http.publicUrl),
        {
          state: typeof req.query.state === 'string' ? req.query.state : '',
          ...(pending.nonce ? { nonce: pending.nonce } : {}),
        },
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
    const candidate = isLocalOverride(pending.query.l, this.config.env)
      ? config.localURL
      : config.tokenURL;
    const target = checkRedirectUrl(candidate, this.policy);
    if (!target.ok)
      throw new AppError(
        'InvalidBrandTokenRedirectParams',
        'the brand target is not an allowed URL',
      );
    const handoff =
      config.handoff === 'tokens-in-url'
        ? ({ mode: 'tokens-in-url', tokens } as const)
        : ({ mode: 'handoff-code', code: await this.handoffs.issue({ brand, tokens }) } as const);
    res.set(HANDOFF_HEADERS);
    return brandRedirectUrl(target.url, handoff, undefined, pending.query.r);
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
  if (error instanceof IdpError && (error.oauthError || error.invalidResponse)) {
    const why = error.oauthError ?? 'the callback or the answer did not validate';
    return new AppError('BrandLoginFailed', `the IdP refused the code: ${why}`, {
      cause: error,
    });
  }
  return new AppError('OktaError', 'the IdP could not complete the exchange', { cause: error });
}
