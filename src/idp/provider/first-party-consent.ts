import type { KoaContextWithOIDC, interactionPolicy } from 'oidc-provider';
import { PENDING_STEP_PARAM, parsePendingStep } from '../../shared/pending-step';
import { PUT_OFF_RESULT, putOffStepsIn } from './put-off-steps';

/**
 * Whether a consent prompt our clients asked for (keepOfflineAccess adds it for offline_access) has
 * work for the interaction pages: the collector's pending steps this service asked to be shown, or,
 * right after a sign-in, steps the collector put off in it, which belong to the IdP session the
 * sign-in just made (put-off-steps.ts; its ID token says so). Consent itself is granted without a
 * screen (loadExistingGrant), so any other consent prompt needs no round trip through the pages.
 */
export function consentHasWork(
  params: Readonly<Record<string, unknown>>,
  result: Readonly<Record<string, unknown>> | undefined,
): boolean {
  if (result?.login !== undefined) return putOffStepsIn(result[PUT_OFF_RESULT]).length > 0;
  return parsePendingStep(params[PENDING_STEP_PARAM]) !== undefined;
}

/**
 * oidc-provider's interaction policy with the consent prompt Okta has for first-party apps: none to
 * show. oidc-provider keeps `offline_access` only when the request says prompt=consent, and a
 * requested prompt is resolved by an interaction: two more redirects (to the interaction and back
 * to the authorization) in every authorization, the brand's silent ones included, where Okta sends
 * the browser straight back with its code. Here the requested consent sends the browser to the
 * interaction only when it has work there (consentHasWork); otherwise the authorization goes on
 * with the grant loadExistingGrant makes. The prompt's other checks (scopes or claims not granted,
 * native clients) are oidc-provider's own.
 */
export function firstPartyPolicy(
  policies: typeof interactionPolicy,
): interactionPolicy.DefaultPolicy {
  const policy = policies.base();
  const consent = policy.get('consent');
  if (!consent) throw new Error("oidc-provider's base policy has no consent prompt");
  consent.checks.remove('consent_prompt');
  consent.checks.unshift(
    new policies.Check(
      'consent_prompt',
      'consent prompt was not resolved',
      'consent_required',
      ({ oidc }: KoaContextWithOIDC) =>
        oidc.prompts.has('consent') &&
        oidc.promptPending('consent') &&
        consentHasWork(oidc.params ?? {}, oidc.result),
    ),
  );
  return policy;
}
