import { Inject, Injectable } from '@nestjs/common';
import { brandFromReferrer } from '../brand/brand-from-referrer';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { HANDOFF_HEADERS, RedirectOutcome, redirectTo } from '../http/outcome';
import { AppLogger } from '../logging/app-logger';
import { AuthEvents } from '../logging/auth-events';
import { AccountSummaries } from '../session/account-summaries';
import { bindingHashOf } from '../session/browser-binding';
import { LiveSessions } from '../session/live-sessions';
import { HandedTokenRefusal, HandedTokens, handedTokenKey } from '../session/handed-tokens';
import { randomKey } from '../store/one-time-store';
import { SESSION_STORE, SessionStore } from '../store/session-store';
import { SessionRecord, Sessions } from '../session/sessions';
import { Brand, DEFAULT_BRAND, isBrand } from '../shared/brand';
import { ROUTES, type ServicePath, servicePath } from '../shared/routes';
import { accountClaimsFrom } from '../oidc/account-claims';
import { AccessTokenClaims, TOKEN_PROBLEM_MESSAGES, TokenVerifier } from './token-verifier';
import { rateLimitAddress } from '../rate-limit/client-address';
import { OfferRefusal, OfferedAccount, TokenOffer, TokenOffers } from './token-offers';

/**
 * Whether this request may take its `t` (the middleware reads it from HTTP, see signsInAtOnce and
 * isTopLevelNavigation in token-param.middleware.ts):
 * - `trusted-navigation`: a top-level navigation from this origin, or from a sibling site that is a
 *   brand origin of the redirect policy (docs/security.md, a sibling host): the `t` signs in at
 *   once;
 * - `untrusted-navigation`: any other top-level navigation (another site, a sibling host that is not
 *   a brand, a link opened outside the browser, a browser that does not say): the `t` only offers a
 *   sign-in that the collector confirms (docs/security.md, login CSRF through `t`);
 * - `not-a-navigation`: a fetch, an image, a frame: `t` leaves the URL and signs nobody in;
 * - `signout`: a page on the way out of a sign-out, which must not sign anyone back in.
 */
export type TokenTaking =
  'trusted-navigation' | 'untrusted-navigation' | 'not-a-navigation' | 'signout';

/** A page request that carries `t`, as the middleware read it. */
export interface PageToken {
  /** The raw `t` query value: a string, or anything else a query can hold (an array when repeated). */
  readonly token: unknown;
  /** The same page without `t`, where the browser goes next in every case. */
  readonly target: ServicePath;
  /** The path alone, for the log (the query may hold other secrets; the token is never logged). */
  readonly path: string;
  readonly taking: TokenTaking;
  /** The browser's sessionId and sessionBinding cookies. */
  readonly sessionId?: string;
  readonly binding?: string;
  /** The page's `b`, if any (§3, lower-cased), and the referrer: the brand the new session records. */
  readonly brandParam?: string;
  readonly referer?: string;
  readonly userAgent?: string;
  /** The page's language (its path prefix or `lang`), for the confirmation page. */
  readonly locale?: string;
  /** The client address (honouring TRUST_PROXY): the untrusted path is limited per address. */
  readonly address?: string;
}

/** Why a verified `t` still signs nobody in (besides TokenVerifier's own TokenProblem). */
type Refusal =
  | 'other-client'
  | 'expired'
  | 'no-subject'
  | 'address-limit'
  | 'token-limit'
  | 'not-handed-over'
  | HandedTokenRefusal;

const REFUSALS: Readonly<Record<Refusal, string>> = {
  'other-client': 'access token was issued to another client',
  expired: TOKEN_PROBLEM_MESSAGES.expired,
  'no-subject': 'access token names no user id (uid)',
  'already-used': 'access token has already signed a browser in',
  'session-ended': 'access token comes from a sign-in the collector has signed out of',
  'address-limit':
    'too many links with t that ask first from this address: dropped (docs/security.md)',
  'token-limit': 'this t was offered too often: dropped (docs/security.md)',
  'not-handed-over':
    'a t this service never handed over is not offered, the IdP asks: dropped (docs/security.md)',
};

/**
 * A `t` on a page of this service (§4 App start step 3, §5, issue 14 item 7). §4 stores it as the
 * accessToken cookie, which nothing reads; here it means what it was handed over for:
 *
 * - A valid `t` signs the collector in on this origin when the browser has no live session: a new
 *   session, bound to this browser like any other (a new sessionBinding and sessionId, a new
 *   family), that records it came from a handed-over token. It holds that access token only (no ID
 *   token, no refresh token), so it lasts the token's lifetime and then ends (sessions.ts
 *   sessionTtlSeconds, token-refresher.ts); the shell then sends the collector through the IdP again.
 * - Valid means: TokenVerifier's checks (signature against the IdP's JWKS, RS256, issuer, audience
 *   `api://default`, expiry, claims), not yet expired without the verifier's clock tolerance (a
 *   session cannot start already over), issued (`cid`) to this service's own client or to a brand's
 *   (BRAND_CLIENTS): Okta's default authorization server issues `api://default` tokens to every
 *   application of the organisation, and a token another application obtained must not become a
 *   session here. The `t` a brand received (§4 After login step 6) was issued to its own client
 *   (docs/brand-contract.md §1), so it still signs the collector in when the brand hands it back.
 * - With a live session, `t` changes nothing. A `t` of another collector than the signed-in one is
 *   ignored and logged as a warning (with both public collector ids, never the token).
 * - Only a top-level navigation takes `t` (Sec-Fetch-Mode, Sec-Fetch-Dest): a cross-site image, fetch
 *   or frame cannot sign a browser in (login CSRF through a sub-resource).
 * - In every case `t` leaves the URL: the answer is a redirect to the same page without it, never
 *   cached and with no Referer (HANDOFF_HEADERS), so the token leaves the address bar and the history.
 * - Whatever is refused is logged as a warning with the path and a reason, the token's own problem
 *   first (an empty `t` as §8's 'access token must be specified'), never the token.
 *
 * - Issue 32 item 2: a `t` signs a browser in at most once, on any instance, and never once the
 *   collector has signed out of the sign-in it was handed over from (HandedTokens).
 * - docs/security.md, a sibling host: at once only from this origin, or from a sibling site whose
 * Origin or Referer is   a brand origin of the redirect policy; from anywhere else, only after the
 * collector confirms the   account the page names (docs/security.md, login CSRF through `t`).
 * - docs/security.md, one `t` flooding: that untrusted path costs the store and the IdP little,
 * whoever sends it how   often: it is counted per client address before the token is even verified,
 * then per token, and   past either limit the `t` is dropped (no offer); a used or ended token gets
 * no offer; a token has   at most one live offer (TokenOffers); and the IdP is asked nothing (no
 * userinfo) until the   collector confirms. The page names the account from the verified token
 * alone (OfferedAccount).
 *
 * What remains open, as for any bearer token handed over in a URL: whoever holds a valid `t` that
 * has not been used can sign one browser without a session in as its collector until the token
 * expires. That is the behaviour §4 asks for; the token's lifetime bounds it.
 */
@Injectable()
export class TokenParamSignin {
  /** The clients whose tokens may sign a collector in: this service's and the brands'. */
  private readonly ownClients: ReadonlySet<string>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly verifier: TokenVerifier,
    private readonly sessions: Sessions,
    private readonly liveSessions: LiveSessions,
    private readonly events: AuthEvents,
    private readonly logger: AppLogger,
    private readonly summaries: AccountSummaries,
    private readonly handed: HandedTokens,
    private readonly offers: TokenOffers,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
  ) {
    this.logger.setContext(TokenParamSignin.name);
    this.ownClients = new Set([
      config.idp.clientId,
      ...Object.values(config.brandClients).map((c) => c.clientId),
    ]);
  }

  async take(page: PageToken): Promise<RedirectOutcome> {
    const onward = redirectTo(page.target, { headers: HANDOFF_HEADERS });
    // Sign-out drops `t` itself (§4 Sign-out step 5); a page on its way out signs nobody in.
    if (page.taking === 'signout') return onward;
    // docs/security.md, one `t` flooding: the untrusted path is counted per address before anything
    // costs more (the signature check, the store, the IdP), with the sign-in routes' limit per
    // address. Past it the `t` is dropped like an invalid one rather than answered with a 429,
    // which would leave the token in the address bar and the history: in every case `t` leaves the
    // URL.
    if (page.taking === 'untrusted-navigation' && (await this.overAddressLimit(page.address))) {
      this.logger.warn({ path: page.path, reason: 'address-limit' }, REFUSALS['address-limit']);
      return onward;
    }
    // A repeated `t` (an array) is no token: 'missing', as an empty one.
    const token = typeof page.token === 'string' ? page.token : undefined;
    const check = await this.verifier.verify(token);
    if (!check.ok || token === undefined) {
      const reason = check.ok ? 'missing' : check.reason;
      this.logger.warn({ path: page.path, reason }, TOKEN_PROBLEM_MESSAGES[reason]);
      return onward;
    }
    const { claims } = check;
    const subject = subjectOf(claims);
    const refusal = this.refusal(claims, subject);
    if (refusal !== undefined || subject === undefined) {
      const reason = refusal ?? 'no-subject';
      this.logger.warn({ path: page.path, reason }, REFUSALS[reason]);
      return onward;
    }
    // A valid token on the wrong kind of request: a cross-site image, fetch or frame must not sign
    // a browser in (login CSRF through a sub-resource).
    if (page.taking === 'not-a-navigation') {
      this.logger.warn(
        { path: page.path, reason: page.taking },
        't is taken only on a top-level navigation: dropped',
      );
      return onward;
    }
    const current = await this.liveSessions.read(page.sessionId, page.binding);
    if (current) {
      if (!isSameCollector(current, claims, subject)) {
        this.logger.warn(
          {
            path: page.path,
            reason: 'other-collector',
            collectorsId: current.collectorsId,
            tokenCollectorsId: claims.CollectorsId,
          },
          't of another collector than the signed-in one: ignored',
        );
      }
      return onward;
    }
    // Issue 32 item 1: from another site, only an offer the collector confirms (it is used then).
    if (page.taking === 'untrusted-navigation') return this.offer(page, token, claims);
    // Issue 32 item 2: once per token, and never after the collector signed out of its sign-in.
    const refused = await this.handed.take(token, claims);
    if (refused) {
      this.logger.warn({ path: page.path, reason: refused }, REFUSALS[refused]);
      return onward;
    }
    return this.signIn(page, token, claims, subject, onward);
  }

  /**
   * Issue 32 item 1 (login CSRF): a `t` from another site, or from a link opened outside the browser,
   * may be someone else's. It signs nobody in by itself: the browser goes to a page that names the
   * account and asks (TokenSigninController), with the offer bound to it by the signinBinding cookie.
   * docs/security.md, one `t` flooding: a used or ended token gets no offer, nor does one past
   * OFFERS_PER_TOKEN; the offer replaces the token's earlier one; nothing is asked of the IdP here.
   */
  private async offer(
    page: PageToken,
    token: string,
    claims: AccessTokenClaims,
  ): Promise<RedirectOutcome> {
    const onward = redirectTo(page.target, { headers: HANDOFF_HEADERS });
    const refused = await this.handed.refusal(token, claims);
    if (refused) {
      this.logger.warn({ path: page.path, reason: refused }, REFUSALS[refused]);
      return onward;
    }
    // docs/security.md, a look-alike account: the page names the account by its whole login and
    // the name recorded when this service handed the token over. A token it never handed over (a
    // brand's own refresh, say) could only be named by asking the IdP before the collector
    // confirms, so it gets no offer: the browser goes on without it, through the IdP's sign-in.
    const handedOver = await this.handed.record(token, claims);
    if (!handedOver) {
      this.logger.warn({ path: page.path, reason: 'not-handed-over' }, REFUSALS['not-handed-over']);
      return onward;
    }
    const tokenKey = handedTokenKey(token, claims.jti);
    if (await this.offers.overLimit(tokenKey)) {
      this.logger.warn({ path: page.path, reason: 'token-limit' }, REFUSALS['token-limit']);
      return onward;
    }
    const { key, binding } = await this.offers.issue({
      token,
      tokenKey,
      target: page.target,
      brand: this.brandOf(page),
      account: offeredAccount(claims, handedOver.name),
      ...(page.userAgent ? { userAgent: page.userAgent.slice(0, 256) } : {}),
      ...(page.locale ? { locale: page.locale } : {}),
    });
    this.logger.info(
      { path: page.path, event: 'token-signin-offered' },
      't from another site: asking',
    );
    return redirectTo(servicePath('tokenSignin', { k: key }), {
      cookies: [{ set: 'signinBinding', value: binding }],
      headers: HANDOFF_HEADERS,
    });
  }

  /** The offer a confirmation page shows, if it is live and this browser holds it. */
  shownOffer(key: unknown, binding: unknown): Promise<TokenOffer | undefined> {
    return this.offers.shown(key, binding);
  }

  /**
   * The collector chose the account on the page (a same-origin post with the page's CSRF token): the
   * offer is taken (once), the token checked again (it may have expired, or been used meanwhile), and
   * the browser signed in. Only now is the IdP asked (userinfo, for what the session records).
   */
  async confirm(
    key: unknown,
    binding: unknown,
    csrf: unknown,
  ): Promise<RedirectOutcome | OfferRefusal> {
    const offer = await this.offers.take(key, binding, csrf);
    if (typeof offer === 'string') return offer;
    const onward = redirectTo(offer.target, { headers: HANDOFF_HEADERS });
    const check = await this.verifier.verify(offer.token);
    const subject = check.ok ? subjectOf(check.claims) : undefined;
    if (!check.ok || subject === undefined || this.refusal(check.claims, subject) !== undefined) {
      this.logger.warn(
        { reason: check.ok ? 'refused' : check.reason },
        'the offered t is no longer good',
      );
      return onward;
    }
    const refused = await this.handed.take(offer.token, check.claims);
    if (refused) {
      this.logger.warn({ reason: refused }, REFUSALS[refused]);
      return onward;
    }
    return this.signIn(
      {
        token: offer.token,
        target: offer.target,
        path: ROUTES.tokenSignin,
        taking: 'trusted-navigation',
        brandParam: offer.brand,
        ...(offer.userAgent ? { userAgent: offer.userAgent } : {}),
      },
      offer.token,
      check.claims,
      subject,
      onward,
    );
  }

  /**
   * "Not you?" (docs/security.md, the offer key): the offer ends, nobody is signed in, and the
   * browser goes on to the page the link named, without `t`.
   */
  async decline(
    key: unknown,
    binding: unknown,
    csrf: unknown,
  ): Promise<RedirectOutcome | OfferRefusal> {
    const offer = await this.offers.take(key, binding, csrf);
    if (typeof offer === 'string') return offer;
    this.logger.info({ event: 'token-signin-declined' }, 'the offered t was declined');
    return redirectTo(offer.target, { headers: HANDOFF_HEADERS });
  }

  /**
   * docs/security.md, one `t` flooding: counts the untrusted path per client address, at
   * RATE_LIMIT_SIGNIN: over it? An IPv6 client counts by its /64 (rateLimitAddress), as on every
   * other limit, so rotating the interface id buys no fresh budget.
   */
  private async overAddressLimit(address: string | undefined): Promise<boolean> {
    const { limit, windowSeconds } = this.config.rateLimit.signinPerAddress;
    const hits = await this.store.increment(
      `ratelimit:token-offer:address:${rateLimitAddress(address)}`,
      windowSeconds,
    );
    return hits > limit;
  }

  private refusal(
    claims: AccessTokenClaims,
    subject: string | undefined,
  ): Exclude<Refusal, HandedTokenRefusal> | undefined {
    if (!this.ownClients.has(claims.cid)) return 'other-client';
    if (claims.exp <= Date.now() / 1000) return 'expired';
    if (subject === undefined) return 'no-subject';
    return undefined;
  }

  /** A new session from the handed-over token, bound to this browser (issue 14 items 4 and 7). */
  private async signIn(
    page: PageToken,
    token: string,
    claims: AccessTokenClaims,
    subject: string,
    onward: RedirectOutcome,
  ): Promise<RedirectOutcome> {
    const brand = this.brandOf(page);
    const binding = randomKey();
    const device = page.userAgent?.slice(0, 256);
    // Who signed in, for the landing (issue 16 item 4), and the §3 claims userinfo states (issue 31
    // item 1): a `t` brings no ID token, so the access token and userinfo are all there is.
    const facts = await this.summaries.atSignin(claims, token, subject);
    const { collectorsId } = accountClaimsFrom({
      accessToken: claims,
      userinfo: facts.userinfoClaims,
    });
    const sessionId = await this.sessions.create({
      brand,
      sub: subject,
      ...(collectorsId !== undefined ? { collectorsId } : {}),
      tokens: { accessToken: token, expiresAt: claims.exp },
      ...(device ? { userAgent: device } : {}),
      family: randomKey(),
      bindingHash: bindingHashOf(binding),
      startedBy: 'handed-over-token',
      account: facts.account,
      ...(Object.keys(facts.userinfoClaims).length > 0
        ? { userinfoClaims: facts.userinfoClaims }
        : {}),
    });
    this.events.signin(brand, { sub: subject, ...(collectorsId ? { collectorsId } : {}) }, 'token');
    return {
      ...onward,
      cookies: [
        { set: 'sessionId', value: sessionId },
        { set: 'sessionBinding', value: binding },
      ],
    };
  }

  /** The brand the session records (its favicon and logo, issue 14 item 3): `b`, referrer, default. */
  private brandOf(page: PageToken): Brand {
    const b = page.brandParam?.toLowerCase();
    if (b !== undefined && isBrand(b)) return b;
    return brandFromReferrer(page.referer, this.config.brands) ?? DEFAULT_BRAND;
  }
}

/**
 * docs/security.md, a look-alike account: the account the confirmation page names, from the
 * verified token only (the IdP is not asked before the confirmation): the whole login (`sub`, the
 * email address at both IdPs), never cut, and the collector number when the token carries one. A
 * look-alike address (cx@ for collector@) reads as what it is; one that only looks like another (a
 * Cyrillic с for a Latin c, a zero-width character) is also spelled out (spelledOut). The name is
 * the one recorded when this service handed the token over (HandedTokens.record), when it knew one.
 */
export function offeredAccount(claims: AccessTokenClaims, name?: string): OfferedAccount {
  const login = typeof claims.sub === 'string' ? claims.sub : '';
  const spelled = spelledOut(login);
  return {
    ...(name ? { name } : {}),
    login,
    ...(spelled !== login ? { spelledOut: spelled } : {}),
    ...(claims.CollectorsId !== undefined ? { collectorsId: claims.CollectorsId } : {}),
  };
}

/** A character a reader can tell from every other: printable ASCII other than the space. */
const PLAIN = /^[\x21-\x7e]$/;

/**
 * A login with every character outside printable ASCII written as its code point, so that
 * `сollector@example.com` with a Cyrillic с reads `[U+0441]ollector@example.com`, and an invisible
 * character shows. A plain login comes back as it was.
 */
export function spelledOut(login: string): string {
  return [...login]
    .map((c) =>
      PLAIN.test(c)
        ? c
        : `[U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]`,
    )
    .join('');
}

/**
 * The collector a token names as the session records them: the ID token's `sub`, the user id. Access
 * tokens carry it as `uid`, Okta's and the embedded IdP's alike; their `sub` is the login (Okta's
 * "Tokens and claims", docs/brand-contract.md §5, docs/brand-contract.md). So the session is
 * listed, signed out everywhere and ended by back-channel logout with the collector's other
 * sessions. A token without `uid` names no one: keying its session on the login would set it apart
 * from all of them.
 */
function subjectOf(claims: AccessTokenClaims): string | undefined {
  const id = claims.uid;
  return typeof id === 'string' && id !== '' && id.length <= 256 ? id : undefined;
}

/** The signed-in collector is the token's: by CollectorsId (§3), else by subject. */
function isSameCollector(
  record: SessionRecord,
  claims: AccessTokenClaims,
  subject: string,
): boolean {
  if (record.collectorsId !== undefined) return record.collectorsId === claims.CollectorsId;
  return record.sub === subject;
}
