/**
 * The embedded identity provider's sign-in steps as one pure state machine (§4 Sign-in flow).
 *
 * §4 names the steps and the password-check outcomes but shows no transitions; they are designed
 * here as one table (`TRANSITIONS`) plus a few named decisions (`DECISIONS`). `transition()` only
 * reads the table, and `renderMermaid()` draws it for docs/signin-flow.md, so code, tests and
 * documentation cannot disagree. No I/O: the controller verifies codes and passwords, then reports
 * the result as an event; a wrong code or an invalid form is not an event at all.
 */

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

/** §4 Sign-in flow: the steps, verbatim. */
export const SPEC_SIGNIN_STEPS = [
  'EmailCheck',
  'CreateAccount',
  'VerifyEmailCode',
  'EnterPassword',
  'WelcomeCollectors',
  'EnterNameInfo',
  'UpdateExpiredPassword',
  'ChooseVerifyFactor',
  'VerifyFactor',
  'SetupMfa',
  'Survey',
] as const;

/**
 * Our additions: §4 shows no recovery, unlock or end step, but the product needs them
 * (LOCKED_OUT must lead somewhere, and the interaction must know when sign-in is complete).
 */
export const ADDED_SIGNIN_STEPS = [
  'ForgotPassword',
  'VerifyRecoveryCode',
  'ResetPassword',
  'LockedOut',
  'UnlockAccount',
  'VerifyUnlockCode',
  'Done',
] as const;

export const SIGNIN_STEPS = [...SPEC_SIGNIN_STEPS, ...ADDED_SIGNIN_STEPS] as const;
export type SigninStep = (typeof SIGNIN_STEPS)[number];

/** §4 Second-factor setup steps: the sub-flow inside SetupMfa. */
export const SETUP_STEPS = [
  'PromptSetupMfa',
  'ChooseVerifyFactor',
  'VerifyCurrentFactor',
  'SetupPhone',
  'VerifyNewFactor',
  'Success',
] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

/** §4 Outcomes of the password check, plus our INVALID_CREDENTIALS (wrong, but not yet locked). */
export const PASSWORD_OUTCOMES = [
  'LOCKED_OUT',
  'SUCCESS',
  'PASSWORD_EXPIRED',
  'MFA_REQUIRED',
  'INVALID_CREDENTIALS',
] as const;
export type PasswordOutcome = (typeof PASSWORD_OUTCOMES)[number];

export const FACTOR_TYPES = ['totp', 'email', 'sms'] as const;
export type FactorType = (typeof FACTOR_TYPES)[number];

// ---------------------------------------------------------------------------------------------
// States
// ---------------------------------------------------------------------------------------------

type PlainStep = Exclude<SigninStep, 'VerifyFactor' | 'SetupMfa'>;

/**
 * Where the user is. SetupMfa nests its sub-step, so the sign-in ChooseVerifyFactor and the set-up
 * ChooseVerifyFactor are different states. VerifyFactor records the factor being verified: which
 * events it accepts depends on it (a TOTP code cannot be resent).
 */
export type FlowState =
  | { readonly step: PlainStep }
  | { readonly step: 'VerifyFactor'; readonly factor: FactorType }
  | { readonly step: 'SetupMfa'; readonly setup: SetupStep };

/**
 * A whole state as one string, for the table and for the interaction session:
 * `EmailCheck`, `VerifyFactor.sms`, `SetupMfa.VerifyNewFactor`. Pages are named by stepKey().
 */
export type StateKey = PlainStep | `VerifyFactor.${FactorType}` | `SetupMfa.${SetupStep}`;

export function stateKey(state: FlowState): StateKey {
  if (state.step === 'VerifyFactor') return `VerifyFactor.${state.factor}`;
  if (state.step === 'SetupMfa') return `SetupMfa.${state.setup}`;
  return state.step;
}

/** The page a state shows: its key without the factor (the three VerifyFactor states share one). */
export type StepKey = PlainStep | 'VerifyFactor' | `SetupMfa.${SetupStep}`;

/** Names the page for views and step handlers; stateKey() is what gets stored. */
export function stepKey(state: FlowState): StepKey {
  if (state.step === 'SetupMfa') return `SetupMfa.${state.setup}`;
  return state.step;
}

/** Every state, in step order. Frozen: states are shared values, never mutated. */
export const FLOW_STATES: readonly FlowState[] = SIGNIN_STEPS.flatMap((step): FlowState[] => {
  if (step === 'VerifyFactor') return FACTOR_TYPES.map((factor) => ({ step, factor }));
  if (step === 'SetupMfa') return SETUP_STEPS.map((setup) => ({ step, setup }));
  return [{ step }];
}).map((state) => Object.freeze(state));

export const STATE_KEYS: readonly StateKey[] = FLOW_STATES.map(stateKey);

// A Map, not an object: '__proto__' or 'constructor' from a tampered session must not resolve.
const STATE_BY_KEY: ReadonlyMap<string, FlowState> = new Map(
  FLOW_STATES.map((state) => [stateKey(state), state]),
);

/** Reads a state stored in the interaction session; anything but a known key is undefined. */
export function parseStateKey(key: unknown): FlowState | undefined {
  return typeof key === 'string' ? STATE_BY_KEY.get(key) : undefined;
}

function stateOf(key: StateKey): FlowState {
  const state = STATE_BY_KEY.get(key);
  if (state === undefined) throw new Error(`Sign-in flow: no state ${key}`);
  return state;
}

export const INITIAL_STATE: FlowState = stateOf('EmailCheck');

// ---------------------------------------------------------------------------------------------
// Events and context
// ---------------------------------------------------------------------------------------------

export const EVENT_TYPES = [
  'EMAIL_SUBMITTED',
  'ACCOUNT_CREATED',
  'EMAIL_CODE_VERIFIED',
  'PASSWORD_CHECKED',
  'PASSWORD_UPDATED',
  'FACTOR_CHOSEN',
  'FACTOR_VERIFIED',
  'NAME_SAVED',
  'WELCOME_CONTINUED',
  'SURVEY_SUBMITTED',
  'SURVEY_SKIPPED',
  'SETUP_STARTED',
  'SETUP_SKIPPED',
  'CURRENT_FACTOR_VERIFIED',
  'PHONE_SUBMITTED',
  'NEW_FACTOR_VERIFIED',
  'SETUP_FINISHED',
  'FORGOT_PASSWORD',
  'FORGOT_PASSWORD_SUBMITTED',
  'RECOVERY_CODE_VERIFIED',
  'PASSWORD_RESET',
  'UNLOCK_REQUESTED',
  'UNLOCK_EMAIL_SUBMITTED',
  'UNLOCK_CODE_VERIFIED',
  'BACK',
  'CODE_RESENT',
] as const;
export type FlowEventType = (typeof EVENT_TYPES)[number];

type BareEventType = Exclude<
  FlowEventType,
  'EMAIL_SUBMITTED' | 'PASSWORD_CHECKED' | 'FACTOR_CHOSEN'
>;

/** What the controller observed on the current step, reported after it did the I/O. */
export type FlowEvent =
  | { readonly type: 'EMAIL_SUBMITTED'; readonly accountExists: boolean }
  | { readonly type: 'PASSWORD_CHECKED'; readonly outcome: PasswordOutcome }
  | { readonly type: 'FACTOR_CHOSEN'; readonly factor: FactorType }
  | { readonly [T in BareEventType]: { readonly type: T } }[BareEventType];

/** Every possible event, grouped by type (payloads are finite, so they can be listed). */
const EVENTS_BY_TYPE: {
  readonly [T in FlowEventType]: readonly Extract<FlowEvent, { type: T }>[];
} = {
  EMAIL_SUBMITTED: [true, false].map((accountExists) => ({
    type: 'EMAIL_SUBMITTED',
    accountExists,
  })),
  ACCOUNT_CREATED: [{ type: 'ACCOUNT_CREATED' }],
  EMAIL_CODE_VERIFIED: [{ type: 'EMAIL_CODE_VERIFIED' }],
  PASSWORD_CHECKED: PASSWORD_OUTCOMES.map((outcome) => ({ type: 'PASSWORD_CHECKED', outcome })),
  PASSWORD_UPDATED: [{ type: 'PASSWORD_UPDATED' }],
  FACTOR_CHOSEN: FACTOR_TYPES.map((factor) => ({ type: 'FACTOR_CHOSEN', factor })),
  FACTOR_VERIFIED: [{ type: 'FACTOR_VERIFIED' }],
  NAME_SAVED: [{ type: 'NAME_SAVED' }],
  WELCOME_CONTINUED: [{ type: 'WELCOME_CONTINUED' }],
  SURVEY_SUBMITTED: [{ type: 'SURVEY_SUBMITTED' }],
  SURVEY_SKIPPED: [{ type: 'SURVEY_SKIPPED' }],
  SETUP_STARTED: [{ type: 'SETUP_STARTED' }],
  SETUP_SKIPPED: [{ type: 'SETUP_SKIPPED' }],
  CURRENT_FACTOR_VERIFIED: [{ type: 'CURRENT_FACTOR_VERIFIED' }],
  PHONE_SUBMITTED: [{ type: 'PHONE_SUBMITTED' }],
  NEW_FACTOR_VERIFIED: [{ type: 'NEW_FACTOR_VERIFIED' }],
  SETUP_FINISHED: [{ type: 'SETUP_FINISHED' }],
  FORGOT_PASSWORD: [{ type: 'FORGOT_PASSWORD' }],
  FORGOT_PASSWORD_SUBMITTED: [{ type: 'FORGOT_PASSWORD_SUBMITTED' }],
  RECOVERY_CODE_VERIFIED: [{ type: 'RECOVERY_CODE_VERIFIED' }],
  PASSWORD_RESET: [{ type: 'PASSWORD_RESET' }],
  UNLOCK_REQUESTED: [{ type: 'UNLOCK_REQUESTED' }],
  UNLOCK_EMAIL_SUBMITTED: [{ type: 'UNLOCK_EMAIL_SUBMITTED' }],
  UNLOCK_CODE_VERIFIED: [{ type: 'UNLOCK_CODE_VERIFIED' }],
  BACK: [{ type: 'BACK' }],
  CODE_RESENT: [{ type: 'CODE_RESENT' }],
};

export function eventsOfType(type: FlowEventType): readonly FlowEvent[] {
  return EVENTS_BY_TYPE[type];
}

/** Every event with every payload, for allowedEvents() and exhaustive tests. */
export const FLOW_EVENTS: readonly FlowEvent[] = EVENT_TYPES.flatMap(eventsOfType);

/**
 * What the caller knows about the account, supplied with every transition. The machine keeps no
 * account data, so the state stored in the session stays one short key.
 */
export interface FlowContext {
  /** The account's verified second factors. */
  readonly factors: readonly FactorType[];
  /**
   * §2 Signed-in shell: a second factor must be set up (the caller applies promptMfaSignin and
   * the Japan-brand exception).
   */
  readonly mfaSetupRequired: boolean;
  /** The user may postpone the set-up (SETUP_SKIPPED on PromptSetupMfa). */
  readonly mfaSetupSkippable: boolean;
  /** §2 Signed-in shell: a survey must be shown (the caller applies the brand rule). */
  readonly surveyPending: boolean;
  /**
   * The account has not been through WelcomeCollectors and EnterNameInfo yet (new or migrated,
   * §4 After login step 3; an account still migrating, §3 isMigrating, whose migration these steps
   * complete, issue 14 item 10). NAME_SAVED ends onboarding even if the caller has not cleared it.
   */
  readonly isNewAccount: boolean;
}

// ---------------------------------------------------------------------------------------------
// Guards: named predicates referenced from the table; `when` is the text shown in docs.
// ---------------------------------------------------------------------------------------------

/** `event` is undefined when a decision is evaluated on its own (afterAuthentication(ctx)). */
type GuardTest = (ctx: FlowContext, event: FlowEvent | undefined) => boolean;
interface Guard {
  readonly when: string;
  readonly test: GuardTest;
}

// Read as a set of known factors: a duplicate or an unknown value in ctx.factors must not make
// the account look like it has more factors than it has.
const verifiedFactors = (ctx: FlowContext): ReadonlySet<FactorType> =>
  new Set(ctx.factors.filter((factor) => FACTOR_TYPES.includes(factor)));

function outcomeIs(outcome: PasswordOutcome): Guard {
  return {
    when: outcome,
    test: (_ctx, event) => event?.type === 'PASSWORD_CHECKED' && event.outcome === outcome,
  };
}

const chosenFactor = (event: FlowEvent | undefined): FactorType | undefined =>
  event?.type === 'FACTOR_CHOSEN' ? event.factor : undefined;

/** Sign-in: only a factor the account has verified may be used to prove identity. */
function choseVerified(factor: FactorType): Guard {
  return {
    when: `${factor}, a verified factor`,
    test: (ctx, event) => chosenFactor(event) === factor && verifiedFactors(ctx).has(factor),
  };
}

function onlyFactor(factor: FactorType): Guard {
  return {
    when: `only ${factor} verified`,
    test: (ctx) => verifiedFactors(ctx).size === 1 && verifiedFactors(ctx).has(factor),
  };
}

export const GUARDS = {
  accountExists: {
    when: 'account exists',
    test: (_ctx, event) => event?.type === 'EMAIL_SUBMITTED' && event.accountExists,
  },
  noAccount: {
    when: 'no account',
    test: (_ctx, event) => event?.type === 'EMAIL_SUBMITTED' && !event.accountExists,
  },
  outcomeSuccess: outcomeIs('SUCCESS'),
  outcomePasswordExpired: outcomeIs('PASSWORD_EXPIRED'),
  outcomeMfaRequired: outcomeIs('MFA_REQUIRED'),
  outcomeLockedOut: outcomeIs('LOCKED_OUT'),
  outcomeInvalidCredentials: outcomeIs('INVALID_CREDENTIALS'),
  choseVerifiedTotp: choseVerified('totp'),
  choseVerifiedEmail: choseVerified('email'),
  choseVerifiedSms: choseVerified('sms'),
  // Set-up: any factor may be (re-)enrolled, e.g. a new phone replacing the old one.
  choseTotpOrEmail: {
    when: 'totp or email',
    test: (_ctx, event) => chosenFactor(event) === 'totp' || chosenFactor(event) === 'email',
  },
  choseSms: { when: 'sms', test: (_ctx, event) => chosenFactor(event) === 'sms' },
  severalFactors: {
    when: 'more than one verified factor',
    test: (ctx) => verifiedFactors(ctx).size > 1,
  },
  atMostOneFactor: {
    when: 'at most one verified factor',
    test: (ctx) => verifiedFactors(ctx).size <= 1,
  },
  onlyTotp: onlyFactor('totp'),
  onlyEmail: onlyFactor('email'),
  onlySms: onlyFactor('sms'),
  hasFactor: { when: 'has a verified factor', test: (ctx) => verifiedFactors(ctx).size > 0 },
  noFactor: { when: 'no verified factor', test: (ctx) => verifiedFactors(ctx).size === 0 },
  hasCodeFactor: {
    when: 'email or sms verified',
    test: (ctx) => verifiedFactors(ctx).has('email') || verifiedFactors(ctx).has('sms'),
  },
  setupSkippable: { when: 'set-up skippable', test: (ctx) => ctx.mfaSetupSkippable },
  newAccount: { when: 'new account', test: (ctx) => ctx.isNewAccount },
  mfaSetupRequired: { when: 'MFA set-up required', test: (ctx) => ctx.mfaSetupRequired },
  surveyPending: { when: 'survey pending', test: (ctx) => ctx.surveyPending },
} as const satisfies Record<string, Guard>;
export type GuardName = keyof typeof GUARDS;

// ---------------------------------------------------------------------------------------------
// Decisions: targets computed from the context, shared by several rows.
// ---------------------------------------------------------------------------------------------

export const DECISION_NAMES = [
  'afterPasswordUpdate',
  'secondFactor',
  'afterAuthentication',
  'afterOnboarding',
  'afterMfaSetup',
] as const;
export type DecisionName = (typeof DECISION_NAMES)[number];

/** Where a row leads: a state, or a decision that picks the state from the context. */
export type Target = StateKey | DecisionName;

/** One branch of a decision; the first branch whose guard holds wins (no guard: otherwise). */
export interface DecisionBranch {
  readonly to: Target;
  readonly guard?: GuardName;
  readonly when?: string;
}

function branch(to: Target, guard?: GuardName): DecisionBranch {
  return guard === undefined ? { to } : { to, guard, when: GUARDS[guard].when };
}

export const DECISIONS: { readonly [D in DecisionName]: readonly DecisionBranch[] } = {
  // A replaced expired or reset password does not end authentication. No second password check
  // reports MFA_REQUIRED here, so the IdP's rule is applied directly (an account with a verified
  // factor must use it, as in Okta's transaction model): a new password never bypasses MFA.
  afterPasswordUpdate: [branch('secondFactor', 'hasFactor'), branch('afterAuthentication')],
  // MFA_REQUIRED with no verified factor has no branch: rejected (fail closed), never a sign-in
  // on the password alone.
  secondFactor: [
    branch('ChooseVerifyFactor', 'severalFactors'),
    branch('VerifyFactor.totp', 'onlyTotp'),
    branch('VerifyFactor.email', 'onlyEmail'),
    branch('VerifyFactor.sms', 'onlySms'),
  ],
  // Every successful authentication ends here. §4 After login step 3: a new or migrated account
  // is sent back to sign-in until it has passed the welcome step, so do that step first.
  afterAuthentication: [branch('WelcomeCollectors', 'newAccount'), branch('afterOnboarding')],
  // §2 Signed-in shell: the shell redirects to sign-in while a set-up or a survey is pending, so
  // finish both here. Entered directly after NAME_SAVED, so a stale isNewAccount cannot loop.
  afterOnboarding: [branch('SetupMfa.PromptSetupMfa', 'mfaSetupRequired'), branch('afterMfaSetup')],
  afterMfaSetup: [branch('Survey', 'surveyPending'), branch('Done')],
};

export function isDecisionName(target: string): target is DecisionName {
  return (DECISION_NAMES as readonly string[]).includes(target);
}

// ---------------------------------------------------------------------------------------------
// The transition table (§4 Sign-in flow: "Transitions between these: not shown", so designed here)
// ---------------------------------------------------------------------------------------------

export interface TransitionRow {
  readonly from: StateKey;
  readonly event: FlowEventType;
  readonly to: Target;
  readonly guard?: GuardName;
  /** Human text of the guard, copied from GUARDS. */
  readonly when?: string;
}

function on(from: StateKey, event: FlowEventType, to: Target, guard?: GuardName): TransitionRow {
  return guard === undefined
    ? { from, event, to }
    : { from, event, to, guard, when: GUARDS[guard].when };
}

/**
 * The single source of truth. Rows sharing a state and an event have mutually exclusive guards
 * (tested), so their order does not matter. Not listed means not allowed.
 */
export const TRANSITIONS: readonly TransitionRow[] = [
  // Identifier first: the email decides between sign-in and registration.
  on('EmailCheck', 'EMAIL_SUBMITTED', 'EnterPassword', 'accountExists'),
  on('EmailCheck', 'EMAIL_SUBMITTED', 'CreateAccount', 'noAccount'),

  // Registration. BACK from the code step goes to EmailCheck, not CreateAccount: the form was
  // already submitted, and submitting it again would be a second registration.
  on('CreateAccount', 'ACCOUNT_CREATED', 'VerifyEmailCode'),
  on('CreateAccount', 'BACK', 'EmailCheck'),
  on('VerifyEmailCode', 'EMAIL_CODE_VERIFIED', 'WelcomeCollectors'),
  on('VerifyEmailCode', 'CODE_RESENT', 'VerifyEmailCode'),
  on('VerifyEmailCode', 'BACK', 'EmailCheck'),
  on('WelcomeCollectors', 'WELCOME_CONTINUED', 'EnterNameInfo'),
  on('EnterNameInfo', 'NAME_SAVED', 'afterOnboarding'),
  // The way out of the welcome steps is another address: this sign-in attempt ends, and the
  // welcome is asked again at the account's next sign-in (the step before it has no form to redo).
  on('EnterNameInfo', 'BACK', 'EmailCheck'),

  // §4 Outcomes of the password check.
  on('EnterPassword', 'PASSWORD_CHECKED', 'afterAuthentication', 'outcomeSuccess'),
  on('EnterPassword', 'PASSWORD_CHECKED', 'UpdateExpiredPassword', 'outcomePasswordExpired'),
  on('EnterPassword', 'PASSWORD_CHECKED', 'secondFactor', 'outcomeMfaRequired'),
  on('EnterPassword', 'PASSWORD_CHECKED', 'LockedOut', 'outcomeLockedOut'),
  on('EnterPassword', 'PASSWORD_CHECKED', 'EnterPassword', 'outcomeInvalidCredentials'),
  on('EnterPassword', 'FORGOT_PASSWORD', 'ForgotPassword'),
  on('EnterPassword', 'BACK', 'EmailCheck'),
  on('UpdateExpiredPassword', 'PASSWORD_UPDATED', 'afterPasswordUpdate'),
  // Leaving a half-finished authentication restarts it: nothing after the password is kept.
  on('UpdateExpiredPassword', 'BACK', 'EmailCheck'),

  // Second factor at sign-in.
  on('ChooseVerifyFactor', 'FACTOR_CHOSEN', 'VerifyFactor.totp', 'choseVerifiedTotp'),
  on('ChooseVerifyFactor', 'FACTOR_CHOSEN', 'VerifyFactor.email', 'choseVerifiedEmail'),
  on('ChooseVerifyFactor', 'FACTOR_CHOSEN', 'VerifyFactor.sms', 'choseVerifiedSms'),
  on('ChooseVerifyFactor', 'BACK', 'EmailCheck'),
  // A TOTP code cannot be resent, so CODE_RESENT exists only for email and sms.
  on('VerifyFactor.totp', 'FACTOR_VERIFIED', 'afterAuthentication'),
  on('VerifyFactor.totp', 'BACK', 'ChooseVerifyFactor', 'severalFactors'),
  on('VerifyFactor.totp', 'BACK', 'EmailCheck', 'atMostOneFactor'),
  on('VerifyFactor.email', 'FACTOR_VERIFIED', 'afterAuthentication'),
  on('VerifyFactor.email', 'CODE_RESENT', 'VerifyFactor.email'),
  on('VerifyFactor.email', 'BACK', 'ChooseVerifyFactor', 'severalFactors'),
  on('VerifyFactor.email', 'BACK', 'EmailCheck', 'atMostOneFactor'),
  on('VerifyFactor.sms', 'FACTOR_VERIFIED', 'afterAuthentication'),
  on('VerifyFactor.sms', 'CODE_RESENT', 'VerifyFactor.sms'),
  on('VerifyFactor.sms', 'BACK', 'ChooseVerifyFactor', 'severalFactors'),
  on('VerifyFactor.sms', 'BACK', 'EmailCheck', 'atMostOneFactor'),

  on('Survey', 'SURVEY_SUBMITTED', 'Done'),
  on('Survey', 'SURVEY_SKIPPED', 'Done'),

  // Addition: password recovery. The email step moves on whether or not the account exists (its
  // event has no accountExists), so the page does not reveal it. A reset goes on with the sign-in
  // as a replaced expired password does: the code proved the mailbox and the new password is
  // known, so asking for it again proves nothing more, but a verified second factor is still due.
  on('ForgotPassword', 'FORGOT_PASSWORD_SUBMITTED', 'VerifyRecoveryCode'),
  on('ForgotPassword', 'BACK', 'EnterPassword'),
  on('VerifyRecoveryCode', 'RECOVERY_CODE_VERIFIED', 'ResetPassword'),
  on('VerifyRecoveryCode', 'CODE_RESENT', 'VerifyRecoveryCode'),
  on('VerifyRecoveryCode', 'BACK', 'ForgotPassword'),
  on('ResetPassword', 'PASSWORD_RESET', 'afterPasswordUpdate'),
  on('ResetPassword', 'BACK', 'EnterPassword'),

  // Addition: self-service unlock after LOCKED_OUT, same shape as recovery.
  on('LockedOut', 'UNLOCK_REQUESTED', 'UnlockAccount'),
  on('LockedOut', 'BACK', 'EmailCheck'),
  on('UnlockAccount', 'UNLOCK_EMAIL_SUBMITTED', 'VerifyUnlockCode'),
  on('UnlockAccount', 'BACK', 'LockedOut'),
  on('VerifyUnlockCode', 'UNLOCK_CODE_VERIFIED', 'EnterPassword'),
  on('VerifyUnlockCode', 'CODE_RESENT', 'VerifyUnlockCode'),
  on('VerifyUnlockCode', 'BACK', 'UnlockAccount'),

  // §4 Second-factor setup. An account that already has a factor proves it before adding one,
  // so a stolen password alone cannot enrol the attacker's factor. BACK never skips that proof:
  // it leads to PromptSetupMfa, and SETUP_STARTED asks again.
  on('SetupMfa.PromptSetupMfa', 'SETUP_STARTED', 'SetupMfa.VerifyCurrentFactor', 'hasFactor'),
  on('SetupMfa.PromptSetupMfa', 'SETUP_STARTED', 'SetupMfa.ChooseVerifyFactor', 'noFactor'),
  on('SetupMfa.PromptSetupMfa', 'SETUP_SKIPPED', 'afterMfaSetup', 'setupSkippable'),
  on('SetupMfa.VerifyCurrentFactor', 'CURRENT_FACTOR_VERIFIED', 'SetupMfa.ChooseVerifyFactor'),
  on(
    'SetupMfa.VerifyCurrentFactor',
    'CODE_RESENT',
    'SetupMfa.VerifyCurrentFactor',
    'hasCodeFactor',
  ),
  on('SetupMfa.VerifyCurrentFactor', 'BACK', 'SetupMfa.PromptSetupMfa'),
  on(
    'SetupMfa.ChooseVerifyFactor',
    'FACTOR_CHOSEN',
    'SetupMfa.VerifyNewFactor',
    'choseTotpOrEmail',
  ),
  on('SetupMfa.ChooseVerifyFactor', 'FACTOR_CHOSEN', 'SetupMfa.SetupPhone', 'choseSms'),
  on('SetupMfa.ChooseVerifyFactor', 'BACK', 'SetupMfa.PromptSetupMfa'),
  on('SetupMfa.SetupPhone', 'PHONE_SUBMITTED', 'SetupMfa.VerifyNewFactor'),
  on('SetupMfa.SetupPhone', 'BACK', 'SetupMfa.ChooseVerifyFactor'),
  // The factor being enrolled lives with the enrolment, not in the state; for TOTP the
  // controller has no code to resend and answers CODE_RESENT itself.
  on('SetupMfa.VerifyNewFactor', 'NEW_FACTOR_VERIFIED', 'SetupMfa.Success'),
  on('SetupMfa.VerifyNewFactor', 'CODE_RESENT', 'SetupMfa.VerifyNewFactor'),
  on('SetupMfa.VerifyNewFactor', 'BACK', 'SetupMfa.ChooseVerifyFactor'),
  on('SetupMfa.Success', 'SETUP_FINISHED', 'afterMfaSetup'),
];

// ---------------------------------------------------------------------------------------------
// Running the table
// ---------------------------------------------------------------------------------------------

const rowIndex = (from: string, event: string): string => `${from} ${event}`;

const ROWS_BY_STATE_AND_EVENT: ReadonlyMap<string, readonly TransitionRow[]> = TRANSITIONS.reduce(
  (index, row) => {
    const key = rowIndex(row.from, row.event);
    index.set(key, [...(index.get(key) ?? []), row]);
    return index;
  },
  new Map<string, TransitionRow[]>(),
);

const passes = (guard: GuardName | undefined, ctx: FlowContext, event?: FlowEvent): boolean =>
  guard === undefined || GUARDS[guard].test(ctx, event);

/** The row that applies, if any (exposed for tests and logging). */
export function matchTransition(
  state: FlowState,
  event: FlowEvent,
  ctx: FlowContext,
): TransitionRow | undefined {
  const rows = ROWS_BY_STATE_AND_EVENT.get(rowIndex(stateKey(state), event.type)) ?? [];
  return rows.find((row) => passes(row.guard, ctx, event));
}

function resolveTarget(
  target: Target,
  ctx: FlowContext,
  event: FlowEvent | undefined,
  depth = 0,
): FlowState | undefined {
  if (!isDecisionName(target)) return stateOf(target);
  // Decisions may chain but never loop (tested); the bound turns a table bug into an error.
  if (depth > DECISION_NAMES.length) throw new Error(`Sign-in flow: decision loop at ${target}`);
  const chosen = DECISIONS[target].find((b) => passes(b.guard, ctx, event));
  return chosen === undefined ? undefined : resolveTarget(chosen.to, ctx, event, depth + 1);
}

export type TransitionResult =
  | { readonly ok: true; readonly state: FlowState }
  | { readonly ok: false; readonly error: 'event-not-allowed' };

const NOT_ALLOWED: TransitionResult = Object.freeze({ ok: false, error: 'event-not-allowed' });

/**
 * The next state, or a rejection when the event is not allowed here: the controller then answers
 * 400 and keeps the stored state. Pure: same inputs, same answer; nothing is mutated.
 */
export function transition(state: FlowState, event: FlowEvent, ctx: FlowContext): TransitionResult {
  const row = matchTransition(state, event, ctx);
  const next = row === undefined ? undefined : resolveTarget(row.to, ctx, event);
  return next === undefined ? NOT_ALLOWED : { ok: true, state: next };
}

/** The event types the current step may send in this context (e.g. which buttons to offer). */
export function allowedEvents(state: FlowState, ctx: FlowContext): FlowEventType[] {
  return EVENT_TYPES.filter((type) =>
    eventsOfType(type).some((event) => transition(state, event, ctx).ok),
  );
}

/** §4 After any successful authentication: onboarding, then MFA set-up, then survey, then Done. */
export function afterAuthentication(ctx: FlowContext): FlowState {
  const next = resolveTarget('afterAuthentication', ctx, undefined);
  if (next === undefined) throw new Error('Sign-in flow: afterAuthentication has no otherwise');
  return next;
}

// ---------------------------------------------------------------------------------------------
// Diagram
// ---------------------------------------------------------------------------------------------

const SETUP_ENTRY: StateKey = 'SetupMfa.PromptSetupMfa';
const SETUP_NODE = 'SetupMfa';

const isInSetup = (target: Target): boolean => target.startsWith(`${SETUP_NODE}.`);
const mermaidId = (target: Target): string => target.replaceAll('.', '_');

/** Display name of a state whose key has a dot; plain steps are shown by their id. */
function mermaidLabel(state: FlowState): string | undefined {
  if (state.step === 'VerifyFactor') return `VerifyFactor (${state.factor})`;
  if (state.step === 'SetupMfa') return state.setup;
  return undefined;
}

const edge = (from: string, to: string, label?: string): string =>
  label === undefined ? `${from} --> ${to}` : `${from} --> ${to} : ${label}`;

/**
 * The table as a Mermaid stateDiagram-v2 (docs/signin-flow.md embeds it; a test keeps them equal).
 * SetupMfa is a composite state: Mermaid cannot draw edges into or out of a composite's inner
 * states, so entries go to SetupMfa (whose start is PromptSetupMfa) and exits go through its end.
 */
export function renderMermaid(): string {
  const inner: string[] = [];
  const outer: string[] = [];
  const exits = new Set<string>();

  const addEdge = (from: Target, to: Target, label: string | undefined): void => {
    if (isInSetup(from) && isInSetup(to)) {
      inner.push(edge(mermaidId(from), mermaidId(to), label));
    } else if (isInSetup(from)) {
      inner.push(edge(mermaidId(from), '[*]', label));
      exits.add(mermaidId(to));
    } else if (isInSetup(to)) {
      if (to !== SETUP_ENTRY) throw new Error(`Sign-in flow: SetupMfa entered at ${to}`);
      outer.push(edge(mermaidId(from), SETUP_NODE, label));
    } else {
      outer.push(edge(mermaidId(from), mermaidId(to), label));
    }
  };

  for (const row of TRANSITIONS) {
    addEdge(row.from, row.to, row.when === undefined ? row.event : `${row.event} [${row.when}]`);
  }
  for (const name of DECISION_NAMES) {
    for (const b of DECISIONS[name]) addEdge(name, b.to, b.when ?? 'else');
  }
  if (exits.size > 1) throw new Error('Sign-in flow: SetupMfa must have one exit target');

  const declarations = (inSetup: boolean): string[] =>
    FLOW_STATES.flatMap((state) => {
      const label = mermaidLabel(state);
      const key = stateKey(state);
      return label === undefined || isInSetup(key) !== inSetup
        ? []
        : [`state "${label}" as ${mermaidId(key)}`];
    });
  const terminals = STATE_KEYS.filter((key) => !TRANSITIONS.some((row) => row.from === key));
  const indent = (lines: readonly string[], depth: number): string[] =>
    lines.map((line) => `${'  '.repeat(depth)}${line}`);

  return [
    'stateDiagram-v2',
    ...indent(
      [
        '%% Generated by renderMermaid() from src/idp/flow/signin-flow.ts: edit the table, not this.',
        edge('[*]', mermaidId(stateKey(INITIAL_STATE))),
        ...declarations(false),
        ...DECISION_NAMES.map((name) => `state ${name} <<choice>>`),
        `state ${SETUP_NODE} {`,
        ...indent([...declarations(true), edge('[*]', mermaidId(SETUP_ENTRY)), ...inner], 1),
        '}',
        ...outer,
        ...[...exits].map((to) => edge(SETUP_NODE, to)),
        ...terminals.map((key) => edge(mermaidId(key), '[*]')),
      ],
      1,
    ),
  ].join('\n');
}
