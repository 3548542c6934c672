import type { PasswordRule } from '../accounts/password-policy';
import type { FlowEvent } from '../flow/signin-flow';
import type { FlowData } from './flow-records';

/** Error codes shown on a step; translated from `common.signin.errors.*` (and `passwordRules.*`). */
export type StepErrorCode =
  | 'required'
  | 'tooLong'
  | 'invalidEmail'
  | 'emailTaken'
  | 'wrongPassword'
  | 'passwordReused'
  | 'codeInvalid'
  | 'codeExpired'
  | 'codeTooManyAttempts'
  /** Issue 15 item 3: too many wrong codes this hour; the factor or the recovery is locked a while. */
  | 'codeLocked'
  /** Issue 15 item 3: too many codes sent this hour. */
  | 'tooManyCodesSent'
  /** Issue 15 item 2: the right password of an address that was never verified. */
  | 'emailUnverified'
  | 'termsRequired'
  | 'invalidName'
  | 'invalidPhone'
  | 'chooseOption'
  | 'csrf'
  | 'notAllowed';

/** A message that needs values, e.g. how many password attempts are left. */
export interface StepMessage {
  readonly code: StepErrorCode;
  readonly args?: Record<string, string>;
}

export interface StepErrors {
  readonly form?: StepMessage;
  readonly fields: Readonly<
    Record<string, StepErrorCode | StepMessage | { readonly rules: readonly PasswordRule[] }>
  >;
}

/**
 * What handling one form post produced: a flow event (with what to remember), an unchanged step with
 * errors (answered 400 and nothing stored), or an unchanged step with a notice (e.g. a code re-sent).
 */
export type StepOutcome =
  | { readonly kind: 'event'; readonly event: FlowEvent; readonly patch?: Partial<FlowData> }
  | {
      readonly kind: 'invalid';
      readonly errors: StepErrors;
      readonly values?: Record<string, string>;
    }
  | { readonly kind: 'stay'; readonly patch?: Partial<FlowData> };

export const invalid = (
  fields: StepErrors['fields'],
  form?: StepErrors['form'],
  values?: Record<string, string>,
): StepOutcome => ({
  kind: 'invalid',
  errors: { fields, ...(form ? { form } : {}) },
  ...(values ? { values } : {}),
});
