import { AccountError, AccountStore } from '../accounts/account-store';
import { FactorError, FactorStore, FactorType } from '../accounts/factor-store';
import type { CodeLimits } from '../accounts/code-limits';
import type { CodePurpose, OneTimeCodes } from '../accounts/one-time-codes';
import { checkPassword } from '../accounts/password-policy';
import type { MessageSender } from '../outbox/message-sender';
import type { Translate } from '../../shared/translate';
import type { Locale } from '../../shared/locale';
import type { FlowData } from './flow-records';
import { StepErrorCode, StepOutcome, invalid } from './step-outcome';
import { CodeDelivery, maskDestination } from './code-delivery';

export interface StepInput {
  readonly stepKey: string;
  readonly action: string;
  readonly form: Readonly<Record<string, unknown>>;
  readonly data: FlowData;
  readonly locale: Locale;
  readonly t: Translate;
}

/**
 * Signs an account out everywhere: every session and refresh token at the IdP and at its relying
 * parties, this service included (EmbeddedIdp.endEverySessionOf, which says why through the
 * back channel). A password reset calls it (issue 15 item 2).
 */
export interface AccountSignOut {
  everywhere(accountId: string): Promise<void>;
}

export interface SigninStepDeps {
  readonly accounts: AccountStore;
  readonly factors: FactorStore;
  readonly codes: OneTimeCodes;
  readonly sender: MessageSender;
  /** Wrong codes and sent codes per account and purpose (issue 15 item 3). */
  readonly limits: CodeLimits;
  readonly signOut: AccountSignOut;
  readonly now?: () => number;
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

/** The digits of a one-time code. */
const CODE_LENGTH = 6;

/**
 * A one-time code as the collector pasted or typed it: the spaces and dashes that mail, SMS and
 * authenticator apps group the digits with ("528 103", "528-103", or a typographic dash a mail
 * or a word processor put there) are dropped before the check.
 */
export function oneTimeCode(form: StepInput['form']): { value: string } | { error: StepErrorCode } {
  const field = text(form, 'code');
  if ('error' in field) return field;
  const value = field.value.replace(/[\s\-\u2010-\u2015\u2212]/g, '');
  if (value === '') return { error: 'required' };
  if (value.length > CODE_LENGTH) return { error: 'tooLong' };
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

/**
 * What each sign-in step does with a form post (§4 Sign-in flow): validate, call the account stores,
 * and name the flow event. The flow machine decides where the event leads; this never moves the state.
 */
export class SigninSteps {
  private readonly handlers: Readonly<Record<string, Handler>>;
  private readonly delivery: CodeDelivery;

  constructor(private readonly deps: SigninStepDeps) {
    this.delivery = new CodeDelivery(deps);
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
      'SetupMfa.PromptSetupMfa': (i) => this.promptSetupMfa(i),
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
      ResetPassword: (i) =>
        this.withSecondFactorReady(i, this.newPassword(i, { type: 'PASSWORD_RESET' }, true)),
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
    if (input.action === 'resend') return this.delivery.resend(input);
    const handler = this.handlers[input.stepKey];
    if (!handler) return invalid({}, { code: 'notAllowed' });
    return handler(input);
  }

  private async emailCheck({ form }: StepInput): Promise<StepOutcome> {
    const email = text(form, 'email', 254);
    if ('error' in email) return invalid({ email: email.error });
    if (!isPlausibleEmail(email.value))
      return invalid({ email: 'invalidEmail' }, undefined, { email: email.value });
    const found = await this.deps.accounts.findByEmail(email.value);
    // Issue 15 item 2: an account whose address was never verified is a registration in progress,
    // not an account: the address goes to CreateAccount, whose registration replaces it. So whoever
    // registered someone else's address cannot sign in with it, and does not keep its owner out.
    // The account an earlier step named is forgotten, so that no later step can act on it.
    const account = found?.emailVerified ? found : undefined;
    return {
      kind: 'event',
      event: { type: 'EMAIL_SUBMITTED', accountExists: account !== undefined },
      patch: { email: email.value.toLowerCase(), accountId: account?.id },
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
    // Every value comes back after a refusal but the password, the ticked terms box included.
    const values = {
      givenName: 'value' in given ? given.value : '',
      familyName: 'value' in family ? family.value : '',
      acceptTerms: form.acceptTerms === 'true' ? 'true' : '',
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
    // A registration sends a code to the address: counted like a resend (issue 15 item 3), by the
    // address, since each registration of it replaces the last one's account.
    const send = await this.delivery.reserveSend('verify-email', { email: data.email });
    if (!send.allowed) return invalid({}, this.delivery.refusal(send), values);
    try {
      const account = await this.deps.accounts.createAccount(
        {
          email: data.email,
          password: password.value,
          locale,
          givenName: given.value,
          familyName: family.value,
          acceptedTerms: true,
        },
        // Issue 15 item 2: an unverified registration of the address gives way to this one.
        { replaceUnverified: true },
      );
      await this.delivery.deliver(account.id, account.email, 'verify-email', locale, t);
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
      // One message, on the field it is about (the summary links to it), with its count.
      return invalid({
        password: {
          code: 'wrongPassword',
          args: { attemptsLeft: String(result.attemptsLeft ?? 0) },
        },
      });
    }
    // Issue 15 item 2: reachable only through a step that named an account without EmailCheck's
    // verified-only rule (recovery or unlock, then BACK); the password alone signs nobody in.
    if (result.outcome === 'EMAIL_UNVERIFIED') return invalid({}, { code: 'emailUnverified' });
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
      return invalid(
        {
          ...('error' in given ? { givenName: given.error } : {}),
          ...('error' in family ? { familyName: family.error } : {}),
        },
        undefined,
        // The name that was given comes back with the one still missing.
        {
          givenName: 'value' in given ? given.value : '',
          familyName: 'value' in family ? family.value : '',
        },
      );
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
  private updateExpiredPassword(input: StepInput): Promise<StepOutcome> {
    return this.withSecondFactorReady(input, this.newPassword(input, { type: 'PASSWORD_UPDATED' }));
  }

  /**
   * A new password (expired, or reset after recovery) leads on to the account's second factor when
   * it has one (the flow's afterPasswordUpdate): a sole emailed or texted factor gets its code on
   * the way, as after a correct password, so the next page's code was sent.
   */
  private async withSecondFactorReady(
    input: StepInput,
    outcome: Promise<StepOutcome>,
  ): Promise<StepOutcome> {
    const result = await outcome;
    if (result.kind !== 'event' || !input.data.accountId) return result;
    const factors = await this.deps.factors.listVerified(input.data.accountId);
    const only = factors.length === 1 ? factors[0]?.type : undefined;
    if (!only) return result;
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
    let replacedRegistration = false;
    try {
      if (unlock) {
        // Recovery: the code proved the mailbox, so the address is verified now, and an unverified
        // registration of it (perhaps not the owner's) is replaced by the owner's (issue 15 item 2).
        const recovered = await this.deps.accounts.recoverPassword(data.accountId, password.value);
        replacedRegistration = recovered.replacedRegistration;
      } else {
        await this.deps.accounts.setPassword(data.accountId, password.value);
      }
    } catch (error) {
      if (error instanceof AccountError && error.code === 'password-reused')
        return invalid({ newPassword: 'passwordReused' });
      throw error;
    }
    if (!unlock) return { kind: 'event', event };
    // A reset proves control of the mailbox, which is also what unlocking asks for.
    await this.deps.accounts.unlock(data.accountId);
    // Issue 15 item 2, OWASP ASVS 5.0 7.4.3: whoever knew the old password is signed out
    // everywhere, at the IdP and in the relying parties, refresh tokens included.
    await this.deps.signOut.everywhere(data.accountId);
    return {
      kind: 'event',
      event,
      patch: {
        notice: { key: 'passwordReset' },
        // The owner of a replaced registration gives their own name on the welcome steps.
        ...(replacedRegistration ? { isNewAccount: true } : {}),
      },
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
    // An authenticator app chosen before (and left with Back) must not lend its QR code and key to
    // the page of the factor chosen now: the key is the secret of an enrolment no longer in use.
    if (factor === 'sms')
      return {
        kind: 'event',
        event: { type: 'FACTOR_CHOSEN', factor },
        patch: { factor, totp: undefined },
      };
    const enrolment = await this.deps.factors.startEnrolment(
      data.accountId,
      factor,
      data.email ? { email: data.email } : {},
    );
    const patch: Partial<FlowData> = {
      factor,
      enrolmentId: enrolment.factor.id,
      totp: enrolment.totp
        ? { secret: enrolment.totp.secret, qrSvg: enrolment.totp.qrSvg }
        : undefined,
    };
    if (factor === 'email' && data.email) {
      const sent = await this.delivery.send(data.accountId, data.email, 'enrol-email', locale, t);
      return {
        kind: 'event',
        event: { type: 'FACTOR_CHOSEN', factor },
        patch: { ...patch, notice: this.delivery.sentNotice(sent, data.email) },
      };
    }
    return { kind: 'event', event: { type: 'FACTOR_CHOSEN', factor }, patch };
  }

  /**
   * §4 SetupMfa: an account that has a factor proves it before adding another (VerifyCurrentFactor).
   * The code this sign-in was proved with is spent, so an emailed or texted factor gets a new code
   * on the way in, as VerifyFactor does at sign-in; without it the page asked for a code nobody sent.
   * The factor to prove is the one this sign-in used, else the oldest verified one.
   */
  private async promptSetupMfa({ action, data, locale, t }: StepInput): Promise<StepOutcome> {
    if (action === 'skip') return { kind: 'event', event: { type: 'SETUP_SKIPPED' } };
    const started = { kind: 'event', event: { type: 'SETUP_STARTED' } } as const;
    if (!data.accountId) return started;
    const verified = await this.deps.factors.listVerified(data.accountId);
    const current = verified.find((f) => f.type === data.factor) ?? verified[0];
    if (!current) return started;
    return { ...started, patch: await this.prepareFactor(data, current.type, locale, t) };
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
    const sent = await this.delivery.send(
      data.accountId,
      destination,
      factor === 'email' ? 'mfa-email' : 'mfa-sms',
      locale,
      t,
      factor === 'sms' ? 'sms' : 'email',
    );
    return { factor, notice: this.delivery.sentNotice(sent, maskDestination(destination)) };
  }

  private async verifyFactor(
    { form, data }: StepInput,
    event: StepOutcomeEvent,
  ): Promise<StepOutcome> {
    const code = oneTimeCode(form);
    if ('error' in code) return invalid({ code: code.error });
    const { accountId, factor } = data;
    if (!accountId || !factor) return invalid({}, { code: 'notAllowed' });
    // Issue 15 item 3: wrong authenticator codes count like wrong emailed ones.
    const result =
      factor === 'totp'
        ? await this.delivery.tryCode('totp', data, async () =>
            (await this.deps.factors.verifyTotp(accountId, code.value)) ? 'ok' : 'invalid',
          )
        : await this.delivery.tryCode(factor === 'email' ? 'mfa-email' : 'mfa-sms', data, () =>
            this.deps.codes.check(
              accountId,
              factor === 'email' ? 'mfa-email' : 'mfa-sms',
              code.value,
            ),
          );
    return result === 'ok' ? { kind: 'event', event } : this.delivery.codeRefused(result);
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
      const sent = await this.delivery.send(
        data.accountId,
        normalized,
        'enrol-sms',
        locale,
        t,
        'sms',
      );
      return {
        kind: 'event',
        event: { type: 'PHONE_SUBMITTED' },
        patch: {
          factor: 'sms',
          enrolmentId: enrolment.factor.id,
          notice: this.delivery.sentNotice(sent, maskDestination(normalized)),
        },
      };
    } catch (error) {
      if (error instanceof FactorError && error.code === 'invalid-phone')
        return invalid({ phone: 'invalidPhone' }, undefined, { phone: phone.value });
      throw error;
    }
  }

  private async verifyNewFactor({ form, data }: StepInput): Promise<StepOutcome> {
    const code = oneTimeCode(form);
    if ('error' in code) return invalid({ code: code.error });
    if (!data.accountId || !data.enrolmentId || !data.factor)
      return invalid({}, { code: 'notAllowed' });
    // An authenticator being enrolled shows its secret on this very page: there is nothing to guess,
    // so its codes are not counted; emailed and texted enrolment codes are.
    if (data.factor !== 'totp') {
      const { accountId } = data;
      const purpose = data.factor === 'sms' ? 'enrol-sms' : 'enrol-email';
      const result = await this.delivery.tryCode(purpose, data, () =>
        this.deps.codes.check(accountId, purpose, code.value),
      );
      if (result !== 'ok') return this.delivery.codeRefused(result);
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
    // Sends are counted for an unknown address too (by the address), so that the limit answers the
    // same whether or not the account exists (issue 15 item 3).
    const send = await this.delivery.reserveSend(purpose, {
      accountId: account?.id,
      email: email.value,
    });
    if (account && send.allowed)
      await this.delivery.deliver(account.id, account.email, purpose, locale, t);
    return {
      kind: 'event',
      event,
      patch: {
        email: email.value.toLowerCase(),
        accountId: account?.id,
        notice: this.delivery.sentNotice(send, email.value),
      },
    };
  }

  private async verifyCode(
    { form, data }: StepInput,
    purpose: CodePurpose,
    event: StepOutcomeEvent,
    onSuccess?: (accountId: string) => Promise<void>,
  ): Promise<StepOutcome> {
    const code = oneTimeCode(form);
    if ('error' in code) return invalid({ code: code.error });
    const { accountId } = data;
    // Without an account (recovery of an unknown address) every code is wrong, and counted the same.
    const result = await this.delivery.tryCode(purpose, data, () =>
      accountId
        ? this.deps.codes.check(accountId, purpose, code.value)
        : Promise.resolve('invalid'),
    );
    if (result !== 'ok' || !accountId)
      return this.delivery.codeRefused(result === 'ok' ? 'invalid' : result);
    await onSuccess?.(accountId);
    return {
      kind: 'event',
      event,
      ...(purpose === 'unlock-account' ? { patch: { notice: { key: 'unlocked' } } } : {}),
    };
  }
}

type StepOutcomeEvent = Extract<StepOutcome, { kind: 'event' }>['event'];

/** The same rule as the account store's, checked early to answer with a field error. */
function isPlausibleEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}
