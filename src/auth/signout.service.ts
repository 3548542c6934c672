import { Inject, Injectable } from '@nestjs/common';
import { AppLogger } from '../logging/app-logger';
import { Brand, DEFAULT_BRAND } from '../shared/brand';
import { DEFAULT_LOCALE, type Locale, resolveLocale } from '../shared/locale';
import { REDIRECT_POLICY } from '../brand/brand.module';
import { RedirectPolicy, type SafeRedirectUrl } from '../brand/redirect-policy';
import { selectReturnTarget } from '../brand/return-target';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { HANDOFF_HEADERS, RedirectOutcome, redirectTo } from '../http/outcome';
import { AuthEvents } from '../logging/auth-events';
import { OidcClient } from '../oidc/oidc-client';
import { LiveSessions } from '../session/live-sessions';
import { OneTimeStore } from '../store/one-time-store';
import { SessionEnding } from '../session/session-ending';
import { SESSION_STORE, SessionStore } from '../store/session-store';
import { TokenVault } from '../store/token-vault';
import { ROUTES, type ServicePath, localizedPath, servicePath } from '../shared/routes';
import { SIGNED_OUT_QUERY } from '../shared/signed-out-notice';
import { bindingHashOf, matchesBinding } from '../session/browser-binding';
import type { SignoutConfirmationPage } from './signout-confirmation-page';

/** The IdP's logout round trip must finish within this time. */
const LOGOUT_STATE_TTL_SECONDS = 600;

/** How long a sign-out confirmation page's form stays good (docs/security.md, sign-out CSRF). */
export const SIGNOUT_CONFIRMATION_TTL_SECONDS = 600;

/**
 * A confirmation page's token, kept as its hash (OneTimeStore): the browser binding the page was
 * shown to, or none for a browser that had none (it has no session here to end).
 */
interface IssuedConfirmation {
  readonly bindingHash?: string;
}

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
  /** The collector whose session ended: the Logout event names them by their public id (§3). */
  readonly collectorsId?: number;
}

/**
 * /handlelogoutredirect as the browser receives it (§4 Sign-out steps 3-5): a page that clears this
 * product's storage keys, records the Logout event when a sign-out happened, and goes on to `target`.
 * Every sign-out passes here, whoever sent the collector to /logout/collectorsid (issue 14 item 8).
 */
export interface SignedOutLanding {
  /** The validated return URL, or the brand's sign-in page in the collector's language. */
  readonly target: SafeRedirectUrl | ServicePath;
  readonly brand: Brand;
  /** §5 from the carried query (l, lang, then the brand), as the sign-out was asked for. */
  readonly locale: Locale;
  /** A sign-out of ours led here (not a stray or replayed visit): the Logout event is recorded. */
  readonly signedOut: boolean;
  readonly collectorsId?: number;
}

/**
 * §4 Sign-out: end the server session and revoke its refresh token, clear the three token cookies,
 * end the IdP session (RP-initiated logout), land on /handlelogoutredirect with the query except `t`,
 * then go on to a validated return URL or the sign-in page.
 */
@Injectable()
export class SignoutService {
  private readonly pending: OneTimeStore<PendingLogout>;
  private readonly confirmations: OneTimeStore<IssuedConfirmation>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIRECT_POLICY) private readonly policy: RedirectPolicy,
    @Inject(SESSION_STORE) store: SessionStore,
    private readonly ending: SessionEnding,
    private readonly liveSessions: LiveSessions,
    private readonly oidc: OidcClient,
    private readonly events: AuthEvents,
    private readonly logger: AppLogger,
    vault: TokenVault,
  ) {
    this.logger.setContext(SignoutService.name);
    // docs/security.md, secrets at rest: the collector's number and the carried query are sealed at
    // rest too.
    this.pending = new OneTimeStore<PendingLogout>(
      store,
      'logout',
      LOGOUT_STATE_TTL_SECONDS,
      vault,
    );
    this.confirmations = new OneTimeStore<IssuedConfirmation>(
      store,
      'logout-confirm',
      SIGNOUT_CONFIRMATION_TTL_SECONDS,
    );
  }

  /**
   * docs/security.md, sign-out CSRF: a sign-out that does not evidently come from this service or a
   * brand ends nothing yet. The collector sees a page of this service that asks; its form carries a
   * token bound to this browser (its binding cookie) and posts the same query back (`confirm`).
   */
  async askFirst(request: SignoutRequest): Promise<SignoutConfirmationPage> {
    const token = await this.confirmations.issue(
      request.binding ? { bindingHash: bindingHashOf(request.binding) } : {},
    );
    const locale = localeOfSignout(request.brand, request.carried);
    return {
      kind: 'confirm-signout',
      brand: request.brand,
      locale,
      action: servicePath('logout', request.carried),
      token,
      stay: localizedPath('collection', locale),
    };
  }

  /**
   * The confirmation page's form came back (same-origin, the controller checked): a token this
   * service issued, not used yet, for this browser's binding, signs out as asked. Anything else (an
   * expired page, a token of another browser or of another sign-in of this one) asks again with a
   * fresh page; it never signs out.
   */
  async confirm(
    request: SignoutRequest,
    token: unknown,
  ): Promise<RedirectOutcome | SignoutConfirmationPage> {
    const issued = await this.confirmations.take(token);
    const bound =
      issued !== undefined &&
      (issued.bindingHash === undefined
        ? request.binding === undefined
        : matchesBinding(issued.bindingHash, request.binding));
    if (bound) return this.signOut(request);
    this.logger.warn(
      {
        event: 'signout-confirmation-refused',
        brand: request.brand,
        reason: issued ? 'other-browser' : 'unknown-token',
      },
      'a sign-out confirmation without a token this browser was given: asking again',
    );
    return this.askFirst(request);
  }

  async signOut({ brand, carried, sessionId, binding }: SignoutRequest): Promise<RedirectOutcome> {
    // An `si` alone (a brand's copy of a session id) ends nothing (issue 14 item 4).
    const own = await this.liveSessions.bound(sessionId, binding);
    const record = own ? await this.ending.endById(sessionId, 'signout') : undefined;
    // The rest of this browser's sign-in goes too (the `si` each brand received): the binding cookie
    // is cleared below, so none of them is usable here any more, and each brand is told
    // (docs/brand-contract.md §7).
    if (record) await this.ending.endFamilyOf(record, 'signout');
    this.events.logout(
      brand,
      record
        ? { sub: record.sub, ...(record.collectorsId ? { collectorsId: record.collectorsId } : {}) }
        : {},
      Boolean(record),
    );
    const state = await this.pending.issue({
      brand,
      query: carried,
      ...(record?.collectorsId !== undefined ? { collectorsId: record.collectorsId } : {}),
    });
    const cookies = [{ clearTokens: true }, { clear: 'sessionBinding' }] as const;
    const idToken = record?.tokens.idToken;
    if (!idToken) {
      // docs/okta.md "Sign-out at Okta": Okta's logout endpoint requires id_token_hint and
      // refuses a logout without one, so a session with no ID token (one begun from a brand's `t`, which
      // brings an access token only) or no session here at all does not go to the IdP. It lands
      // straight on /handlelogoutredirect, the way back from the IdP, and goes on from there as
      // any sign-out does; the collector's Okta session, if there is one, stays.
      return redirectTo(servicePath('logoutLanding', { state }), {
        cookies,
        headers: HANDOFF_HEADERS,
      });
    }
    const url = await this.oidc.endSessionUrl({
      // RP-Initiated Logout 1.0 §2: the ID token names the session to end at the IdP.
      idTokenHint: idToken,
      // The IdP's logout page speaks the collector's language too (ui_locales, RP-Initiated
      // Logout 1.0 §2).
      uiLocales: localeOfSignout(brand, carried),
      postLogoutRedirectUri: `${this.config.http.publicUrl}${ROUTES.logoutLanding}`,
      state,
    });
    return redirectTo(url, { cookies, headers: HANDOFF_HEADERS });
  }

  /**
   * /handlelogoutredirect: where the browser goes on to (the validated return URL, or the sign-in page
   * of the brand with the carried query), in the language the sign-out was asked in.
   */
  async landed(
    state: string | undefined,
    unknown: { readonly brand: Brand; readonly locale: Locale } = {
      brand: DEFAULT_BRAND,
      locale: DEFAULT_LOCALE,
    },
  ): Promise<SignedOutLanding> {
    const pending = state ? await this.pending.take(state) : undefined;
    if (!pending) {
      // No sign-out of ours behind this visit (a bookmark, a shared link, a state already used):
      // the page says nothing was signed out, in the brand and language its own query asks for
      // (§5), since there is no carried query to take them from (issue 33).
      const { brand, locale } = unknown;
      return {
        target: servicePath('signin', {
          b: brand === DEFAULT_BRAND ? undefined : brand,
          lang: locale === DEFAULT_LOCALE ? undefined : locale,
        }),
        brand,
        locale,
        signedOut: false,
      };
    }
    const { brand, query } = pending;
    const landing = {
      brand,
      locale: localeOfSignout(brand, query),
      signedOut: true,
      ...(pending.collectorsId !== undefined ? { collectorsId: pending.collectorsId } : {}),
    };
    // The carried query is the caller's: r is checked here, once, like any return URL (§5).
    const target = selectReturnTarget(query, this.policy, { allowForced: false });
    if (target.kind === 'url') return { ...landing, target: target.url };
    const back = new URLSearchParams(query);
    back.delete('r');
    back.delete('fr');
    back.set('b', brand);
    back.set(SIGNED_OUT_QUERY, 'true');
    return { ...landing, target: servicePath('signin', back) };
  }
}

/** §5 for a sign-out: `l`, then `lang` of the query it was asked with, then the brand. */
function localeOfSignout(brand: Brand, query: Readonly<Record<string, string>>): Locale {
  return resolveLocale({ l: query.l, lang: query.lang, brand });
}
