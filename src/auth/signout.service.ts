import { Inject, Injectable } from '@nestjs/common';
import { AppLogger } from '../logging/app-logger';
import { Brand } from '../shared/brand';
import { REDIRECT_POLICY } from '../brand/brand.module';
import { RedirectPolicy } from '../brand/redirect-policy';
import { selectReturnTarget } from '../brand/return-target';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { HANDOFF_HEADERS, RedirectOutcome, redirectTo } from '../http/outcome';
import { AuthEvents } from '../logging/auth-events';
import { OidcClient } from '../oidc/oidc-client';
import { LiveSessions } from '../session/live-sessions';
import { OneTimeStore } from '../session/one-time-store';
import { SessionEnding } from '../session/session-ending';
import { SESSION_STORE, SessionStore } from '../session/session-store';
import { ROUTES, servicePath } from '../shared/routes';

/** The IdP's logout round trip must finish within this time. */
const LOGOUT_STATE_TTL_SECONDS = 600;

/** What /logout/collectorsid was asked with (route-queries.ts parses it). */
export interface SignoutRequest {
  readonly brand: Brand;
  /** §4 Sign-out step 5: the query to carry back, minus `t`. */
  readonly carried: Readonly<Record<string, string>>;
  readonly sessionId?: string;
  /** The browser binding: only the browser that holds it ends the session its cookie names. */
  readonly binding?: string;
}

interface PendingLogout {
  readonly brand: Brand;
  readonly query: Readonly<Record<string, string>>;
}

/**
 * §4 Sign-out: end the server session and revoke its refresh token, clear the three token cookies,
 * end the IdP session (RP-initiated logout), land on /handlelogoutredirect with the query except `t`,
 * then go on to a validated return URL or the sign-in page.
 */
@Injectable()
export class SignoutService {
  private readonly pending: OneTimeStore<PendingLogout>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIRECT_POLICY) private readonly policy: RedirectPolicy,
    @Inject(SESSION_STORE) store: SessionStore,
    private readonly ending: SessionEnding,
    private readonly liveSessions: LiveSessions,
    private readonly oidc: OidcClient,
    private readonly events: AuthEvents,
    private readonly logger: AppLogger,
  ) {
    this.logger.setContext(SignoutService.name);
    this.pending = new OneTimeStore<PendingLogout>(store, 'logout', LOGOUT_STATE_TTL_SECONDS);
  }

  async signOut({ brand, carried, sessionId, binding }: SignoutRequest): Promise<RedirectOutcome> {
    // An `si` alone (a brand's copy of a session id) ends nothing (issue 14 item 4).
    const own = await this.liveSessions.bound(sessionId, binding);
    const record = own ? await this.ending.endById(sessionId, 'signout') : undefined;
    this.events.logout(
      brand,
      record
        ? { sub: record.sub, ...(record.collectorsId ? { collectorsId: record.collectorsId } : {}) }
        : {},
      Boolean(record),
    );
    const state = await this.pending.issue({ brand, query: carried });
    const url = await this.oidc.endSessionUrl({
      ...(record?.tokens.idToken ? { idTokenHint: record.tokens.idToken } : {}),
      postLogoutRedirectUri: `${this.config.http.publicUrl}${ROUTES.logoutLanding}`,
      state,
    });
    return redirectTo(url, {
      cookies: [{ clearTokens: true }, { clear: 'sessionBinding' }],
      headers: HANDOFF_HEADERS,
    });
  }

  /** /handlelogoutredirect: on to the validated return URL, or the sign-in page of the brand. */
  async landed(state: string | undefined): Promise<RedirectOutcome> {
    const pending = state ? await this.pending.take(state) : undefined;
    if (!pending) return redirectTo(servicePath('signin'), { headers: HANDOFF_HEADERS });
    // The carried query is the caller's: r is checked here, once, like any return URL (§5).
    const target = selectReturnTarget(pending.query, this.policy, { allowForced: false });
    if (target.kind === 'url') return redirectTo(target.url, { headers: HANDOFF_HEADERS });
    const back = new URLSearchParams(pending.query);
    back.delete('r');
    back.delete('fr');
    back.set('b', pending.brand);
    return redirectTo(servicePath('signin', back), { headers: HANDOFF_HEADERS });
  }
}
