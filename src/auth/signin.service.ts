import { Inject, Injectable } from '@nestjs/common';
import { REDIRECT_POLICY } from '../brand/brand.module';
import type { RedirectPolicy, SafeRedirectUrl } from '../brand/redirect-policy';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AppError } from '../errors/app-error';
import { CookieChange, HANDOFF_HEADERS, RedirectOutcome, redirectTo } from '../http/outcome';
import { AuthEvents } from '../logging/auth-events';
import { redactCallerUrl } from '../logging/redaction';
import { IdpError, OidcClient, TokenResult, freshAuthorizationChecks } from '../oidc/oidc-client';
import { AccountProfiles } from '../session/account-profiles';
import { pendingStepOf } from '../session/account-status';
import { AccountSummaries, SigninFacts } from '../session/account-summaries';
import { accountClaimsFrom, decodedClaims } from '../oidc/account-claims';
import { bindingHashOf } from '../session/browser-binding';
import { SessionEnding } from '../session/session-ending';
import { HandedTokens } from '../session/handed-tokens';
import { BrandGrants } from '../session/brand-grants';
import { RevocationQueue } from '../session/revocation-queue';
import type { ClientCredentials } from '../config/app-config';
import { LiveSessions } from '../session/live-sessions';
import { randomKey } from '../store/one-time-store';
import { CreateOptions, SessionRecord, Sessions } from '../session/sessions';
import { DEFAULT_LOCALE } from '../shared/locale';
import { ROUTES, servicePath } from '../shared/routes';
import { ATTRIBUTES, SPANS, activeTracer } from '../tracing';
import { SIGNED_OUT_PARAM } from '../shared/signed-out-notice';
import { PENDING_STEP_PARAM, PendingStep, isShellPendingStep } from '../shared/pending-step';
import { AfterLoginDecision, decideAfterLogin } from './after-login';
import { brandRedirectUrl } from './brand-handoff';
import { HandoffCodes } from './handoff-codes';
import type { JourneyContext } from './journey';
import { BINDING_COOKIE, BrandHop, LoginStates, PendingLogin, PreparedLogin } from './login-states';
import { PendingStepPage, pendingStepPage } from './pending-step-page';

/**
 * The answers to a silent authorization (OIDC Core §3.1.2.6) that a sign-in at the IdP resolves: the
 * IdP has no session for the collector, or wants them to see a page.
 */
const SIGN_IN_AGAIN: ReadonlySet<string> = new Set([
  'login_required',
  'interaction_required',
  'consent_required',
]);

/** What a sign-in started with: the journey and the session the browser already holds, if any. */
export interface SigninStart {
  readonly journey: JourneyContext;
  readonly sessionId?: string;
  /** The browser's binding (sessionBinding cookie): the session is this browser's only with it. */
  readonly binding?: string;
  /** The client address as the rate limits count it: login states are counted per address. */
  readonly address: string;
}

/** What the IdP sent back to /handleloginredirect, and what the browser holds. */
export interface LoginLanding {
  /** The whole callback URL: openid-client checks code, state and iss on it (RFC 9207). */
  readonly callbackUrl: URL;
  readonly state: string;
  readonly error?: string;
  /** The binding cookie of the browser that started the sign-in (RFC 9700 §4.7.1). */
  readonly binding?: string;
  readonly sessionId?: string;
  /** The browser's session binding from an earlier sign-in, if it still holds one. */
  readonly sessionBinding?: string;
  readonly userAgent?: string;
  /** The client address as the rate limits count it: login states are counted per address. */
  readonly address: string;
}

type NewSession = Omit<SessionRecord, 'createdAt' | 'lastUsedAt'>;

/** The session an after-login works from, and the browser binding its new sessions are bound to. */
interface Current {
  readonly record: NewSession;
  readonly binding: string;
  /** A binding made by this request (a new authentication): the browser receives its cookie. */
  readonly newBinding: boolean;
  /** The browser's live session this after-login starts from, when it had one. */
  readonly sessionId?: string;
  /**
   * The client address a login state the after-login begins is counted against (docs/security.md,
   * unauthenticated writes).
   */
  readonly address: string;
}

/**
 * The sign-in journey (docs/design.md flows 1-3), from the brand's link to the brand's landing: start at
 * the IdP or reuse a session, land, and apply the after-login decision. Each step returns an outcome
 * (where to go, which cookies, which headers) that the controller applies.
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
    private readonly ending: SessionEnding,
    private readonly handoffs: HandoffCodes,
    private readonly profiles: AccountProfiles,
    private readonly events: AuthEvents,
    private readonly summaries: AccountSummaries,
    private readonly handed: HandedTokens,
    private readonly brandGrants: BrandGrants,
    private readonly revocations: RevocationQueue,
  ) {}

  /**
   * /signin: a live session goes straight to the after-login step; otherwise to the IdP.
   *
   * §2: the shell sends a collector here while a step is pending (migration, second-factor set-up
   * unless the session holds promptMfaSignin=false, survey); those steps are the IdP's, so the
   * sign-in goes through it once more, for that step and without prompt=login: the IdP knows the
   * collector and shows the step directly (issue 14 item 5). If this session's sign-in already went
   * to the IdP for the same step and it is still pending, a second trip would end the same way: the
   * pending-step page says what is pending and what to do instead (issue 14 item 10).
   */
  async start({
    journey,
    sessionId,
    binding,
    address,
  }: SigninStart): Promise<RedirectOutcome | PendingStepPage> {
    const record = await this.liveSessions.read(sessionId, binding);
    if (record && sessionId && binding) {
      const pending = pendingStepOf(record, journey.brand);
      if (pending !== undefined) {
        return record.askedIdpFor === pending
          ? pendingStepPage(pending, journey)
          : this.toIdp(journey, address, pending);
      }
      this.events.signin(journey.brand, subjectOf(record), 'session');
      return this.afterLogin(journey, {
        record: reusable(record),
        binding,
        newBinding: false,
        sessionId,
        address,
      });
    }
    return this.toIdp(journey, address);
  }

  /**
   * Code flow with PKCE S256, state and nonce (§4, docs/design.md flow 1). A trip for a pending step names
   * it in `pending_step` (src/shared/pending-step.ts) and never asks for prompt=login: a collector the
   * IdP knows is not asked for their password again (issue 14 item 5).
   */
  private async toIdp(
    journey: JourneyContext,
    address: string,
    pendingStep?: PendingStep,
  ): Promise<RedirectOutcome> {
    // code_verifier and nonce MUST be fresh for every redirect (RFC 9700 §2.1.1).
    const { verifier, nonce } = freshAuthorizationChecks();
    const { state, binding } = await this.loginStates.begin(
      {
        kind: 'token',
        journey,
        verifier,
        nonce,
        ...(pendingStep ? { pendingStep } : {}),
      },
      address,
    );
    const url = await this.oidc.authorizationUrl({
      redirectUri: `${this.config.http.publicUrl}${ROUTES.loginLanding}`,
      state,
      nonce,
      verifier,
      uiLocales: journey.locale,
      // §2: the IdP's steps show the brand the collector came from (the embedded IdP reads it).
      extra: {
        brand: journey.brand,
        ...(pendingStep ? { [PENDING_STEP_PARAM]: pendingStep } : {}),
        ...(journey.signedOut ? { [SIGNED_OUT_PARAM]: 'true' } : {}),
      },
    });
    return redirectTo(url, { cookies: [{ set: BINDING_COOKIE, value: binding }] });
  }

  /** /handleloginredirect: state check, code exchange with ID-token validation, a new session. */
  async land(landing: LoginLanding): Promise<RedirectOutcome> {
    const pending = await this.loginStates.take(landing.state, landing.binding);
    if (!pending || (pending.kind !== 'token' && pending.kind !== 'brand-grant'))
      throw new AppError(
        'InvalidLoginState',
        'sign-in state missing, expired or from another browser',
      );
    // Issue 17 item 2: the rest (the token exchange, the new session, the brand redirect) continues
    // the trace that this sign-in's /signin started; a brand hop's own grant (issue 31 item 4)
    // continues the landing that sent it, so one sign-in stays one trace.
    return activeTracer().resume(pending.trace, SPANS.signinLanding, async (span) => {
      const outcome =
        pending.kind === 'brand-grant'
          ? await this.completeBrandGrant(pending, landing)
          : await this.complete(pending, landing);
      span.setAttributes({
        [ATTRIBUTES.brand]: pending.journey.brand,
        [ATTRIBUTES.redirectTo]: redactCallerUrl(outcome.redirect),
      });
      return outcome;
    });
  }

  private async complete(pending: PendingLogin, landing: LoginLanding): Promise<RedirectOutcome> {
    // From here the error page knows whom it speaks to: the journey's brand and language.
    const { brand, locale, r } = pending.journey;
    const audience = {
      brand,
      locale,
      retry: servicePath('signin', {
        b: brand,
        r,
        lang: locale !== DEFAULT_LOCALE ? locale : undefined,
      }),
    };
    if (landing.error)
      throw new AppError('SigninFailed', `the IdP answered ${landing.error.slice(0, 64)}`, {
        audience,
      });
    let tokens: TokenResult;
    try {
      tokens = await this.oidc.exchangeCode(landing.callbackUrl, {
        state: landing.state,
        nonce: pending.nonce,
        verifier: pending.verifier,
      });
    } catch (e) {
      // Issue 31 item 3: an IdP that cannot be reached, answers 5xx or times out is an outage (§8
      // OktaError, 502), not the collector's failed sign-in; a refused or invalid answer is. Its
      // rate limit is neither: IdpRateLimited (429), with when to try again (docs/okta.md).
      if (e instanceof IdpError && e.undecided) throw AppError.inJourney(e, audience);
      throw new AppError('SigninFailed', 'the sign-in could not be completed', {
        cause: e,
        audience,
      });
    }
    // A new authentication: the browser's old session ends (ASVS 5.0 7.2.4), its refresh token
    // revoked (issue 15 item 9), and it gets a new binding and a new family for this sign-in.
    // Userinfo first: an outage there is the 502 page with nothing changed (issue 31 item 3).
    const sub = typeof tokens.claims.sub === 'string' ? tokens.claims.sub : '';
    const facts = await this.summaries
      .atSignin(tokens.claims, tokens.accessToken, sub)
      .catch((e: unknown) => {
        throw AppError.inJourney(e, audience);
      });
    // Only a session this browser holds the binding of: an `si` planted as the sessionId cookie names
    // someone else's session, which a sign-in here must not end (nor revoke its refresh token).
    const own = await this.liveSessions.bound(landing.sessionId, landing.sessionBinding);
    const previous = own
      ? await this.ending.endById(landing.sessionId, 'signed-in-again')
      : undefined;
    const fresh = sessionFrom(pending.journey, tokens, landing.userAgent, facts);
    const binding = randomKey();
    // docs/brand-contract.md §6: the brands' grants in this browser stay on record across the new
    // sign-in.
    await this.brandGrants.carryOver(
      landing.sessionBinding ? bindingHashOf(landing.sessionBinding) : undefined,
      bindingHashOf(binding),
    );
    const record = {
      ...fresh,
      // §3 keeps promptMfaSignin in the browser until sign-out, so a sign-in of the same collector
      // in the same browser (a trip for a pending step) keeps the session's too (issue 14 item 6).
      ...(previous?.promptMfaSignin === false && previous.sub === fresh.sub
        ? { promptMfaSignin: false as const }
        : {}),
      ...(isShellPendingStep(pending.pendingStep) ? { askedIdpFor: pending.pendingStep } : {}),
      family: randomKey(),
    };
    this.events.signin(pending.journey.brand, subjectOf(record), 'idp');
    return this.afterLogin(pending.journey, {
      record,
      binding,
      newBinding: true,
      address: landing.address,
    }).catch((e: unknown) => {
      throw AppError.inJourney(e, audience);
    });
  }

  /**
   * §4 After login. Steps 1 and 2 here; the decision for steps 3-9; then its effects: session,
   * cookies, handoff code, and where to go.
   */
  private async afterLogin(journey: JourneyContext, current: Current): Promise<RedirectOutcome> {
    if (journey.acceptedTermsAndConditions !== undefined) {
      await this.profiles.update(current.record.sub, {
        acceptedTermsAndConditions: journey.acceptedTermsAndConditions,
      });
    }
    const decision = decideAfterLogin({
      env: this.config.env,
      journey,
      brand: this.config.brands[journey.brand],
      policy: this.policy,
      publicUrl: this.config.http.publicUrl,
      allowForcedReturn: true,
    });
    const tokens = current.record.tokens;
    switch (decision.kind) {
      case 'signin':
        // Back through the IdP's steps, for the welcome or whatever it has pending, without a second
        // password (issue 14 item 5); then on: postWelcome stops the loop (§4 step 3).
        return this.toIdp(
          { ...journey, returnToSignIn: false, postWelcome: true },
          current.address,
          decision.reason,
        );
      case 'auction':
        return redirectTo(decision.url, { headers: HANDOFF_HEADERS });
      case 'unauthorized':
        // The page speaks the collector's language, so the locale the sign-in resolved travels along.
        return redirectTo(
          servicePath('unauthorized', {
            error: decision.error,
            lang: journey.locale !== DEFAULT_LOCALE ? journey.locale : undefined,
          }),
        );
      case 'brand': {
        // docs/okta.md §3 and docs/brand-contract.md §1: a brand never receives the tokens of a
        // session here. It gets a grant of its own, issued to its own client at the IdP by a silent
        // authorization, so that it refreshes with its own credentials and neither side's refresh
        // (refresh tokens rotate) can sign the other out. A session begun from a `t` goes the same
        // way.
        const credentials = this.config.brandClients[journey.brand];
        if (!credentials)
          throw new AppError(
            'InvalidBrandClientCredentials',
            `${journey.brand} has no client of its own at the IdP (BRAND_CLIENTS)`,
          );
        // A session begun from this very brand's `t` (issued to its client) holds that access token
        // alone: it goes back to the brand as it is, with no trip to the IdP.
        if (
          current.record.startedBy === 'handed-over-token' &&
          tokens.refreshToken === undefined &&
          decodedClaims(tokens.accessToken).cid === credentials.clientId
        )
          return this.handBack(journey, current, decision);
        // A fresh sign-in for a brand that gets no session here (an app, §4 step 5): nothing will
        // hold the sign-in's own tokens, so its refresh token goes at once.
        if (!decision.createSession && current.newBinding && tokens.refreshToken)
          await this.revocations.revoke(tokens.refreshToken);
        const collectorName = current.record.account?.name;
        const hop = (sessionId: string | undefined): BrandHop => ({
          sub: current.record.sub,
          ...(sessionId ? { sessionId } : {}),
          ...((sessionId ?? current.sessionId) ? { recordIn: sessionId ?? current.sessionId } : {}),
          target: decision.target,
          ...(decision.returnUrl ? { returnUrl: decision.returnUrl } : {}),
          handoff: decision.handoff,
          clearTokenCookies: decision.clearTokenCookies,
          ...(current.record.family ? { family: current.record.family } : {}),
          ...(collectorName ? { name: collectorName } : {}),
          browser: bindingHashOf(current.binding),
        });
        return this.toIdpForBrandGrant(journey, current, decision.createSession, hop, credentials);
      }
      case 'return': {
        const sessionId = await this.newSession(journey, current);
        return redirectTo(decision.url, {
          cookies: sessionCookies(sessionId, current),
          headers: HANDOFF_HEADERS,
        });
      }
    }
  }

  /** A brand's own access token, back to it from the session it began (no refresh token). */
  private async handBack(
    journey: JourneyContext,
    current: Current,
    decision: Extract<AfterLoginDecision, { kind: 'brand' }>,
  ): Promise<RedirectOutcome> {
    const tokens = current.record.tokens;
    const sessionId = decision.createSession
      ? await this.newSession(journey, current, { handedToBrand: true })
      : undefined;
    const handoff =
      decision.handoff === 'tokens-in-url'
        ? ({ mode: 'tokens-in-url', tokens } as const)
        : ({
            mode: 'handoff-code',
            code: await this.handoffs.issue({
              brand: journey.brand,
              tokens,
              ...(sessionId ? { sessionId } : {}),
            }),
          } as const);
    return redirectTo(brandRedirectUrl(decision.target, handoff, sessionId, decision.returnUrl), {
      cookies: decision.clearTokenCookies
        ? [{ clearTokens: true }]
        : sessionCookies(sessionId, current),
      headers: HANDOFF_HEADERS,
    });
  }

  /**
   * Issue 31 item 4: a brand hop's own grant. The browser goes to the IdP once more, with prompt=none
   * (the collector has just signed in there, or holds a session that did): the IdP answers with a
   * code at once, and the landing hands that authorization's tokens to the brand. The browser
   * receives its session cookies on the way (they do not depend on the brand's tokens).
   */
  private async toIdpForBrandGrant(
    journey: JourneyContext,
    current: Current,
    createSession: boolean,
    hopFor: (sessionId: string | undefined) => BrandHop,
    credentials: ClientCredentials,
  ): Promise<RedirectOutcome> {
    const { verifier, nonce } = freshAuthorizationChecks();
    // Counted before the hop's session and state are written (docs/security.md, unauthenticated
    // writes).
    await this.loginStates.admit(current.address, journey);
    const pendingFor = (sessionId: string | undefined): PreparedLogin =>
      this.loginStates.prepare({
        kind: 'brand-grant',
        journey,
        verifier,
        nonce,
        brandHop: hopFor(sessionId),
      });
    // The hop's fresh session (§4 step 5) and the pending grant that names it are one decision:
    // written in one batch, so a failure keeps neither (and the hop pays one commit, issue 35 item 5).
    let pending: PreparedLogin | undefined;
    const sessionId = createSession
      ? await this.newSession(journey, current, {
          handedToBrand: true,
          alongside: (id) => {
            pending = pendingFor(id);
            return [pending.write];
          },
        })
      : undefined;
    if (!pending) {
      pending = pendingFor(undefined);
      await this.loginStates.save(pending);
    }
    const { state, binding } = pending;
    // The brand's own client asks (docs/brand-contract.md §1): its app at the IdP lists this
    // landing too.
    const url = await this.oidc.authorizationUrl(
      {
        redirectUri: `${this.config.http.publicUrl}${ROUTES.loginLanding}`,
        state,
        nonce,
        verifier,
        prompt: 'none',
        uiLocales: journey.locale,
        extra: { brand: journey.brand },
      },
      credentials,
    );
    return redirectTo(url, {
      cookies: [...sessionCookies(sessionId, current), { set: BINDING_COOKIE, value: binding }],
      headers: HANDOFF_HEADERS,
    });
  }

  /**
   * The landing of a brand hop's silent authorization: its tokens, for the same collector, go to the
   * brand. If the IdP has no session for them any more (login_required), or has another collector's,
   * the collector signs in at the IdP again for the same journey.
   */
  private async completeBrandGrant(
    pending: PendingLogin,
    landing: LoginLanding,
  ): Promise<RedirectOutcome> {
    const hop = pending.brandHop;
    const { brand, locale } = pending.journey;
    const audience = { brand, locale };
    if (!hop) throw new AppError('InvalidLoginState', 'brand hop state without its hop');
    const credentials = this.config.brandClients[brand];
    if (!credentials)
      throw new AppError('InvalidBrandClientCredentials', `${brand} has no client at the IdP`);
    // No IdP session for the silent grant: the collector signs in again for the same journey. Any
    // other refusal (the brand's app not assigned to the collector, say) would refuse again after a
    // sign-in: it is the brand's §8 failure, not a loop through the IdP.
    if (landing.error && SIGN_IN_AGAIN.has(landing.error))
      return this.toIdp({ ...pending.journey, returnToSignIn: false }, landing.address);
    if (landing.error)
      throw new AppError(
        'BrandLoginFailed',
        `the IdP refused the brand’s grant: ${landing.error.slice(0, 64)}`,
        {
          audience,
        },
      );
    let tokens: TokenResult;
    try {
      tokens = await this.oidc.exchangeCode(
        landing.callbackUrl,
        {
          state: landing.state,
          ...(pending.nonce ? { nonce: pending.nonce } : {}),
          ...(pending.verifier ? { verifier: pending.verifier } : {}),
        },
        credentials,
      );
    } catch (e) {
      // §8: the IdP refusing the brand's own credentials is that brand's configuration fault.
      if (e instanceof IdpError && e.oauthError === 'invalid_client')
        throw new AppError('InvalidBrandClientCredentials', 'the IdP refused the brand client', {
          cause: e,
          audience,
        });
      if (e instanceof IdpError && e.undecided) throw AppError.inJourney(e, audience);
      throw new AppError('SigninFailed', 'the brand’s tokens could not be obtained', {
        cause: e,
        audience,
      });
    }
    if (tokens.claims.sub !== hop.sub)
      return this.toIdp({ ...pending.journey, returnToSignIn: false }, landing.address);
    if (hop.recordIn && tokens.refreshToken)
      await this.sessions.recordHandedOver(hop.recordIn, {
        brand,
        refreshToken: tokens.refreshToken,
      });
    // docs/brand-contract.md §6: the refresh token this brand received before in this browser goes.
    await this.brandGrants.received(hop.browser, brand, tokens.refreshToken);
    // Issue 32 item 2: a `t` from this hop signs nobody in once the collector signs out of it.
    await this.handed.handedOver(
      tokens.accessToken,
      decodedClaims(tokens.accessToken),
      hop.family,
      hop.name,
    );
    const target = hop.target as SafeRedirectUrl;
    const returnUrl = hop.returnUrl as SafeRedirectUrl | undefined;
    const handoff =
      hop.handoff === 'tokens-in-url'
        ? ({ mode: 'tokens-in-url', tokens } as const)
        : ({
            mode: 'handoff-code',
            code: await this.handoffs.issue({
              brand,
              tokens,
              ...(hop.sessionId ? { sessionId: hop.sessionId } : {}),
            }),
          } as const);
    return redirectTo(brandRedirectUrl(target, handoff, hop.sessionId, returnUrl), {
      cookies: hop.clearTokenCookies ? [{ clearTokens: true }] : [],
      headers: HANDOFF_HEADERS,
    });
  }

  /**
   * §4 step 5: a fresh session id for every after-login, signed in already or not. It joins the
   * family of the sign-in and is bound to this browser, so the `si` a brand receives names a
   * session but signs nobody in here (issue 14 item 4). The browser's earlier session of another
   * brand stays (it is the session that brand received, listed on the sessions page); one of the
   * same brand is replaced (Sessions.supersede).
   */
  private newSession(
    journey: JourneyContext,
    current: Current,
    options: Pick<CreateOptions, 'alongside' | 'handedToBrand'> = {},
  ): Promise<string> {
    // What the session it starts from handed to brands stays with that session
    // (docs/brand-contract.md §7: each ending tells only the brands it handed something to).
    const { handedOver: _handedOver, handedAs: _handedAs, ...tokens } = current.record.tokens;
    // Issue 32 item 5: one session per brand of a sign-in: a repeated hop replaces the earlier one,
    // which §4 step 5 allows (a fresh id every after-login; nothing asks to keep the old one).
    return this.sessions.create(
      {
        ...current.record,
        tokens,
        brand: journey.brand,
        bindingHash: bindingHashOf(current.binding),
      },
      Date.now(),
      { supersede: true, ...options },
    );
  }
}

/**
 * The sessionId cookie (§4 step 5) and the browser binding when this request made it. No token
 * cookies (issue 14 item 7): the tokens stay in the session store, where a refresh replaces them;
 * COOKIE_POLICIES in src/cookies/cookie-policy.ts says why.
 */
function sessionCookies(sessionId: string | undefined, current: Current): CookieChange[] {
  return [
    ...(sessionId ? [{ set: 'sessionId', value: sessionId } as const] : []),
    ...(sessionId && current.newBinding
      ? [{ set: 'sessionBinding', value: current.binding } as const]
      : []),
  ];
}

/** A live session as the start of a new one of its family: what a new session copies of it. */
function reusable(record: SessionRecord): NewSession {
  const { createdAt: _created, lastUsedAt: _used, bindingHash: _hash, ...rest } = record;
  // Sessions made before families existed start one now.
  return { ...rest, family: rest.family ?? randomKey() };
}

/** The session record a completed sign-in creates. */
export function sessionFrom(
  journey: JourneyContext,
  tokens: TokenResult,
  userAgent: string | undefined,
  facts: SigninFacts = { account: { factors: [] }, userinfoClaims: {} },
): NewSession {
  const sub = typeof tokens.claims.sub === 'string' ? tokens.claims.sub : '';
  // §3 claims wherever this IdP states them (issue 31 item 1, src/oidc/account-claims.ts).
  const claims = accountClaimsFrom({
    idToken: tokens.claims,
    accessToken: decodedClaims(tokens.accessToken),
    userinfo: facts.userinfoClaims,
  });
  const device = userAgent?.slice(0, 256);
  return {
    brand: journey.brand,
    sub,
    ...(claims.collectorsId !== undefined ? { collectorsId: claims.collectorsId } : {}),
    tokens: {
      accessToken: tokens.accessToken,
      ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
      ...(tokens.idToken ? { idToken: tokens.idToken } : {}),
      expiresAt: tokens.expiresAt,
    },
    ...(device ? { userAgent: device } : {}),
    // §3 promptMfaSignin: the collector chose "Not now" on the IdP's PromptSetupMfa (issue 14 item 6).
    ...(claims.promptMfaSignin === false ? { promptMfaSignin: false as const } : {}),
    // The IdP's session, named in its back-channel logout tokens (OIDC Back-Channel Logout §2.4).
    ...(typeof tokens.claims.sid === 'string' && tokens.claims.sid.length <= 256
      ? { idpSid: tokens.claims.sid }
      : {}),
    account: facts.account,
    ...(Object.keys(facts.userinfoClaims).length > 0
      ? { userinfoClaims: facts.userinfoClaims }
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
