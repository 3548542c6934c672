import { SafeRedirectUrl, withQueryParams } from '../brand/redirect-policy';
import type { TokenSet } from '../oidc/oidc-client';

/**
 * §4 step 6: the query a brand redirect carries. With `tokens-in-url` (the spec's behaviour for web
 * brands) si, t and rt; with `handoff-code` (mobile apps, and web brands that opt in) si and a
 * one-time code instead of tokens. A validated return URL rides along as `r`.
 */
export function brandRedirectUrl(
  target: SafeRedirectUrl,
  handoff: { mode: 'tokens-in-url'; tokens: TokenSet } | { mode: 'handoff-code'; code: string },
  sessionId: string | undefined,
  returnUrl: SafeRedirectUrl | undefined,
): SafeRedirectUrl {
  return withQueryParams(target, {
    si: sessionId,
    ...(handoff.mode === 'tokens-in-url'
      ? { t: handoff.tokens.accessToken, rt: handoff.tokens.refreshToken }
      : { code: handoff.code }),
    r: returnUrl,
  });
}
