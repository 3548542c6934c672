import { Inject, Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import type { Brand } from '../shared/brand';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { TOKEN_PROBLEM_MESSAGES } from '../token/token-verifier';
import { HandoffCodes } from './handoff-codes';

export interface HandoffTokenResponse {
  readonly access_token: string;
  readonly refresh_token?: string;
  readonly id_token?: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
  /** The session id (si) the redirect also carried, when the brand gets one. */
  readonly session_id?: string;
}

export type HandoffExchangeResult =
  | { readonly ok: true; readonly body: HandoffTokenResponse }
  | {
      readonly ok: false;
      readonly status: 400 | 401;
      readonly error: 'invalid_request' | 'invalid_client' | 'invalid_grant';
      readonly description: string;
    };

const equal = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The server-to-server exchange of a handoff code (issue 4): the brand's back end authenticates with
 * its client credentials (HTTP Basic, as at a token endpoint) and receives the tokens once. Answers in
 * the OAuth error format (RFC 6749 §5.2).
 */
@Injectable()
export class HandoffExchange {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly codes: HandoffCodes,
  ) {}

  authenticate(authorization: unknown): Brand | undefined {
    if (
      typeof authorization !== 'string' ||
      !authorization.startsWith('Basic ') ||
      authorization.length > 1024
    )
      return undefined;
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 1) return undefined;
    const id = decodeURIComponent(decoded.slice(0, colon));
    const secret = decodeURIComponent(decoded.slice(colon + 1));
    for (const [brand, credentials] of Object.entries(this.config.brandClients)) {
      if (credentials && equal(credentials.clientId, id) && equal(credentials.clientSecret, secret))
        return brand as Brand;
    }
    return undefined;
  }

  async exchange(authorization: unknown, code: unknown): Promise<HandoffExchangeResult> {
    let brand: Brand | undefined;
    try {
      brand = this.authenticate(authorization);
    } catch {
      brand = undefined;
    }
    if (!brand)
      return {
        ok: false,
        status: 401,
        error: 'invalid_client',
        description: 'client authentication failed',
      };
    // The code is what stands for the access token here: without one, §8's message for a call that
    // needs a token and has none.
    if (typeof code !== 'string' || code === '')
      return {
        ok: false,
        status: 400,
        error: 'invalid_request',
        description: TOKEN_PROBLEM_MESSAGES.missing,
      };
    const handoff = await this.codes.take(code);
    // A code for another brand is consumed too: it was exposed to the wrong party.
    if (!handoff || handoff.brand !== brand) {
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
        ...(tokens.idToken ? { id_token: tokens.idToken } : {}),
        token_type: 'Bearer',
        expires_in: Math.max(0, tokens.expiresAt - Math.floor(Date.now() / 1000)),
        ...(handoff.sessionId ? { session_id: handoff.sessionId } : {}),
      },
    };
  }
}
