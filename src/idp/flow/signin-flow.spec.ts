import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ADDED_SIGNIN_STEPS,
  DECISIONS,
  DECISION_NAMES,
  EVENT_TYPES,
  FACTOR_TYPES,
  FLOW_EVENTS,
  FLOW_STATES,
  FactorType,
  FlowContext,
  FlowEvent,
  FlowEventType,
  FlowState,
  GUARDS,
  GuardName,
  INITIAL_STATE,
  PASSWORD_OUTCOMES,
  PasswordOutcome,
  SETUP_STEPS,
  SIGNIN_STEPS,
  SPEC_SIGNIN_STEPS,
  STATE_KEYS,
  StateKey,
  TRANSITIONS,
  Target,
  TransitionRow,
  afterAuthentication,
  allowedEvents,
  eventsOfType,
  isDecisionName,
  matchTransition,
  parseStateKey,
  renderMermaid,
  stateKey,
  stepKey,
  transition,
} from './signin-flow';

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** An account with nothing pending and no second factor. */
const BASE: FlowContext = {
  factors: [],
  mfaSetupRequired: false,
  mfaSetupSkippable: false,
  surveyPending: false,
  isNewAccount: false,
};
const ctx = (over: Partial<FlowContext> = {}): FlowContext => ({ ...BASE, ...over });

function subsets<T>(items: readonly T[]): T[][] {
  return items.reduce<T[][]>((all, item) => [...all, ...all.map((s) => [...s, item])], [[]]);
}
const BOOLS = [false, true] as const;

/** Every kind of account the caller can describe: 8 factor sets x 16 flag combinations. */
const ALL_CONTEXTS: readonly FlowContext[] = subsets(FACTOR_TYPES).flatMap((factors) =>
  BOOLS.flatMap((mfaSetupRequired) =>
    BOOLS.flatMap((mfaSetupSkippable) =>
      BOOLS.flatMap((surveyPending) =>
        BOOLS.map((isNewAccount) => ({
          factors,
          mfaSetupRequired,
          mfaSetupSkippable,
          surveyPending,
          isNewAccount,
        })),
      ),
    ),
  ),
);

function state(key: StateKey): FlowState {
  const parsed = parseStateKey(key);
  if (parsed === undefined) throw new Error(`test uses unknown state ${key}`);
  return parsed;
}

/** The key of the next state, or 'rejected'. */
function next(from: StateKey, event: FlowEvent, context: FlowContext): StateKey | 'rejected' {
  const result = transition(state(from), event, context);
  return result.ok ? stateKey(result.state) : 'rejected';
}

const describeEvent = (event: FlowEvent): string => {
  const { type, ...payload } = event;
  return Object.keys(payload).length === 0 ? type : `${type}${JSON.stringify(payload)}`;
};

const email = (accountExists: boolean): FlowEvent => ({ type: 'EMAIL_SUBMITTED', accountExists });
const pw = (outcome: PasswordOutcome): FlowEvent => ({ type: 'PASSWORD_CHECKED', outcome });
const chose = (factor: FactorType): FlowEvent => ({ type: 'FACTOR_CHOSEN', factor });
const BACK: FlowEvent = { type: 'BACK' };
const RESENT: FlowEvent = { type: 'CODE_RESENT' };
const UPDATED: FlowEvent = { type: 'PASSWORD_UPDATED' };
const FACTOR_VERIFIED: FlowEvent = { type: 'FACTOR_VERIFIED' };

const TERMINAL: ReadonlySet<StateKey> = new Set(['Done']);

type Case = readonly [
  from: StateKey,
  event: FlowEvent,
  context: Partial<FlowContext>,
  to: StateKey | 'rejected',
];

// ---------------------------------------------------------------------------------------------
// The transition table, one case per row (§4 Sign-in flow)
// ---------------------------------------------------------------------------------------------

/** Reads like the table: from, event, the account, where it leads (decisions end at Done here). */
const ROW_CASES: readonly Case[] = [
  ['EmailCheck', email(true), {}, 'EnterPassword'],
  ['EmailCheck', email(false), {}, 'CreateAccount'],
  // Registration
  ['CreateAccount', { type: 'ACCOUNT_CREATED' }, {}, 'VerifyEmailCode'],
  ['CreateAccount', BACK, {}, 'EmailCheck'],
  ['VerifyEmailCode', { type: 'EMAIL_CODE_VERIFIED' }, {}, 'WelcomeCollectors'],
  ['VerifyEmailCode', RESENT, {}, 'VerifyEmailCode'],
  ['VerifyEmailCode', BACK, {}, 'EmailCheck'],
  ['WelcomeCollectors', { type: 'WELCOME_CONTINUED' }, {}, 'EnterNameInfo'],
  ['EnterNameInfo', { type: 'NAME_SAVED' }, {}, 'Done'],
  ['EnterNameInfo', BACK, {}, 'EmailCheck'],
  // Password
  ['EnterPassword', pw('SUCCESS'), {}, 'Done'],
  ['EnterPassword', pw('PASSWORD_EXPIRED'), {}, 'UpdateExpiredPassword'],
  ['EnterPassword', pw('MFA_REQUIRED'), { factors: ['totp', 'sms'] }, 'ChooseVerifyFactor'],
  ['EnterPassword', pw('LOCKED_OUT'), {}, 'LockedOut'],
  ['EnterPassword', pw('INVALID_CREDENTIALS'), {}, 'EnterPassword'],
  ['EnterPassword', { type: 'FORGOT_PASSWORD' }, {}, 'ForgotPassword'],
  ['EnterPassword', BACK, {}, 'EmailCheck'],
  ['UpdateExpiredPassword', UPDATED, {}, 'Done'],
  ['UpdateExpiredPassword', BACK, {}, 'EmailCheck'],
  // Second factor at sign-in
  ['ChooseVerifyFactor', chose('totp'), { factors: ['totp', 'email'] }, 'VerifyFactor.totp'],
  ['ChooseVerifyFactor', chose('email'), { factors: ['totp', 'email'] }, 'VerifyFactor.email'],
  ['ChooseVerifyFactor', chose('sms'), { factors: ['sms', 'email'] }, 'VerifyFactor.sms'],
  ['ChooseVerifyFactor', BACK, {}, 'EmailCheck'],
  ['VerifyFactor.totp', FACTOR_VERIFIED, { factors: ['totp'] }, 'Done'],
  ['VerifyFactor.totp', BACK, { factors: ['totp', 'sms'] }, 'ChooseVerifyFactor'],
  ['VerifyFactor.totp', BACK, { factors: ['totp'] }, 'EmailCheck'],
  ['VerifyFactor.email', FACTOR_VERIFIED, { factors: ['email'] }, 'Done'],
  ['VerifyFactor.email', RESENT, { factors: ['email'] }, 'VerifyFactor.email'],
  ['VerifyFactor.email', BACK, { factors: ['email', 'totp'] }, 'ChooseVerifyFactor'],
  ['VerifyFactor.email', BACK, { factors: ['email'] }, 'EmailCheck'],
  ['VerifyFactor.sms', FACTOR_VERIFIED, { factors: ['sms'] }, 'Done'],
  ['VerifyFactor.sms', RESENT, { factors: ['sms'] }, 'VerifyFactor.sms'],
  ['VerifyFactor.sms', BACK, { factors: ['sms', 'email'] }, 'ChooseVerifyFactor'],
  ['VerifyFactor.sms', BACK, { factors: ['sms'] }, 'EmailCheck'],
  ['Survey', { type: 'SURVEY_SUBMITTED' }, {}, 'Done'],
  ['Survey', { type: 'SURVEY_SKIPPED' }, {}, 'Done'],
  // Addition: recovery
  ['ForgotPassword', { type: 'FORGOT_PASSWORD_SUBMITTED' }, {}, 'VerifyRecoveryCode'],
  ['ForgotPassword', BACK, {}, 'EnterPassword'],
  ['VerifyRecoveryCode', { type: 'RECOVERY_CODE_VERIFIED' }, {}, 'ResetPassword'],
  ['VerifyRecoveryCode', RESENT, {}, 'VerifyRecoveryCode'],
  ['VerifyRecoveryCode', BACK, {}, 'ForgotPassword'],
  ['ResetPassword', { type: 'PASSWORD_RESET' }, {}, 'Done'],
  ['ResetPassword', BACK, {}, 'EnterPassword'],
  // Addition: unlock
  ['LockedOut', { type: 'UNLOCK_REQUESTED' }, {}, 'UnlockAccount'],
  ['LockedOut', BACK, {}, 'EmailCheck'],
  ['UnlockAccount', { type: 'UNLOCK_EMAIL_SUBMITTED' }, {}, 'VerifyUnlockCode'],
  ['UnlockAccount', BACK, {}, 'LockedOut'],
  ['VerifyUnlockCode', { type: 'UNLOCK_CODE_VERIFIED' }, {}, 'EnterPassword'],
  ['VerifyUnlockCode', RESENT, {}, 'VerifyUnlockCode'],
  ['VerifyUnlockCode', BACK, {}, 'UnlockAccount'],
  // Second-factor set-up
  [
    'SetupMfa.PromptSetupMfa',
    { type: 'SETUP_STARTED' },
    { factors: ['email'] },
    'SetupMfa.VerifyCurrentFactor',
  ],
  ['SetupMfa.PromptSetupMfa', { type: 'SETUP_STARTED' }, {}, 'SetupMfa.ChooseVerifyFactor'],
  ['SetupMfa.PromptSetupMfa', { type: 'SETUP_SKIPPED' }, { mfaSetupSkippable: true }, 'Done'],
  [
    'SetupMfa.VerifyCurrentFactor',
    { type: 'CURRENT_FACTOR_VERIFIED' },
    { factors: ['totp'] },
    'SetupMfa.ChooseVerifyFactor',
  ],
  ['SetupMfa.VerifyCurrentFactor', RESENT, { factors: ['sms'] }, 'SetupMfa.VerifyCurrentFactor'],
  ['SetupMfa.VerifyCurrentFactor', BACK, {}, 'SetupMfa.PromptSetupMfa'],
  ['SetupMfa.ChooseVerifyFactor', chose('totp'), {}, 'SetupMfa.VerifyNewFactor'],
  ['SetupMfa.ChooseVerifyFactor', chose('sms'), {}, 'SetupMfa.SetupPhone'],
  ['SetupMfa.ChooseVerifyFactor', BACK, {}, 'SetupMfa.PromptSetupMfa'],
  ['SetupMfa.SetupPhone', { type: 'PHONE_SUBMITTED' }, {}, 'SetupMfa.VerifyNewFactor'],
  ['SetupMfa.SetupPhone', BACK, {}, 'SetupMfa.ChooseVerifyFactor'],
  ['SetupMfa.VerifyNewFactor', { type: 'NEW_FACTOR_VERIFIED' }, {}, 'SetupMfa.Success'],
  ['SetupMfa.VerifyNewFactor', RESENT, {}, 'SetupMfa.VerifyNewFactor'],
  ['SetupMfa.VerifyNewFactor', BACK, {}, 'SetupMfa.ChooseVerifyFactor'],
  ['SetupMfa.Success', { type: 'SETUP_FINISHED' }, {}, 'Done'],
];

describe('sign-in flow (§4 Sign-in flow)', () => {
  describe('vocabulary', () => {
    it('has the §4 sign-in steps verbatim, plus our additions', () => {
      expect([...SPEC_SIGNIN_STEPS]).toEqual([
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
      ]);
      expect([...SIGNIN_STEPS]).toEqual([...SPEC_SIGNIN_STEPS, ...ADDED_SIGNIN_STEPS]);
      expect([...ADDED_SIGNIN_STEPS].sort()).toEqual(
        [
          'ForgotPassword',
          'VerifyRecoveryCode',
          'ResetPassword',
          'LockedOut',
          'UnlockAccount',
          'VerifyUnlockCode',
          'Done',
        ].sort(),
      );
    });

    it('has the §4 set-up steps and password outcomes', () => {
      expect([...SETUP_STEPS]).toEqual([
        'PromptSetupMfa',
        'ChooseVerifyFactor',
        'VerifyCurrentFactor',
        'SetupPhone',
        'VerifyNewFactor',
        'Success',
      ]);
      expect(PASSWORD_OUTCOMES).toEqual(
        expect.arrayContaining(['LOCKED_OUT', 'SUCCESS', 'PASSWORD_EXPIRED', 'MFA_REQUIRED']),
      );
      expect(PASSWORD_OUTCOMES).toContain('INVALID_CREDENTIALS');
    });

    it('starts at EmailCheck', () => {
      expect(INITIAL_STATE).toEqual({ step: 'EmailCheck' });
    });
  });

  describe('one case per row of TRANSITIONS', () => {
    for (const [from, event, over, to] of ROW_CASES) {
      it(`${from} --${describeEvent(event)}--> ${to}`, () => {
        expect(matchTransition(state(from), event, ctx(over))).toBeDefined();
        expect(next(from, event, ctx(over))).toBe(to);
      });
    }

    it('the cases cover every row', () => {
      const covered = new Set<TransitionRow>();
      for (const [from, event, over] of ROW_CASES) {
        const row = matchTransition(state(from), event, ctx(over));
        if (row !== undefined) covered.add(row);
      }
      const missing = TRANSITIONS.filter((row) => !covered.has(row)).map(
        (row) => `${row.from} ${row.event} ${row.when ?? ''}`,
      );
      expect(missing).toEqual([]);
      expect(ROW_CASES).toHaveLength(TRANSITIONS.length);
    });
  });

  describe('the other branch of every guard', () => {
    /** One case per guard where it is false; the compiler insists on every guard name. */
    const OTHER_BRANCH: Readonly<Record<GuardName, Case>> = {
      accountExists: ['EmailCheck', email(false), {}, 'CreateAccount'],
      noAccount: ['EmailCheck', email(true), {}, 'EnterPassword'],
      outcomeSuccess: ['EnterPassword', pw('PASSWORD_EXPIRED'), {}, 'UpdateExpiredPassword'],
      outcomePasswordExpired: ['EnterPassword', pw('SUCCESS'), {}, 'Done'],
      outcomeMfaRequired: ['EnterPassword', pw('SUCCESS'), { factors: ['totp'] }, 'Done'],
      outcomeLockedOut: ['EnterPassword', pw('INVALID_CREDENTIALS'), {}, 'EnterPassword'],
      outcomeInvalidCredentials: ['EnterPassword', pw('LOCKED_OUT'), {}, 'LockedOut'],
      // Sign-in: an unverified factor cannot be chosen to prove identity.
      choseVerifiedTotp: ['ChooseVerifyFactor', chose('totp'), { factors: ['email'] }, 'rejected'],
      choseVerifiedEmail: ['ChooseVerifyFactor', chose('email'), { factors: ['sms'] }, 'rejected'],
      choseVerifiedSms: ['ChooseVerifyFactor', chose('sms'), { factors: ['totp'] }, 'rejected'],
      choseTotpOrEmail: ['SetupMfa.ChooseVerifyFactor', chose('sms'), {}, 'SetupMfa.SetupPhone'],
      choseSms: ['SetupMfa.ChooseVerifyFactor', chose('email'), {}, 'SetupMfa.VerifyNewFactor'],
      severalFactors: ['VerifyFactor.sms', BACK, { factors: ['sms'] }, 'EmailCheck'],
      atMostOneFactor: [
        'VerifyFactor.sms',
        BACK,
        { factors: ['sms', 'totp'] },
        'ChooseVerifyFactor',
      ],
      onlyTotp: ['EnterPassword', pw('MFA_REQUIRED'), { factors: ['email'] }, 'VerifyFactor.email'],
      onlyEmail: ['EnterPassword', pw('MFA_REQUIRED'), { factors: ['sms'] }, 'VerifyFactor.sms'],
      // MFA_REQUIRED without any verified factor fails closed.
      onlySms: ['EnterPassword', pw('MFA_REQUIRED'), {}, 'rejected'],
      // A replaced expired password on an account without a factor signs in.
      hasFactor: ['UpdateExpiredPassword', UPDATED, {}, 'Done'],
      noFactor: [
        'SetupMfa.PromptSetupMfa',
        { type: 'SETUP_STARTED' },
        { factors: ['totp'] },
        'SetupMfa.VerifyCurrentFactor',
      ],
      hasCodeFactor: ['SetupMfa.VerifyCurrentFactor', RESENT, { factors: ['totp'] }, 'rejected'],
      setupSkippable: ['SetupMfa.PromptSetupMfa', { type: 'SETUP_SKIPPED' }, {}, 'rejected'],
      newAccount: ['EnterPassword', pw('SUCCESS'), { surveyPending: true }, 'Survey'],
      mfaSetupRequired: ['VerifyFactor.totp', FACTOR_VERIFIED, { factors: ['totp'] }, 'Done'],
      surveyPending: ['SetupMfa.Success', { type: 'SETUP_FINISHED' }, {}, 'Done'],
    };

    for (const [name, [from, event, over, to]] of Object.entries(OTHER_BRANCH)) {
      it(`${name} is false: ${from} --${describeEvent(event)}--> ${to}`, () => {
        expect(GUARDS[name as GuardName].test(ctx(over), event)).toBe(false);
        expect(next(from, event, ctx(over))).toBe(to);
      });
    }

    it('every guard is used by a row or a decision', () => {
      const used = new Set<string | undefined>([
        ...TRANSITIONS.flatMap((row) => (row.guard === undefined ? [] : [row.guard])),
        ...DECISION_NAMES.flatMap((name) => DECISIONS[name].map((b) => b.guard)),
      ]);
      expect(Object.keys(GUARDS).filter((name) => !used.has(name))).toEqual([]);
    });
  });

  describe('decisions', () => {
    const AFTER_AUTHENTICATION: readonly [Partial<FlowContext>, StateKey][] = [
      [{}, 'Done'],
      [{ surveyPending: true }, 'Survey'],
      [{ mfaSetupRequired: true }, 'SetupMfa.PromptSetupMfa'],
      [{ mfaSetupRequired: true, surveyPending: true }, 'SetupMfa.PromptSetupMfa'],
      // §4 After login step 3: a new account passes the welcome steps first.
      [{ isNewAccount: true }, 'WelcomeCollectors'],
      [{ isNewAccount: true, mfaSetupRequired: true, surveyPending: true }, 'WelcomeCollectors'],
    ];
    it.each(AFTER_AUTHENTICATION)('afterAuthentication(%j) is %s', (over, to) => {
      expect(stateKey(afterAuthentication(ctx(over)))).toBe(to);
    });

    it('every successful authentication continues with afterAuthentication(ctx)', () => {
      for (const context of ALL_CONTEXTS) {
        const expected = stateKey(afterAuthentication(context));
        expect(next('EnterPassword', pw('SUCCESS'), context)).toBe(expected);
        for (const factor of FACTOR_TYPES) {
          expect(next(`VerifyFactor.${factor}`, FACTOR_VERIFIED, context)).toBe(expected);
        }
        if (context.factors.length === 0) {
          expect(next('UpdateExpiredPassword', UPDATED, context)).toBe(expected);
        }
      }
    });

    it('NAME_SAVED ends onboarding: a stale isNewAccount cannot loop back to welcome', () => {
      for (const context of ALL_CONTEXTS) {
        const expected = stateKey(afterAuthentication({ ...context, isNewAccount: false }));
        expect(next('EnterNameInfo', { type: 'NAME_SAVED' }, context)).toBe(expected);
      }
    });

    it('after set-up (finished or skipped) the survey comes if pending, else Done', () => {
      for (const context of ALL_CONTEXTS) {
        const expected = context.surveyPending ? 'Survey' : 'Done';
        expect(next('SetupMfa.Success', { type: 'SETUP_FINISHED' }, context)).toBe(expected);
        expect(next('SetupMfa.PromptSetupMfa', { type: 'SETUP_SKIPPED' }, context)).toBe(
          context.mfaSetupSkippable ? expected : 'rejected',
        );
      }
    });

    const SECOND_FACTOR: readonly [FactorType[], StateKey | 'rejected'][] = [
      [[], 'rejected'],
      [['totp'], 'VerifyFactor.totp'],
      [['email'], 'VerifyFactor.email'],
      [['sms'], 'VerifyFactor.sms'],
      [['sms', 'sms'], 'VerifyFactor.sms'],
      [['totp', 'email'], 'ChooseVerifyFactor'],
      [['totp', 'email', 'sms'], 'ChooseVerifyFactor'],
    ];
    it.each(SECOND_FACTOR)('MFA_REQUIRED with factors %j leads to %s', (factors, to) => {
      expect(next('EnterPassword', pw('MFA_REQUIRED'), ctx({ factors }))).toBe(to);
    });
    it.each(SECOND_FACTOR.filter(([factors]) => factors.length > 0))(
      'a replaced expired password with factors %j still needs the factor: %s',
      (factors, to) => {
        expect(next('UpdateExpiredPassword', UPDATED, ctx({ factors }))).toBe(to);
      },
    );

    it('decisions never loop and decision names are not state keys', () => {
      const visiting = new Set<string>();
      const walk = (target: Target): void => {
        if (!isDecisionName(target)) return;
        expect(visiting.has(target)).toBe(false);
        visiting.add(target);
        for (const b of DECISIONS[target]) walk(b.to);
        visiting.delete(target);
      };
      DECISION_NAMES.forEach(walk);
      for (const name of DECISION_NAMES) expect(parseStateKey(name)).toBeUndefined();
    });
  });

  describe('everything not in the table is rejected', () => {
    const inTable = new Set(TRANSITIONS.map((row) => `${row.from} ${row.event}`));

    it('every (state, event type) pair without a row, for every payload and account', () => {
      const accepted: string[] = [];
      for (const key of STATE_KEYS) {
        for (const type of EVENT_TYPES) {
          if (inTable.has(`${key} ${type}`)) continue;
          for (const event of eventsOfType(type)) {
            for (const context of ALL_CONTEXTS) {
              if (transition(state(key), event, context).ok) accepted.push(`${key} ${type}`);
            }
          }
        }
      }
      expect(accepted).toEqual([]);
    });

    it('rejects with event-not-allowed', () => {
      expect(transition(state('EmailCheck'), BACK, BASE)).toEqual({
        ok: false,
        error: 'event-not-allowed',
      });
    });

    it('rejects payloads outside the types (a tampered form)', () => {
      const push = { type: 'FACTOR_CHOSEN', factor: 'push' } as unknown as FlowEvent;
      const weird = { type: 'PASSWORD_CHECKED', outcome: 'MAYBE' } as unknown as FlowEvent;
      const all = ctx({ factors: ['totp', 'email', 'sms'] });
      expect(next('ChooseVerifyFactor', push, all)).toBe('rejected');
      expect(next('SetupMfa.ChooseVerifyFactor', push, all)).toBe('rejected');
      expect(next('EnterPassword', weird, all)).toBe('rejected');
    });

    it('a wrong code is not an event, and a TOTP code cannot be resent', () => {
      expect(next('VerifyFactor.totp', RESENT, ctx({ factors: ['totp'] }))).toBe('rejected');
    });

    it('Done is terminal', () => {
      for (const context of ALL_CONTEXTS) expect(allowedEvents(state('Done'), context)).toEqual([]);
    });
  });

  describe('the table is well formed', () => {
    it('is deterministic: at most one row applies to any state, event and account', () => {
      const ambiguous: string[] = [];
      for (const key of STATE_KEYS) {
        for (const event of FLOW_EVENTS) {
          const rows = TRANSITIONS.filter((r) => r.from === key && r.event === event.type);
          if (rows.length < 2) continue;
          for (const context of ALL_CONTEXTS) {
            const matching = rows.filter(
              (r) => r.guard === undefined || GUARDS[r.guard].test(context, event),
            );
            if (matching.length > 1) ambiguous.push(`${key} ${describeEvent(event)}`);
          }
        }
      }
      expect(ambiguous).toEqual([]);
    });

    it('copies each guard text into its row', () => {
      for (const row of TRANSITIONS) {
        expect(row.when).toBe(row.guard === undefined ? undefined : GUARDS[row.guard].when);
      }
    });

    it('every decision that may be reached with no match is secondFactor (fail closed)', () => {
      const withoutOtherwise = DECISION_NAMES.filter(
        (name) => DECISIONS[name].at(-1)?.guard !== undefined,
      );
      expect(withoutOtherwise).toEqual(['secondFactor']);
    });
  });

  describe('reachability', () => {
    /** All states reachable from `from`, over every event and the given accounts. */
    function reachable(from: FlowState, contexts: readonly FlowContext[]): Set<StateKey> {
      const seen = new Set<StateKey>([stateKey(from)]);
      const queue: FlowState[] = [from];
      for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
        for (const event of FLOW_EVENTS) {
          for (const context of contexts) {
            const result = transition(current, event, context);
            if (result.ok && !seen.has(stateKey(result.state))) {
              seen.add(stateKey(result.state));
              queue.push(result.state);
            }
          }
        }
      }
      return seen;
    }

    it('every state is reachable from INITIAL_STATE', () => {
      expect([...reachable(INITIAL_STATE, ALL_CONTEXTS)].sort()).toEqual([...STATE_KEYS].sort());
    });

    it('Done is reachable from every non-terminal state, whatever the account', () => {
      const stuck: string[] = [];
      for (const context of ALL_CONTEXTS) {
        // Reverse search: which states can reach Done in this context?
        const edges = STATE_KEYS.flatMap((key) =>
          FLOW_EVENTS.flatMap((event) => {
            const result = transition(state(key), event, context);
            return result.ok ? [[key, stateKey(result.state)] as const] : [];
          }),
        );
        const canFinish = new Set<StateKey>(['Done']);
        for (let grew = true; grew;) {
          grew = false;
          for (const [from, to] of edges) {
            if (canFinish.has(to) && !canFinish.has(from)) {
              canFinish.add(from);
              grew = true;
            }
          }
        }
        for (const key of STATE_KEYS) {
          if (!TERMINAL.has(key) && !canFinish.has(key))
            stuck.push(`${key} ${JSON.stringify(context)}`);
        }
      }
      expect(stuck).toEqual([]);
    });

    it('the signed-in part is entered only by an authentication event', () => {
      const PRE_AUTH = new Set<StateKey>([
        'EmailCheck',
        'CreateAccount',
        'VerifyEmailCode',
        'EnterPassword',
        'UpdateExpiredPassword',
        'ChooseVerifyFactor',
        'VerifyFactor.totp',
        'VerifyFactor.email',
        'VerifyFactor.sms',
        'ForgotPassword',
        'VerifyRecoveryCode',
        'ResetPassword',
        'LockedOut',
        'UnlockAccount',
        'VerifyUnlockCode',
      ]);
      const AUTHENTICATING = new Set<string>([
        'PASSWORD_CHECKED{"outcome":"SUCCESS"}',
        'PASSWORD_UPDATED',
        // The recovery code proved the mailbox, and the new password is now known.
        'PASSWORD_RESET',
        'FACTOR_VERIFIED',
        'EMAIL_CODE_VERIFIED',
      ]);
      const entries = new Set<string>();
      for (const key of PRE_AUTH) {
        for (const event of FLOW_EVENTS) {
          for (const context of ALL_CONTEXTS) {
            const result = transition(state(key), event, context);
            if (result.ok && !PRE_AUTH.has(stateKey(result.state))) {
              entries.add(describeEvent(event));
            }
          }
        }
      }
      expect([...entries].filter((e) => !AUTHENTICATING.has(e))).toEqual([]);
    });

    it.each([
      ['a replaced expired password', 'UpdateExpiredPassword', UPDATED],
      ['a reset password', 'ResetPassword', { type: 'PASSWORD_RESET' }],
    ] as const)('%s never gets past a verified factor', (_name, from, event) => {
      for (const context of ALL_CONTEXTS.filter((c) => c.factors.length > 0)) {
        const result = transition(state(from), event, context);
        expect(
          result.ok && ['ChooseVerifyFactor', 'VerifyFactor'].includes(result.state.step),
        ).toBe(true);
      }
    });
  });

  describe('allowedEvents', () => {
    it('lists exactly the event types transition() accepts', () => {
      for (const flowState of FLOW_STATES) {
        for (const context of ALL_CONTEXTS) {
          const accepted = EVENT_TYPES.filter((type) =>
            eventsOfType(type).some((event) => transition(flowState, event, context).ok),
          );
          expect(allowedEvents(flowState, context)).toEqual(accepted);
        }
      }
    });

    const EXAMPLES: readonly [StateKey, Partial<FlowContext>, FlowEventType[]][] = [
      ['EmailCheck', {}, ['EMAIL_SUBMITTED']],
      ['VerifyFactor.totp', { factors: ['totp'] }, ['FACTOR_VERIFIED', 'BACK']],
      ['VerifyFactor.sms', { factors: ['sms'] }, ['FACTOR_VERIFIED', 'BACK', 'CODE_RESENT']],
      ['SetupMfa.PromptSetupMfa', {}, ['SETUP_STARTED']],
      ['SetupMfa.PromptSetupMfa', { mfaSetupSkippable: true }, ['SETUP_STARTED', 'SETUP_SKIPPED']],
      ['ChooseVerifyFactor', {}, ['BACK']],
    ];
    it.each(EXAMPLES)('%s with %j allows %j', (key, over, types) => {
      expect(allowedEvents(state(key), ctx(over))).toEqual(types);
    });
  });

  describe('stateKey, parseStateKey and stepKey', () => {
    it('round-trip every state, with unique keys', () => {
      for (const flowState of FLOW_STATES) {
        expect(parseStateKey(stateKey(flowState))).toEqual(flowState);
      }
      expect(new Set(STATE_KEYS).size).toBe(FLOW_STATES.length);
    });

    it('has a VerifyFactor state per factor and a SetupMfa state per set-up step', () => {
      expect(STATE_KEYS.filter((key) => key.startsWith('VerifyFactor.'))).toEqual(
        FACTOR_TYPES.map((factor) => `VerifyFactor.${factor}`),
      );
      expect(STATE_KEYS.filter((key) => key.startsWith('SetupMfa.'))).toEqual(
        SETUP_STEPS.map((setup) => `SetupMfa.${setup}`),
      );
      expect(state('SetupMfa.ChooseVerifyFactor')).toEqual({
        step: 'SetupMfa',
        setup: 'ChooseVerifyFactor',
      });
      expect(state('ChooseVerifyFactor')).toEqual({ step: 'ChooseVerifyFactor' });
    });

    it.each([
      '',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'SetupMfa',
      'SetupMfa.Nope',
      'SetupMfa.__proto__',
      'SetupMfa.VerifyNewFactor.totp',
      'VerifyFactor',
      'VerifyFactor.push',
      'emailcheck',
      ' EmailCheck',
      'EmailCheck ',
      'afterAuthentication',
    ])('rejects %j', (junk) => {
      expect(parseStateKey(junk)).toBeUndefined();
    });

    it.each([undefined, null, 42, {}, ['EmailCheck']])('rejects the non-string %j', (junk) => {
      expect(parseStateKey(junk)).toBeUndefined();
    });

    it('names pages without the factor: the three VerifyFactor states share one', () => {
      for (const flowState of FLOW_STATES) {
        const expected = flowState.step === 'VerifyFactor' ? 'VerifyFactor' : stateKey(flowState);
        expect(stepKey(flowState)).toBe(expected);
      }
    });
  });

  describe('purity', () => {
    it('does not mutate its inputs and answers the same twice', () => {
      const input: FlowState = Object.freeze({ step: 'EnterPassword' });
      const event = Object.freeze(pw('MFA_REQUIRED'));
      const context = Object.freeze(ctx({ factors: Object.freeze(['totp', 'sms'] as const) }));
      const first = transition(input, event, context);
      expect(transition(input, event, context)).toEqual(first);
      expect(input).toEqual({ step: 'EnterPassword' });
      expect(first).toEqual({ ok: true, state: { step: 'ChooseVerifyFactor' } });
    });
  });

  describe('diagram (docs/signin-flow.md)', () => {
    it('the documented diagram is exactly renderMermaid()', () => {
      const doc = readFileSync(join(__dirname, '../../../docs/signin-flow.md'), 'utf8');
      // Prettier puts blank lines around the fence; inside it the diagram must match exactly.
      const match =
        /<!-- diagram:start -->\n\n```mermaid\n([\s\S]*?)\n```\n\n<!-- diagram:end -->/.exec(doc);
      // On failure: paste the expected renderMermaid() output between the markers.
      expect(match?.[1]).toBe(renderMermaid());
    });

    it('draws every row and every decision branch once', () => {
      const diagram = renderMermaid();
      const edges = diagram.split('\n').filter((line) => line.includes('-->'));
      const labelled = edges.filter((line) => line.includes(' : '));
      const branches = DECISION_NAMES.reduce((n, name) => n + DECISIONS[name].length, 0);
      expect(labelled).toHaveLength(TRANSITIONS.length + branches);
      for (const row of TRANSITIONS) {
        expect(labelled.some((line) => line.includes(` : ${row.event}`))).toBe(true);
      }
      expect(diagram.startsWith('stateDiagram-v2\n')).toBe(true);
      // Mermaid ids may not contain dots.
      expect(edges.every((line) => !/\w\.\w/.test(line.split(' : ')[0] ?? ''))).toBe(true);
    });
  });
});
