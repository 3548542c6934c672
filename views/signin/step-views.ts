import type { Locale } from '../../src/shared/locale';

/**
 * What each sign-in step shows, as data (§4 Sign-in flow). One component (SigninStep) renders any row,
 * so adding a step is a table row and its translations, not a new page.
 * Keys are the flow's state keys (src/idp/flow/signin-flow.ts); text keys live in common.json under
 * `signin.steps.<key>` and `signin.fields.<name>`.
 */
export type FieldType =
  'email' | 'password' | 'new-password' | 'text' | 'code' | 'tel' | 'checkbox' | 'radio';

export interface FieldView {
  readonly name: string;
  readonly type: FieldType;
  /** HTML autocomplete token, so password managers and one-time-code autofill work. */
  readonly autocomplete?: string;
  readonly required: boolean;
  readonly maxLength?: number;
  /** For radio groups: the option values; labels are `signin.options.<name>.<value>`. */
  readonly options?: readonly string[];
}

export interface ActionView {
  /** Sent as the `action` form value; the controller maps it to a flow event. */
  readonly action: string;
  readonly label: string;
  readonly kind: 'primary' | 'secondary' | 'link';
  /** Secondary actions skip the required-field checks before the post (required-fields-script). */
  readonly formNoValidate?: boolean;
  /**
   * Offered only when the step's second factor sends its code (email or SMS): an authenticator app
   * makes its own codes, so there is nothing to send again.
   */
  readonly sentCodesOnly?: boolean;
}

export interface StepView {
  readonly fields: readonly FieldView[];
  readonly actions: readonly ActionView[];
  /** Extra content block rendered between intro and form. */
  readonly content?: 'totp-qr' | 'locked' | 'welcome' | 'success';
  /** Shows which email address is signing in, above the fields. */
  readonly showsEmail?: boolean;
  /**
   * Says, above the fields, the address being registered in full and that no account uses it, so
   * that a mistyped address is noticed before it becomes a second account.
   */
  readonly namesNewEmail?: boolean;
}

const email: FieldView = {
  name: 'email',
  type: 'email',
  autocomplete: 'username',
  required: true,
  maxLength: 254,
};
const password: FieldView = {
  name: 'password',
  type: 'password',
  autocomplete: 'current-password',
  required: true,
  maxLength: 128,
};
const newPassword: FieldView = {
  name: 'newPassword',
  type: 'new-password',
  autocomplete: 'new-password',
  required: true,
  maxLength: 128,
};
/**
 * No maxlength: a code pasted as "528 103" or "528-103" would be cut short without a word; the
 * server drops the spaces and dashes and checks the length (oneTimeCode in signin-steps.ts).
 */
const code: FieldView = {
  name: 'code',
  type: 'code',
  autocomplete: 'one-time-code',
  required: true,
};
const submit = (label = 'continue'): ActionView => ({ action: 'submit', label, kind: 'primary' });
/**
 * The flow's BACK. Its label here is the plain "Back"; the page names where it leads instead
 * (backLabel), since that is the flow's to say: from a second factor it depends on the account.
 */
const back: ActionView = { action: 'back', label: 'previous', kind: 'link', formNoValidate: true };
const resend: ActionView = {
  action: 'resend',
  label: 'resend',
  kind: 'secondary',
  formNoValidate: true,
};
/** "Send a new code" on a second-factor step: only for the factors that send one. */
const resendFactorCode: ActionView = { ...resend, sentCodesOnly: true };

const nameFields: readonly FieldView[] = [
  { name: 'givenName', type: 'text', autocomplete: 'given-name', required: true, maxLength: 100 },
  { name: 'familyName', type: 'text', autocomplete: 'family-name', required: true, maxLength: 100 },
];

/**
 * The languages that write the family name first: a Japanese form asks for 姓 before 名, as the name
 * is written and said. The fields keep their names and autocomplete tokens, so only the order (and
 * so the tab order) changes.
 */
const FAMILY_NAME_FIRST: ReadonlySet<Locale> = new Set<Locale>(['ja-JP']);

/** A step's fields in the order the page's language asks for them. */
export function fieldsInOrder(fields: readonly FieldView[], locale: Locale): readonly FieldView[] {
  if (!FAMILY_NAME_FIRST.has(locale)) return fields;
  const given = fields.findIndex((field) => field.name === 'givenName');
  const family = fields.findIndex((field) => field.name === 'familyName');
  if (given < 0 || family < 0 || family < given) return fields;
  const ordered = [...fields];
  ordered[given] = fields[family] as FieldView;
  ordered[family] = fields[given] as FieldView;
  return ordered;
}

export const STEP_VIEWS: Readonly<Record<string, StepView>> = {
  EmailCheck: { fields: [email], actions: [submit()] },
  CreateAccount: {
    fields: [...nameFields, newPassword, { name: 'acceptTerms', type: 'checkbox', required: true }],
    actions: [submit('createAccount'), back],
    namesNewEmail: true,
  },
  VerifyEmailCode: { fields: [code], actions: [submit('verify'), resend, back] },
  EnterPassword: {
    fields: [password],
    showsEmail: true,
    actions: [
      submit('signIn'),
      { action: 'forgot', label: 'forgotPassword', kind: 'link', formNoValidate: true },
      back,
    ],
  },
  WelcomeCollectors: { fields: [], actions: [submit()], content: 'welcome' },
  EnterNameInfo: {
    fields: [...nameFields],
    actions: [submit('save'), back],
  },
  UpdateExpiredPassword: { fields: [newPassword], actions: [submit('updatePassword'), back] },
  ChooseVerifyFactor: {
    fields: [{ name: 'factor', type: 'radio', required: true, options: ['totp', 'email', 'sms'] }],
    actions: [submit(), back],
  },
  VerifyFactor: { fields: [code], actions: [submit('verify'), resendFactorCode, back] },
  'SetupMfa.PromptSetupMfa': {
    fields: [],
    actions: [
      submit('setUpNow'),
      { action: 'skip', label: 'notNow', kind: 'secondary', formNoValidate: true },
    ],
  },
  'SetupMfa.VerifyCurrentFactor': {
    fields: [code],
    actions: [submit('verify'), resendFactorCode, back],
  },
  'SetupMfa.ChooseVerifyFactor': {
    fields: [{ name: 'factor', type: 'radio', required: true, options: ['totp', 'email', 'sms'] }],
    actions: [submit(), back],
  },
  'SetupMfa.SetupPhone': {
    fields: [{ name: 'phone', type: 'tel', autocomplete: 'tel', required: true, maxLength: 16 }],
    actions: [submit('sendCode'), back],
  },
  'SetupMfa.VerifyNewFactor': {
    fields: [code],
    actions: [submit('verify'), resendFactorCode, back],
    content: 'totp-qr',
  },
  'SetupMfa.Success': { fields: [], actions: [submit()], content: 'success' },
  Survey: {
    fields: [
      {
        name: 'interest',
        type: 'radio',
        required: true,
        options: ['cards', 'coins', 'comics', 'memorabilia', 'other'],
      },
    ],
    actions: [
      submit('submitSurvey'),
      { action: 'skip', label: 'skip', kind: 'secondary', formNoValidate: true },
    ],
  },
  ForgotPassword: { fields: [email], actions: [submit('sendCode'), back] },
  VerifyRecoveryCode: { fields: [code], actions: [submit('verify'), resend, back] },
  ResetPassword: { fields: [newPassword], actions: [submit('resetPassword'), back] },
  LockedOut: {
    fields: [],
    actions: [{ action: 'unlock', label: 'unlockAccount', kind: 'primary' }, back],
    content: 'locked',
  },
  UnlockAccount: { fields: [email], actions: [submit('sendCode'), back] },
  VerifyUnlockCode: { fields: [code], actions: [submit('verify'), resend, back] },
};

/**
 * The label of the back action by the step it leads to (issue 33): "Use a different email" only
 * where the collector returns to the email step, "Verify another way" where they return to the
 * choice of second factor, and "Back" for the step before (the password, the recovery or unlock
 * email, the set-up's previous step).
 */
const BACK_LABELS: Readonly<Record<string, string>> = {
  EmailCheck: 'useDifferentEmail',
  ChooseVerifyFactor: 'verifyAnotherWay',
};

export function backLabel(to: string): string {
  return BACK_LABELS[to] ?? 'previous';
}

/**
 * The actions a step offers for the second factor in use: the table's, less "Send a new code" where
 * the factor sends no code (an authenticator app, or none chosen). The page shows exactly these, and
 * the interaction accepts only these. With `backTo`, the step the flow's BACK leads to from here,
 * the back action is labelled with where it goes (backLabel).
 */
export function offeredActions(
  view: StepView,
  factor: 'totp' | 'email' | 'sms' | undefined,
  backTo?: string,
): readonly ActionView[] {
  const sendsCodes = factor === 'email' || factor === 'sms';
  return view.actions
    .filter((action) => !action.sentCodesOnly || sendsCodes)
    .map((action) =>
      action.action === 'back' && backTo !== undefined
        ? { ...action, label: backLabel(backTo) }
        : action,
    );
}
