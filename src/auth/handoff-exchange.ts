import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { HandoffCodes } from './handoff-codes';
import { type TokenError, type TokenRequestInput, readTokenRequest } from './handoff-token-request';

/** RFC 6749 §5.1, with the session id as this endpoint's one extension. */
export interface HandoffTokenResponse {
  readonly access_token: string;
  readonly refresh_token?: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
  /** The session id (si) the redirect also carried, when the brand gets one. */
  readonly session_id?: string;
}

export type HandoffExchangeResult =
  | { readonly ok: true; readonly body: HandoffTokenResponse }
  | ({ readonly ok: false } & TokenError);

/**
 * The server-to-server exchange of a handoff code (RFC 6749 §4.1.3): an OAuth 2.0 token
 * endpoint for the authorization_code grant (RFC 6749 §4.1.3), where the brand's back end
 * authenticates with its client credentials and receives the tokens once. What a request may look
 * like is readTokenRequest's (src/auth/handoff-token-request.ts); this takes the code. `scope` is not
 * answered: the tokens were granted for the scope this service asks the IdP for, not one the brand
 * requested, and the code does not keep it (RFC 6749 §5.1 makes it optional then).
 *
 * The code stands for what a web brand's URL carries (§4 step 6: `t`, `rt`, and `si` as
 * `session_id`), not for an OpenID Connect sign-in of the brand's own: no ID token. The one this
 * service's silent grant obtained carries the nonce this service chose, which an OIDC library that
 * redeems the code with its ordinary call (openid-client's authorizationCodeGrant) rightly refuses,
 * having sent none itself; the brand learns who signed in from `t` (`uid`, docs/brand-contract.md).
 */
@Injectable()
export class HandoffExchange {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly codes: HandoffCodes,
  ) {}

  async exchange(request: TokenRequestInput): Promise<HandoffExchangeResult> {
    const reading = readTokenRequest(request, this.config.brandClients);
    // A refused request never reaches the code, so it stays usable.
    if (!reading.ok) return { ok: false, ...reading.error };
    const handoff = await this.codes.take(reading.code);
    // A code for another brand is consumed too: it was exposed to the wrong party.
    if (!handoff || handoff.brand !== reading.brand) {
      return {
        ok: false,
        status: 400,
        error: 'invalid_grant',
        description: 'the code is unknown, expired, used, or for another client',
      };
    }
    const { tokens } = handoff;
    return {
      ok: true,
      body: {
        access_token: tokens.accessToken,
        ...(tokens.refreshToken ? { refresh_token: tokens.refreshToken } : {}),
        token_type: 'Bearer',
        expires_in: Math.max(0, tokens.expiresAt - Math.floor(Date.now() / 1000)),
        ...(handoff.sessionId ? { session_id: handoff.sessionId } : {}),
      },
    };
  }
}
