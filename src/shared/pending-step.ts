import type { ShellGuardReason } from './shell-guard';

/**
 * Pending steps without a second password (issue 14 item 5).
 *
 * When this service sends a collector it already knows back to the IdP for a step that is still
 * pending (§4 After login step 3: new, migrated or returnToSignIn; §2 Signed-in shell: migrating, a
 * second-factor set-up, a survey), it does so without `prompt=login`, so the collector never types
 * their password again for it, and it names the reason in this authorization request parameter. The
 * embedded IdP reads it and shows a collector with a live IdP session the pending steps directly
 * (src/idp/interaction/interaction.service.ts); an external IdP ignores it and answers the request as
 * it sees fit. Like `brand` (src/idp/provider/journey-brand.ts) it is only a hint: the IdP decides
 * which steps are pending from its own account records.
 */
export const PENDING_STEP_PARAM = 'pending_step';

/** §2 Signed-in shell: the reasons the shell sends a signed-in collector to /signin. */
export type ShellPendingStep = Exclude<ShellGuardReason, 'not-signed-in'>;

export const PENDING_STEPS = [
  /** §4 After login step 3: a new or migrated account (the brand's isNewAccount / isMigrated). */
  'welcome',
  /** §4 After login step 3: the brand's returnToSignIn; whatever the IdP still has pending. */
  'returnToSignIn',
  'migrating',
  'setup-mfa',
  'survey',
] as const;

export type PendingStep = (typeof PENDING_STEPS)[number];

/** The request's pending step when it names one exactly; anything else is no request for steps. */
export function parsePendingStep(value: unknown): PendingStep | undefined {
  return typeof value === 'string' && (PENDING_STEPS as readonly string[]).includes(value)
    ? (value as PendingStep)
    : undefined;
}

/** The §2 shell reasons among the pending steps (the ones "never twice in a row" is about). */
export function isShellPendingStep(step: PendingStep | undefined): step is ShellPendingStep {
  return step === 'migrating' || step === 'setup-mfa' || step === 'survey';
}
