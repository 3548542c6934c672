import type { TokenSet } from '../session/sessions';

/**
 * §4 step 6: the query a brand redirect carries. With `tokens-in-url` (the spec's behaviour for web
 * brands) si, t and rt; with `handoff-code` (mobile apps, and web brands that opt in) si and a
 * one-time code instead of tokens. A validated return URL rides along as `r`.
 */
export function brandRedirectUrl(
  target: string,
  handoff: { mode: 'tokens-in-url'; tokens: TokenSet } | { mode: 'handoff-code'; code: string },
  sessionId: string | undefined,
  returnUrl: string | undefined,
): string {
  const url = new URL(target);
  if (sessionId) url.searchParams.set('si', sessionId);
  if (handoff.mode === 'tokens-in-url') {
    url.searchParams.set('t', handoff.tokens.accessToken);
    if (handoff.tokens.refreshToken) url.searchParams.set('rt', handoff.tokens.refreshToken);
  } else {
    url.searchParams.set('code', handoff.code);
  }
  if (returnUrl) url.searchParams.set('r', returnUrl);
  return url.href;
}
