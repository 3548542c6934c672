import { Body, Controller, Get, Header, HttpCode, Inject, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AppLogger } from '../logging/app-logger';
import { createHash } from 'node:crypto';
import { SessionEnding } from '../session/session-ending';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { SESSION_STORE, SessionStore } from '../store/session-store';
import { TokenVerifier } from '../token/token-verifier';
import { jtiMemorySeconds, logoutTokenProblem } from './logout-token';
import { ServiceSigningKey } from './service-signing-key';
import { ROUTES } from '../shared/routes';

/** Where the IdP posts its logout tokens for this service (registered as backchannel_logout_uri). */

/**
 * OpenID Connect Back-Channel Logout 1.0 in both directions: the IdP tells this service that one of
 * its sessions ended (§2.5-2.8: verify, refuse replays, end the matching sessions, which in turn tells
 * the brands), and brands fetch the key that signs the logout tokens this service sends them.
 */
@Controller()
export class BackchannelController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    private readonly verifier: TokenVerifier,
    private readonly ending: SessionEnding,
    private readonly key: ServiceSigningKey,
    private readonly logger: AppLogger,
  ) {
    this.logger.setContext(BackchannelController.name);
  }

  /** This service's public signing keys (RFC 7517), for brands that verify its logout tokens. */
  @Get(ROUTES.jwks)
  @Header('Cache-Control', 'public, max-age=300')
  jwks() {
    return this.key.jwks();
  }

  @Post(ROUTES.backchannelLogout)
  @HttpCode(200)
  async receive(
    @Body() body: Record<string, unknown> | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Record<string, string>> {
    res.set({ 'Cache-Control': 'no-store' });
    const token = typeof body?.logout_token === 'string' ? body.logout_token : '';
    const refuse = (description: string) => {
      this.logger.warn(
        { event: 'backchannel-logout-in', problem: description },
        'logout token refused',
      );
      res.status(400);
      return { error: 'invalid_request', error_description: description };
    };
    if (!token) return refuse('logout_token is required');
    const claims = await this.verifier.verifyLogoutToken(token);
    if (!claims) return refuse('logout_token is not a valid token of the IdP for this client');
    const now = Math.floor(Date.now() / 1000);
    const problem = logoutTokenProblem(claims, now);
    if (problem) return refuse(`logout_token: ${problem}`);
    // §2.6 step 7 (recommended): a jti is accepted once, and remembered until its token's exp (issue
    // 50 item 9), so that no replay is accepted while the token itself still would be.
    const first = await this.store.setIfAbsent(
      `backchannel-jti:${createHash('sha256')
        .update(`${this.config.idp.issuer} ${String(claims.jti)}`)
        .digest('base64url')}`,
      '1',
      jtiMemorySeconds({ iat: Number(claims.iat), exp: Number(claims.exp) }, now),
    );
    if (!first) return refuse('logout_token was already used');
    const ended =
      typeof claims.sid === 'string'
        ? await this.ending.endByIdpSid(claims.sid, 'idp-backchannel')
        : await this.ending.endAllOf(String(claims.sub), 'idp-backchannel');
    this.logger.info({ event: 'backchannel-logout-in', ended }, 'logout token accepted');
    return {};
  }
}
