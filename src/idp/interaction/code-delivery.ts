import type { AccountStore } from '../accounts/account-store';
import type { FactorStore } from '../accounts/factor-store';
import {
  CodeLimits,
  LimitVerdict,
  LimitedPurpose,
  limitSubject,
  minutesUntil,
} from '../accounts/code-limits';
import type { CodeCheck, CodePurpose, OneTimeCodes } from '../accounts/one-time-codes';
import type { MessageSender } from '../outbox/message-sender';
import type { Translate } from '../../shared/translate';
import type { Locale } from '../../shared/locale';
import type { FlowData } from './flow-records';
import { StepErrorCode, StepErrors, StepOutcome, invalid } from './step-outcome';

export interface CodeDeliveryDeps {
  readonly accounts: AccountStore;
  readonly factors: FactorStore;
  readonly codes: OneTimeCodes;
  readonly sender: MessageSender;
  /** Wrong codes and sent codes per account and purpose (issue 15 item 3). */
  readonly limits: CodeLimits;
  readonly now?: () => number;
}

/** The step a resend is asked on, and the language its message is written in. */
export interface CodeStep {
  readonly stepKey: string;
  readonly data: FlowData;
  readonly locale: Locale;
  readonly t: Translate;
}

/** A code or a send that the limits refused. */
type Refusal = Extract<LimitVerdict, { allowed: false }>;

const codeErrors: Record<'invalid' | 'expired' | 'too-many-attempts' | 'missing', StepErrorCode> = {
  invalid: 'codeInvalid',
  expired: 'codeExpired',
  'too-many-attempts': 'codeTooManyAttempts',
  missing: 'codeExpired',
};

/** Who a code is for, as the limits count it (limitSubject). */
interface CodeOwner {
  readonly accountId?: string | undefined;
  readonly email?: string | undefined;
}

/**
 * One-time codes on their way to the collector and back, under the limits of issue 15 item 3: each
 * send is counted before the code is issued and sent, each try before it is checked, and a refusal
 * says how long to wait. The sign-in steps (SigninSteps) decide when a code is due; this decides
 * whether it may go, sends it, and answers a resend.
 */
export class CodeDelivery {
  constructor(private readonly deps: CodeDeliveryDeps) {}

  /** A new code for the step's purpose (the `resend` action), counted like the first. */
  async resend({ stepKey, data, locale, t }: CodeStep): Promise<StepOutcome> {
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
    // Issue 15 item 3: a resend is a send like the first (limited per hour), and it no longer
    // starts the count of wrong codes again: that count is per account and purpose, not per code.
    if (!data.accountId) {
      const send = await this.reserveSend(purpose, data);
      if (!send.allowed) return invalid({}, this.refusal(send));
      return {
        kind: 'stay',
        patch: { notice: { key: 'codeSent', args: { destination: data.email ?? '' } } },
      };
    }
    const account = await this.deps.accounts.findById(data.accountId);
    const sms = purpose === 'mfa-sms' || purpose === 'enrol-sms';
    const destination = sms ? await this.smsDestination(data) : account?.email;
    if (!destination) return invalid({}, { code: 'notAllowed' });
    const sent = await this.send(
      data.accountId,
      destination,
      purpose,
      locale,
      t,
      sms ? 'sms' : 'email',
    );
    if (!sent.allowed) return invalid({}, this.refusal(sent));
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

  /**
   * Tries a code under the limits of issue 15 item 3: the try counts as wrong before it is checked,
   * so racing tries each count, and is forgiven if it was right. Once the purpose is locked, no code
   * is checked at all (the right one included) until the lock ends.
   */
  async tryCode(
    purpose: LimitedPurpose,
    owner: CodeOwner,
    check: () => Promise<CodeCheck>,
  ): Promise<CodeCheck | Refusal> {
    const subject = limitSubject(purpose, owner);
    if (!subject) return 'invalid';
    const verdict = await this.deps.limits.guess(subject, purpose);
    if (!verdict.allowed) return verdict;
    const result = await check();
    if (result === 'ok') await this.deps.limits.forgive(subject, purpose);
    return result;
  }

  /** The step's answer to a code that was not accepted. */
  codeRefused(result: Exclude<CodeCheck, 'ok'> | Refusal): StepOutcome {
    return typeof result === 'string'
      ? invalid({ code: codeErrors[result] })
      : invalid({}, this.refusal(result));
  }

  /** What the collector is told of a refused code or send: locked, or too many sent, and how long. */
  refusal(refused: Refusal): NonNullable<StepErrors['form']> {
    const minutes = String(minutesUntil(refused.until, (this.deps.now ?? Date.now)()));
    return {
      code: refused.reason === 'locked' ? 'codeLocked' : 'tooManyCodesSent',
      args: { minutes },
    };
  }

  /** The notice of the next page: the code was sent, or why it was not. */
  sentNotice(sent: LimitVerdict, destination: string): NonNullable<FlowData['notice']> {
    if (sent.allowed) return { key: 'codeSent', args: { destination } };
    return {
      key: sent.reason === 'locked' ? 'codeLocked' : 'tooManyCodesSent',
      args: { minutes: String(minutesUntil(sent.until, (this.deps.now ?? Date.now)())) },
    };
  }

  /** Counts a send (issue 15 item 3); allowed unless locked or past the sends of the hour. */
  reserveSend(purpose: CodePurpose, owner: CodeOwner): Promise<LimitVerdict> {
    const subject = limitSubject(purpose, owner);
    if (!subject) return Promise.resolve({ allowed: true });
    return this.deps.limits.send(subject, purpose);
  }

  /** Counts the send, then sends the code unless the limits refused it. */
  async send(
    accountId: string,
    to: string,
    purpose: CodePurpose,
    locale: Locale,
    t: Translate,
    channel: 'email' | 'sms' = 'email',
  ): Promise<LimitVerdict> {
    // An email code's address is the account's, which is how verify-email counts (limitSubject).
    const verdict = await this.reserveSend(purpose, {
      accountId,
      ...(channel === 'email' ? { email: to } : {}),
    });
    if (verdict.allowed) await this.deliver(accountId, to, purpose, locale, t, channel);
    return verdict;
  }

  /** Issues a code and sends it; the caller has counted the send. */
  async deliver(
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

/** Shows enough of a phone number to recognise it: +1•••••4567. */
export function maskDestination(destination: string): string {
  if (destination.includes('@')) return destination;
  return destination.length <= 6
    ? destination
    : `${destination.slice(0, 2)}${'•'.repeat(destination.length - 6)}${destination.slice(-4)}`;
}
