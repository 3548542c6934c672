import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import * as client from 'openid-client';
import { REDIRECT_POLICY } from '../brand/brand.module';
import type { RedirectPolicy } from '../brand/redirect-policy';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ResponseCookies } from '../cookies/response-cookies';
import { AppError } from '../errors/app-error';
import { accountStatus } from '../session/account-status';
import { shellGuard } from '../shared/shell-guard';
import { DEFAULT_LOCALE } from '../shared/locale';
import { AuthEvents } from '../logging/auth-events';
import { SessionRecord, Sessions, TokenSet } from '../session/sessions';
import { LiveSessions } from '../session/live-sessions';
import { AccountProfiles } from '../session/account-profiles';
import { decideAfterLogin } from './after-login';
import { brandRedirectUrl } from './brand-handoff';
import { HandoffCodes } from './handoff-codes';
import { LoginStates } from './login-state';
import { OidcClient, TokenResult } from '../oidc/oidc-client';
import type { SigninQuery } from './signin-query';

/** The cookie that binds a pending sign-in to the browser that started it (RFC 9700 §4.7.1). */
export const BINDING_COOKIE = 'signinBinding' as const;

/** Headers on every redirect that carries a session to a brand (issue 4, RFC 9700 §4.2.4). */
export const HANDOFF_HEADERS = {
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
} as const;

/**
 * The sign-in journey (DESIGN.md flows 1-3): start at the IdP or reuse a session, land, and apply the
 * after-login decision. Answers with the Location to send the browser to; the controller only
 * redirects.
 */
@Injectable()
export class SigninService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIRECT_POLICY) private readonly policy: RedirectPolicy,
    private readonly oidc: OidcClient,
    private readonly loginStates: LoginStates,
    private readonly sessions: Sessions,
    private readonly liveSessions: LiveSessions,
    private readonly cookies: ResponseCookies,
    private readonly handoffs: HandoffCodes,
    private readonly profiles: AccountProfiles,
    private readonly events: AuthEvents,
  ) {}

  /** /signin: a valid session goes straight to the after-login step; otherwise to the IdP. */
  async start(query: SigninQuery, req: Request, res: Response): Promise<string> {
    const sessionId = this.cookies.read(req).sessionId;
    const record = await this.liveSessions.read(sessionId);
    if (record && sessionId) {
      // §2: the shell sends a collector here while a step is pending (migration, second-factor
      // set-up, survey); those steps are the IdP's, so this sign-in goes through it once more. The
      // promptMfaSignin flag is the browser's to apply (its shell only comes here when it allows the
      // prompt), so it is not consulted here: whoever arrives with a step pending is offered it.
      const pending = shellGuard(accountStatus(record), { brand: query.brand });
      if (pending !== undefined && pending !== 'not-signed-in') {
        return this.toIdp(query, res, 'login', true);
      }
      this.events.signin(query.brand, subjectOf(record), 'session');
      return this.afterLogin(query, { sessionId, record }, res);
    }
    return this.toIdp(query, res);
  }

  /** Code flow with PKCE S256, state and nonce (§4, DESIGN.md flow 1). */
  private async toIdp(
    query: SigninQuery,
    res: Response,
    prompt?: 'login',
    offerSteps = false,
  ): Promise<string> {
    // code_verifier and nonce MUST be fresh for every redirect (openid-client, RFC 9700 §2.1.1).
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const { state, binding } = await this.loginStates.begin({
      kind: 'token',
      query,
      verifier,
      nonce,
      ...(offerSteps ? { offerSteps } : {}),
    });
    this.cookies.set(res, BINDING_COOKIE, binding);
    const url = await this.oidc.authorizationUrl({
      redirectUri: `${this.config.http.publicUrl}/handleloginredirect`,
      state,
      nonce,
      codeChallenge: await client.calculatePKCECodeChallenge(verifier),
      uiLocales: query.locale,
      ...(prompt ? { prompt } : {}),
    });
    return url.href;
  }

  /** /handleloginredirect: state check, code exchange with ID-token validation, a new session. */
  async land(req: Request, res: Response): Promise<string> {
    const state = typeof req.query.state === 'string' ? req.query.state : '';
    const pending = await this.loginStates.take(state, this.cookies.read(req)[BINDING_COOKIE]);
    if (!pending || pending.kind !== 'token')
      throw new AppError(
        'InvalidLoginState',
        'sign-in state missing, expired or from another browser',
      );
    const error = typeof req.query.error === 'string' ? req.query.error : undefined;
    if (error) throw new AppError('SigninFailed', `the IdP answered ${error.slice(0, 64)}`);
    let tokens: TokenResult;
    try {
      tokens = await this.oidc.exchangeCode(this.callbackUrl(req), {
        state,
        nonce: pending.nonce,
        verifier: pending.verifier,
      });
    } catch (e) {
      throw new AppError('SigninFailed', 'the sign-in could not be completed', { cause: e });
    }
    // A fresh session id on every authentication (ASVS 5.0 7.2.4); the old one, if any, ends.
    await this.sessions.delete(this.cookies.read(req).sessionId);
    const record = {
      ...sessionFrom(pending.query, tokens, req),
      ...(pending.offerSteps ? { stepsOffered: true } : {}),
    };
    this.events.signin(pending.query.brand, subjectOf(record), 'idp');
    return this.afterLogin(pending.query, { record }, res);
  }

  /**
   * §4 After login. Steps 1 and 2 here; the decision for steps 3-9; then its effects: session,
   * cookies, handoff code, and the Location.
   */
  private async afterLogin(
    query: SigninQuery,
    current: { sessionId?: string; record: Omit<SessionRecord, 'createdAt' | 'lastUsedAt'> },
    res: Response,
  ): Promise<string> {
    if (query.acceptedTermsAndConditions !== undefined) {
      await this.profiles.update(current.record.sub, {
        acceptedTermsAndConditions: query.acceptedTermsAndConditions,
      });
    }
    const brand = this.config.brands[query.brand];
    const decision = decideAfterLogin({
      env: this.config.env,
      query,
      brand,
      policy: this.policy,
      publicUrl: this.config.http.publicUrl,
      allowForcedReturn: true,
    });
    switch (decision.kind) {
      case 'signin':
        // Back through the IdP's steps, then on: postWelcome stops the loop (§4 step 3).
        return this.toIdp({ ...query, returnToSignIn: false, postWelcome: true }, res, 'login');
      case 'auction':
        res.set(HANDOFF_HEADERS);
        return decision.url;
      case 'unauthorized': {
        // The page speaks the collector's language, so the locale the sign-in resolved travels along.
        const unauth = new URLSearchParams({ error: decision.error });
        if (query.locale !== DEFAULT_LOCALE) unauth.set('lang', query.locale);
        return `/unauthredirect?${unauth.toString()}`;
      }
      case 'brand': {
        const sessionId = decision.createSession ? await this.ensureSession(current) : undefined;
        if (decision.clearTokenCookies) this.cookies.clearTokens(res);
        else this.storeCookies(res, current.record.tokens, sessionId);
        const tokens = current.record.tokens;
        const handoff =
          decision.handoff === 'tokens-in-url'
            ? ({ mode: 'tokens-in-url', tokens } as const)
            : ({
                mode: 'handoff-code',
                code: await this.handoffs.issue({
                  brand: query.brand,
                  tokens,
                  ...(sessionId ? { sessionId } : {}),
                }),
              } as const);
        res.set(HANDOFF_HEADERS);
        return brandRedirectUrl(decision.target, handoff, sessionId, decision.returnUrl);
      }
      case 'return': {
        const sessionId = await this.ensureSession(current);
        this.storeCookies(res, current.record.tokens, sessionId);
        res.set(HANDOFF_HEADERS);
        return decision.url;
      }
    }
  }

  private async ensureSession(current: {
    sessionId?: string;
    record: Omit<SessionRecord, 'createdAt' | 'lastUsedAt'>;
  }): Promise<string> {
    return current.sessionId ?? this.sessions.create(current.record);
  }

  private storeCookies(res: Response, tokens: TokenSet, sessionId: string | undefined): void {
    this.cookies.set(res, 'accessToken', tokens.accessToken);
    if (tokens.refreshToken) this.cookies.set(res, 'refreshToken', tokens.refreshToken);
    if (sessionId) this.cookies.set(res, 'sessionId', sessionId);
  }

  callbackUrl(req: Request): URL {
    return new URL(req.originalUrl, this.config.http.publicUrl);
  }
}

export function sessionFrom(
  query: SigninQuery,
  tokens: TokenResult,
  req: Request,
): Omit<SessionRecord, 'createdAt' | 'lastUsedAt'> {
  const sub = typeof tokens.claims.sub === 'string' ? tokens.claims.sub : '';
  const collectorsId =
    typeof tokens.claims.CollectorsId === 'number' ? tokens.claims.CollectorsId : undefined;
  const userAgent =
    typeof req.headers['user-agent'] === 'string'
      ? req.headers['user-agent'].slice(0, 256)
      : undefined;
  return {
    brand: query.brand,
    sub,
    ...(collectorsId !== undefined ? { collectorsId } : {}),
    tokens: {
      accessToken: tokens.accessToken,
      ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
      ...(tokens.idToken ? { idToken: tokens.idToken } : {}),
      expiresAt: tokens.expiresAt,
    },
    ...(userAgent ? { userAgent } : {}),
    // The IdP's session, named in its back-channel logout tokens (OIDC Back-Channel Logout §2.4).
    ...(typeof tokens.claims.sid === 'string' && tokens.claims.sid.length <= 256
      ? { idpSid: tokens.claims.sid }
      : {}),
  };
}

function subjectOf(record: { sub: string; collectorsId?: number }): {
  sub: string;
  collectorsId?: number;
} {
  return {
    sub: record.sub,
    ...(record.collectorsId !== undefined ? { collectorsId: record.collectorsId } : {}),
  };
}
