import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { AppLogger } from '../logging/app-logger';
import { Brand } from '../shared/brand';
import { parseBrandParam } from '../shared/brand-query';
import { REDIRECT_POLICY } from '../brand/brand.module';
import { RedirectPolicy } from '../brand/redirect-policy';
import { selectReturnTarget } from '../brand/return-target';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ResponseCookies } from '../cookies/response-cookies';
import { AuthEvents } from '../logging/auth-events';
import { SESSION_STORE, SessionStore } from '../session/session-store';
import { random } from './login-state';
import { OidcClient } from '../oidc/oidc-client';
import { SessionEnding } from '../session/session-ending';

const LOGOUT_STATE_TTL_SECONDS = 600;
const MAX_CARRIED_PARAM = 2048;

interface PendingLogout {
  readonly brand: Brand;
  /** §4 Sign-out step 5: the query carried back, minus `t`. */
  readonly query: Record<string, string>;
}

/**
 * §4 Sign-out: end the server session and revoke its refresh token, clear the three token cookies,
 * end the IdP session (RP-initiated logout), land on /handlelogoutredirect with the query except `t`,
 * then go on to a validated return URL or the sign-in page.
 */
@Injectable()
export class SignoutService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIRECT_POLICY) private readonly policy: RedirectPolicy,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    private readonly ending: SessionEnding,
    private readonly oidc: OidcClient,
    private readonly cookies: ResponseCookies,
    private readonly events: AuthEvents,
    private readonly logger: AppLogger,
  ) {
    this.logger.setContext(SignoutService.name);
  }

  async signOut(req: Request, res: Response): Promise<string> {
    const brandParam = parseBrandParam(req.query.b);
    const brand: Brand = brandParam.ok ? brandParam.brand : 'collectors';
    const record = await this.ending.endById(this.cookies.read(req).sessionId, 'signout');
    this.cookies.clearTokens(res);
    this.events.logout(
      brand,
      record
        ? { sub: record.sub, ...(record.collectorsId ? { collectorsId: record.collectorsId } : {}) }
        : {},
      Boolean(record),
    );
    const state = random();
    await this.store.set(
      this.key(state),
      JSON.stringify({ brand, query: carriedQuery(req.query) } satisfies PendingLogout),
      LOGOUT_STATE_TTL_SECONDS,
    );
    const url = await this.oidc.endSessionUrl({
      ...(record?.tokens.idToken ? { idTokenHint: record.tokens.idToken } : {}),
      postLogoutRedirectUri: `${this.config.http.publicUrl}/handlelogoutredirect`,
      state,
    });
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    return url.href;
  }

  /** /handlelogoutredirect: on to the validated return URL, or the sign-in page of the brand. */
  async landed(req: Request, res: Response): Promise<string> {
    const state = typeof req.query.state === 'string' ? req.query.state : '';
    const raw = state ? await this.store.take(this.key(state)) : undefined;
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    if (!raw) return '/signin';
    const pending = JSON.parse(raw) as PendingLogout;
    const target = selectReturnTarget(pending.query, this.policy, { allowForced: false });
    if (target.kind === 'url') return target.url;
    const back = new URLSearchParams(pending.query);
    back.delete('r');
    back.delete('fr');
    back.set('b', pending.brand);
    return `/signin?${back.toString()}`;
  }

  private key(state: string): string {
    return `logout:${createHash('sha256').update(state).digest('base64url')}`;
  }
}

/** The query minus `t` (§4 Sign-out step 5), single string values only, each bounded. */
function carriedQuery(query: Request['query']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (key === 't' || typeof value !== 'string' || value.length > MAX_CARRIED_PARAM) continue;
    out[key] = value;
  }
  return out;
}
