import { AccountError, AccountStore } from '../accounts/account-store';
import { FactorError, FactorStore, FactorType } from '../accounts/factor-store';
import { CodePurpose, OneTimeCodes } from '../accounts/one-time-codes';
import { checkPassword } from '../accounts/password-policy';
import type { MessageSender } from '../outbox/message-sender';
import type { Translate } from '../../shared/translate';
import type { Locale } from '../../shared/locale';
import type { FlowData } from './flow-records';
import { StepErrorCode, StepOutcome, invalid } from './step-outcome';

export interface StepInput {
  readonly stepKey: string;
  readonly action: string;
  readonly form: Readonly<Record<string, unknown>>;
  readonly data: FlowData;
  readonly locale: Locale;
  readonly t: Translate;
}

export interface SigninStepDeps {
  readonly accounts: AccountStore;
  readonly factors: FactorStore;
  readonly codes: OneTimeCodes;
  readonly sender: MessageSender;
}

type Handler = (input: StepInput) => Promise<StepOutcome>;

const FIELD_LIMIT = 256;

/** A single-valued, trimmed text field; arrays (repeated fields) and oversize values are errors. */
function text(
  form: StepInput['form'],
  name: string,
  max = FIELD_LIMIT,
): { value: string } | { error: StepErrorCode } {
  const raw = form[name];
  if (raw === undefined || raw === '') return { error: 'required' };
  if (typeof raw !== 'string') return { error: 'required' };
  const value = raw.trim();
  if (value === '') return { error: 'required' };
  if (value.length > max) return { error: 'tooLong' };
  return { value };
}

/** Passwords are not trimmed: spaces are legal characters in them. */
function secret(
  form: StepInput['form'],
  name: string,
): { value: string } | { error: StepErrorCode } {
  const raw = form[name];
  if (typeof raw !== 'string' || raw === '') return { error: 'required' };
  if (raw.length > FIELD_LIMIT) return { error: 'tooLong' };
  return { value: raw };
}

const codeErrors: Record<'invalid' | 'expired' | 'too-many-attempts' | 'missing', StepErrorCode> = {
  invalid: 'codeInvalid',
  expired: 'codeExpired',
  'too-many-attempts': 'codeTooManyAttempts',
  missing: 'codeExpired',
};

/**
 * What each sign-in step does with a form post (§4 Sign-in flow): validate, call the account stores,
 * and name the flow event. The flow machine decides where the event leads; this never moves the state.
 */
export class SigninSteps {
  private readonly handlers: Readonly<Record<string, Handler>>;

  constructor(private readonly deps: SigninStepDeps) {
    this.handlers = {
      EmailCheck: (i) => this.emailCheck(i),
      CreateAccount: (i) => this.createAccount(i),
      VerifyEmailCode: (i) =>
        this.verifyCode(i, 'verify-email', { type: 'EMAIL_CODE_VERIFIED' }, async (id) => {
          await this.deps.accounts.markEmailVerified(id);
        }),
      EnterPassword: (i) => this.enterPassword(i),
      WelcomeCollectors: () =>
        Promise.resolve({ kind: 'event', event: { type: 'WELCOME_CONTINUED' } }),
      EnterNameInfo: (i) => this.enterName(i),
      UpdateExpiredPassword: (i) => this.updateExpiredPassword(i),
      ChooseVerifyFactor: (i) => this.chooseFactor(i, 'sign-in'),
      VerifyFactor: (i) => this.verifyFactor(i, { type: 'FACTOR_VERIFIED' }),
      'SetupMfa.PromptSetupMfa': (i) =>
        Promise.resolve({
          kind: 'event',
          event: { type: i.action === 'skip' ? 'SETUP_SKIPPED' : 'SETUP_STARTED' },
        }),
      'SetupMfa.VerifyCurrentFactor': (i) =>
        this.verifyFactor(i, { type: 'CURRENT_FACTOR_VERIFIED' }),
      'SetupMfa.ChooseVerifyFactor': (i) => this.chooseFactor(i, 'set-up'),
      'SetupMfa.SetupPhone': (i) => this.setupPhone(i),
      'SetupMfa.VerifyNewFactor': (i) => this.verifyNewFactor(i),
      'SetupMfa.Success': () =>
        Promise.resolve({ kind: 'event', event: { type: 'SETUP_FINISHED' } }),
      Survey: (i) => this.survey(i),
      ForgotPassword: (i) =>
        this.requestCode(i, 'recover-password', { type: 'FORGOT_PASSWORD_SUBMITTED' }),
      VerifyRecoveryCode: (i) =>
        this.verifyCode(i, 'recover-password', { type: 'RECOVERY_CODE_VERIFIED' }),
      ResetPassword: (i) => this.newPassword(i, { type: 'PASSWORD_RESET' }, true),
      LockedOut: () => Promise.resolve({ kind: 'event', event: { type: 'UNLOCK_REQUESTED' } }),
      UnlockAccount: (i) =>
        this.requestCode(i, 'unlock-account', { type: 'UNLOCK_EMAIL_SUBMITTED' }),
      VerifyUnlockCode: (i) =>
        this.verifyCode(i, 'unlock-account', { type: 'UNLOCK_CODE_VERIFIED' }, async (id) => {
          await this.deps.accounts.unlock(id);
        }),
    };
  }

  knows(stepKey: string): boolean {
    return Object.hasOwn(this.handlers, stepKey);
  }

  async handle(input: StepInput): Promise<StepOutcome> {
    if (input.action === 'back') return { kind: 'event', event: { type: 'BACK' } };
    if (input.action === 'forgot') return { kind: 'event', event: { type: 'FORGOT_PASSWORD' } };
    if (input.action === 'resend') return this.resend(input);
    const handler = this.handlers[input.stepKey];
    if (!handler) return invalid({}, { code: 'notAllowed' });
    return handler(input);
  }

  private async emailCheck({ form }: StepInput): Promise<StepOutcome> {
    const email = text(form, 'email', 254);
    if ('error' in email) return invalid({ email: email.error });
    if (!isPlausibleEmail(email.value))
      return invalid({ email: 'invalidEmail' }, undefined, { email: email.value });
    const account = await this.deps.accounts.findByEmail(email.value);
    return {
      kind: 'event',
      event: { type: 'EMAIL_SUBMITTED', accountExists: account !== undefined },
      patch: { email: email.value.toLowerCase(), ...(account ? { accountId: account.id } : {}) },
    };
  }

  private async createAccount({ form, data, locale, t }: StepInput): Promise<StepOutcome> {
    const given = text(form, 'givenName', 100);
    const family = text(form, 'familyName', 100);
    const password = secret(form, 'newPassword');
    const fields: Record<string, StepErrorCode | { rules: ReturnType<typeof checkPassword> }> = {};
    if ('error' in given) fields.givenName = given.error;
    if ('error' in family) fields.familyName = family.error;
    if ('error' in password) fields.newPassword = password.error;
    else if (checkPassword(password.value).length > 0)
      fields.newPassword = { rules: checkPassword(password.value) };
    if (form.acceptTerms !== 'true') fields.acceptTerms = 'termsRequired';
    const values = {
      givenName: 'value' in given ? given.value : '',
      familyName: 'value' in family ? family.value : '',
    };
    if (
      Object.keys(fields).length > 0 ||
      !data.email ||
      'error' in password ||
      'error' in given ||
      'error' in family
    ) {
      return invalid(fields, data.email ? undefined : { code: 'notAllowed' }, values);
    }
    try {
      const account = await this.deps.accounts.createAccount({
        email: data.email,
        password: password.value,
        locale,
        givenName: given.value,
        familyName: family.value,
        acceptedTerms: true,
      });
      await this.sendCode(account.id, account.email, 'verify-email', locale, t);
      return {
        kind: 'event',
        event: { type: 'ACCOUNT_CREATED' },
        patch: {
          accountId: account.id,
          isNewAccount: true,
          notice: { key: 'codeSent', args: { destination: account.email } },
        },
      };
    } catch (error) {
      if (error instanceof AccountError && error.code === 'email-taken')
        return invalid({}, { code: 'emailTaken' }, values);
      if (error instanceof AccountError && error.code === 'invalid-name')
        return invalid({ givenName: 'invalidName' }, undefined, values);
      throw error;
    }
  }

  private async enterPassword({ form, data, locale, t }: StepInput): Promise<StepOutcome> {
    const password = secret(form, 'password');
    if ('error' in password) return invalid({ password: password.error });
    if (!data.accountId) return invalid({}, { code: 'notAllowed' });
    const result = await this.deps.accounts.checkPassword(data.accountId, password.value);
    if (result.outcome === 'INVALID_CREDENTIALS') {
      return invalid(
        { password: 'wrongPassword' },
        { code: 'wrongPassword', args: { attemptsLeft: String(result.attemptsLeft ?? 0) } },
      );
    }
    // §4 outcomes: a correct password on an account with a verified second factor needs that factor.
    const factors =
      result.outcome === 'SUCCESS' ? await this.deps.factors.listVerified(data.accountId) : [];
    const outcome =
      result.outcome === 'SUCCESS' && factors.length > 0 ? 'MFA_REQUIRED' : result.outcome;
    const only = factors.length === 1 ? factors[0]?.type : undefined;
    const patch = only ? await this.prepareFactor(data, only, locale, t) : {};
    return { kind: 'event', event: { type: 'PASSWORD_CHECKED', outcome }, patch };
  }

  private async enterName({ form, data }: StepInput): Promise<StepOutcome> {
    const given = text(form, 'givenName', 100);
    const family = text(form, 'familyName', 100);
    if ('error' in given || 'error' in family) {
      return invalid({
        ...('error' in given ? { givenName: given.error } : {}),
        ...('error' in family ? { familyName: family.error } : {}),
      });
    }
    if (!data.accountId) return invalid({}, { code: 'notAllowed' });
    const account = await this.deps.accounts.updateName(data.accountId, {
      givenName: given.value,
      familyName: family.value,
    });
    // §3 isMigrating: the welcome and the name are what a migrating account still needed, so saving
    // the name completes its migration, and its next ID token no longer says so (issue 14 item 10).
    if (account.isMigrating) await this.deps.accounts.setFlags(account.id, { isMigrating: false });
    return { kind: 'event', event: { type: 'NAME_SAVED' } };
  }

  /** §4: an expired password, once replaced, leads on like a correct one (second factor if any). */
  private async updateExpiredPassword(input: StepInput): Promise<StepOutcome> {
    const factors = input.data.accountId
      ? await this.deps.factors.listVerified(input.data.accountId)
      : [];
    // The flow sends the collector on to a second factor when the account has one (§4).
    const result = await this.newPassword(input, { type: 'PASSWORD_UPDATED' });
    const only = factors.length === 1 ? factors[0]?.type : undefined;
    if (result.kind !== 'event' || !only) return result;
    return {
      ...result,
      patch: {
        ...result.patch,
        ...(await this.prepareFactor(input.data, only, input.locale, input.t)),
      },
    };
  }

  private async newPassword(
    { form, data }: StepInput,
    event: StepOutcomeEvent,
    unlock = false,
  ): Promise<StepOutcome> {
    const password = secret(form, 'newPassword');
    if ('error' in password) return invalid({ newPassword: password.error });
    const rules = checkPassword(password.value);
    if (rules.length > 0) return invalid({ newPassword: { rules } });
    if (!data.accountId) return invalid({}, { code: 'notAllowed' });
    try {
      await this.deps.accounts.setPassword(data.accountId, password.value);
    } catch (error) {
      if (error instanceof AccountError && error.code === 'password-reused')
        return invalid({ newPassword: 'passwordReused' });
      throw error;
    }
    // A reset proves control of the mailbox, which is also what unlocking asks for.
    if (unlock) await this.deps.accounts.unlock(data.accountId);
    return {
      kind: 'event',
      event,
      ...(unlock ? { patch: { notice: { key: 'passwordReset' } } } : {}),
    };
  }

  private async chooseFactor(
    { form, data, locale, t }: StepInput,
    mode: 'sign-in' | 'set-up',
  ): Promise<StepOutcome> {
    const factor = form.factor;
    if (factor !== 'totp' && factor !== 'email' && factor !== 'sms')
      return invalid({ factor: 'chooseOption' });
    if (!data.accountId) return invalid({}, { code: 'notAllowed' });
    if (mode === 'sign-in') {
      const verified = await this.deps.factors.listVerified(data.accountId);
      if (!verified.some((f) => f.type === factor)) return invalid({ factor: 'chooseOption' });
      return {
        kind: 'event',
        event: { type: 'FACTOR_CHOSEN', factor },
        patch: await this.prepareFactor(data, factor, locale, t),
      };
    }
    if (factor === 'sms')
      return { kind: 'event', event: { type: 'FACTOR_CHOSEN', factor }, patch: { factor } };
    const enrolment = await this.deps.factors.startEnrolment(
      data.accountId,
      factor,
      data.email ? { email: data.email } : {},
    );
    const patch: Partial<FlowData> = {
      factor,
      enrolmentId: enrolment.factor.id,
      ...(enrolment.totp
        ? { totp: { secret: enrolment.totp.secret, qrSvg: enrolment.totp.qrSvg } }
        : {}),
    };
    if (factor === 'email' && data.email) {
      await this.sendCode(data.accountId, data.email, 'enrol-email', locale, t);
      return {
        kind: 'event',
        event: { type: 'FACTOR_CHOSEN', factor },
        patch: { ...patch, notice: { key: 'codeSent', args: { destination: data.email } } },
      };
    }
    return { kind: 'event', event: { type: 'FACTOR_CHOSEN', factor }, patch };
  }

  /** Sends the code for an email or SMS factor, so the next page can ask for it. */
  private async prepareFactor(
    data: FlowData,
    factor: FactorType,
    locale?: Locale,
    t?: Translate,
  ): Promise<Partial<FlowData>> {
    if (factor === 'totp' || !data.accountId || !locale || !t) return { factor };
    const destination =
      factor === 'email'
        ? data.email
        : (await this.deps.factors.listVerified(data.accountId)).find((f) => f.type === 'sms')
            ?.phone;
    if (!destination) return { factor };
    await this.sendCode(
      data.accountId,
      destination,
      factor === 'email' ? 'mfa-email' : 'mfa-sms',
      locale,
      t,
      factor === 'sms' ? 'sms' : 'email',
    );
    return {
      factor,
      notice: { key: 'codeSent', args: { destination: maskDestination(destination) } },
    };
  }

  private async verifyFactor(
    { form, data }: StepInput,
    event: StepOutcomeEvent,
  ): Promise<StepOutcome> {
    const code = text(form, 'code', 6);
    if ('error' in code) return invalid({ code: code.error });
    if (!data.accountId || !data.factor) return invalid({}, { code: 'notAllowed' });
    if (data.factor === 'totp') {
      return (await this.deps.factors.verifyTotp(data.accountId, code.value))
        ? { kind: 'event', event }
        : invalid({ code: 'codeInvalid' });
    }
    const result = await this.deps.codes.check(
      data.accountId,
      data.factor === 'email' ? 'mfa-email' : 'mfa-sms',
      code.value,
    );
    return result === 'ok' ? { kind: 'event', event } : invalid({ code: codeErrors[result] });
  }

  private async setupPhone({ form, data, locale, t }: StepInput): Promise<StepOutcome> {
    const phone = text(form, 'phone', 20);
    if ('error' in phone) return invalid({ phone: phone.error });
    if (!data.accountId) return invalid({}, { code: 'notAllowed' });
    const normalized = phone.value.replace(/[\s().-]/g, '');
    try {
      const enrolment = await this.deps.factors.startEnrolment(data.accountId, 'sms', {
        phone: normalized,
      });
      await this.sendCode(data.accountId, normalized, 'enrol-sms', locale, t, 'sms');
      return {
        kind: 'event',
        event: { type: 'PHONE_SUBMITTED' },
        patch: {
          factor: 'sms',
          enrolmentId: enrolment.factor.id,
          notice: { key: 'codeSent', args: { destination: maskDestination(normalized) } },
        },
      };
    } catch (error) {
      if (error instanceof FactorError && error.code === 'invalid-phone')
        return invalid({ phone: 'invalidPhone' }, undefined, { phone: phone.value });
      throw error;
    }
  }

  private async verifyNewFactor({ form, data }: StepInput): Promise<StepOutcome> {
    const code = text(form, 'code', 6);
    if ('error' in code) return invalid({ code: code.error });
    if (!data.accountId || !data.enrolmentId || !data.factor)
      return invalid({}, { code: 'notAllowed' });
    if (data.factor !== 'totp') {
      const result = await this.deps.codes.check(
        data.accountId,
        data.factor === 'sms' ? 'enrol-sms' : 'enrol-email',
        code.value,
      );
      if (result !== 'ok') return invalid({ code: codeErrors[result] });
    }
    try {
      await this.deps.factors.confirmEnrolment(
        data.accountId,
        data.enrolmentId,
        data.factor === 'totp' ? code.value : undefined,
      );
    } catch (error) {
      if (error instanceof FactorError && error.code === 'invalid-code')
        return invalid({ code: 'codeInvalid' });
      throw error;
    }
    await this.deps.accounts.setFlags(data.accountId, { mfaSetupRequired: false });
    return { kind: 'event', event: { type: 'NEW_FACTOR_VERIFIED' }, patch: { totp: undefined } };
  }

  private async survey({ form, action, data }: StepInput): Promise<StepOutcome> {
    if (!data.accountId) return invalid({}, { code: 'notAllowed' });
    if (action === 'skip') return { kind: 'event', event: { type: 'SURVEY_SKIPPED' } };
    const interest = form.interest;
    if (
      typeof interest !== 'string' ||
      !['cards', 'coins', 'comics', 'memorabilia', 'other'].includes(interest)
    ) {
      return invalid({ interest: 'chooseOption' });
    }
    await this.deps.accounts.setFlags(data.accountId, { surveyPending: false });
    return { kind: 'event', event: { type: 'SURVEY_SUBMITTED' } };
  }

  /**
   * Recovery and unlock start from an email. Whether or not an account exists, the answer is the same
   * (a code "was sent"), so these pages cannot be used to find out who has an account.
   */
  private async requestCode(
    { form, locale, t }: StepInput,
    purpose: CodePurpose,
    event: StepOutcomeEvent,
  ): Promise<StepOutcome> {
    const email = text(form, 'email', 254);
    if ('error' in email) return invalid({ email: email.error });
    if (!isPlausibleEmail(email.value))
      return invalid({ email: 'invalidEmail' }, undefined, { email: email.value });
    const account = await this.deps.accounts.findByEmail(email.value);
    if (account) await this.sendCode(account.id, account.email, purpose, locale, t);
    return {
      kind: 'event',
      event,
      patch: {
        email: email.value.toLowerCase(),
        accountId: account?.id,
        notice: { key: 'codeSent', args: { destination: email.value } },
      },
    };
  }

  private async verifyCode(
    { form, data }: StepInput,
    purpose: CodePurpose,
    event: StepOutcomeEvent,
    onSuccess?: (accountId: string) => Promise<void>,
  ): Promise<StepOutcome> {
    const code = text(form, 'code', 6);
    if ('error' in code) return invalid({ code: code.error });
    if (!data.accountId) return invalid({ code: 'codeInvalid' });
    const result = await this.deps.codes.check(data.accountId, purpose, code.value);
    if (result !== 'ok') return invalid({ code: codeErrors[result] });
    await onSuccess?.(data.accountId);
    return {
      kind: 'event',
      event,
      ...(purpose === 'unlock-account' ? { patch: { notice: { key: 'unlocked' } } } : {}),
    };
  }

  private async resend({ stepKey, data, locale, t }: StepInput): Promise<StepOutcome> {
    const purposes: Record<string, CodePurpose | undefined> = {
      VerifyEmailCode: 'verify-email',
      VerifyRecoveryCode: 'recover-password',
      VerifyUnlockCode: 'unlock-account',
      VerifyFactor:
        data.factor === 'sms' ? 'mfa-sms' : data.factor === 'email' ? 'mfa-email' : undefined,
      'SetupMfa.VerifyCurrentFactor':
        data.factor === 'sms' ? 'mfa-sms' : data.factor === 'email' ? 'mfa-email' : undefined,
      'SetupMfa.VerifyNewFactor':
        data.factor === 'sms' ? 'enrol-sms' : data.factor === 'email' ? 'enrol-email' : undefined,
    };
    const purpose = purposes[stepKey];
    if (!purpose) return invalid({}, { code: 'notAllowed' });
    if (!data.accountId)
      return {
        kind: 'stay',
        patch: { notice: { key: 'codeSent', args: { destination: data.email ?? '' } } },
      };
    const account = await this.deps.accounts.findById(data.accountId);
    const sms = purpose === 'mfa-sms' || purpose === 'enrol-sms';
    const destination = sms ? await this.smsDestination(data) : account?.email;
    if (!destination) return invalid({}, { code: 'notAllowed' });
    await this.sendCode(data.accountId, destination, purpose, locale, t, sms ? 'sms' : 'email');
    return {
      kind: 'stay',
      patch: {
        notice: {
          key: 'codeSent',
          args: { destination: sms ? maskDestination(destination) : destination },
        },
      },
    };
  }

  private async smsDestination(data: FlowData): Promise<string | undefined> {
    if (!data.accountId) return undefined;
    const factors = await this.deps.factors.listVerified(data.accountId);
    return factors.find((f) => f.type === 'sms')?.phone ?? undefined;
  }

  private async sendCode(
    accountId: string,
    to: string,
    purpose: CodePurpose,
    locale: Locale,
    t: Translate,
    channel: 'email' | 'sms' = 'email',
  ): Promise<void> {
    const code = await this.deps.codes.issue(accountId, purpose);
    await this.deps.sender.send({
      channel,
      to,
      subject: t(`common.signin.messages.${purpose}.subject`),
      text: t(`common.signin.messages.${purpose}.text`, { code }),
      purpose,
      locale,
    });
  }
}

type StepOutcomeEvent = Extract<StepOutcome, { kind: 'event' }>['event'];

/** The same rule as the account store's, checked early to answer with a field error. */
function isPlausibleEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

/** Shows enough of a phone number to recognise it: +1•••••4567. */
export function maskDestination(destination: string): string {
  if (destination.includes('@')) return destination;
  return destination.length <= 6
    ? destination
    : `${destination.slice(0, 2)}${'•'.repeat(destination.length - 6)}${destination.slice(-4)}`;
}
