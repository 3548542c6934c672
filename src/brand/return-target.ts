import type { AppEnv } from '../shared/environment';
import { isDeveloperEnv } from '../shared/environment';
import {
  RedirectPolicy,
  RedirectRejection,
  SafeRedirectUrl,
  checkRedirectUrl,
} from './redirect-policy';

export type ReturnTarget =
  | { readonly kind: 'none' }
  | { readonly kind: 'url'; readonly url: SafeRedirectUrl; readonly from: 'r' | 'fr' }
  | { readonly kind: 'rejected'; readonly param: 'r' | 'fr'; readonly reason: RedirectRejection };

export interface ReturnTargetQuery {
  readonly r?: unknown;
  readonly fr?: unknown;
}

/**
 * §5: `r` is used only after the safe parse; `fr` (the forced return URL) only when the calling flow
 * allows it, and then it wins over `r`. A present but rejected value is reported, never silently dropped,
 * so the caller can show an error instead of guessing.
 */
export function selectReturnTarget(
  query: ReturnTargetQuery,
  policy: RedirectPolicy,
  options: { readonly allowForced: boolean },
): ReturnTarget {
  const candidates: ['fr' | 'r', unknown][] = options.allowForced
    ? [
        ['fr', query.fr],
        ['r', query.r],
      ]
    : [['r', query.r]];
  for (const [param, value] of candidates) {
    if (value === undefined || value === '') continue;
    const decision = checkRedirectUrl(value, policy);
    if (!decision.ok) return { kind: 'rejected', param, reason: decision.reason };
    return { kind: 'url', url: decision.url, from: param };
  }
  return { kind: 'none' };
}

/** §5: the local override applies only when l is exactly 'true' and the environment is local or dev. */
export function isLocalOverride(l: unknown, env: AppEnv): boolean {
  return l === 'true' && isDeveloperEnv(env);
}
