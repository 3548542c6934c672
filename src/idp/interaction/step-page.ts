import { createElement, type ReactElement } from 'react';
import { SigninStep, SigninStepProps } from '../../../views/signin/SigninStep';
import { STEP_VIEWS, offeredActions } from '../../../views/signin/step-views';
import type { PageFrameData } from '../../../views/shell/shell-data';
import type { Translate } from '../../shared/translate';
import type { FlowData } from './flow-records';
import type { Locale } from '../../shared/locale';
import { joinSentences } from '../../shared/sentences';
import type { StepErrorCode, StepErrors, StepMessage } from './step-outcome';

export interface StepPageInput {
  readonly stepKey: string;
  readonly data: FlowData;
  /** The brand, locale and footer links of the page (PageRenderer.frame). */
  readonly frame: PageFrameData;
  readonly t: Translate;
  readonly formAction: string;
  readonly termsUrl: string;
  readonly errors?: StepErrors;
  readonly values?: Record<string, string>;
  /** Radio options narrowed by the flow, e.g. the account's verified factors. */
  readonly options?: SigninStepProps['options'];
  readonly displayName?: string;
  /** The step the flow's BACK leads to from here, which names the back action (backLabel). */
  readonly backTo?: string;
}

/**
 * Messages that hold a count, and the argument that holds it. Each has a second form, `<key>One`,
 * for the count the language's plural rules call "one" (Intl.PluralRules: 1 in English; 0 and 1 in
 * French; never in Japanese, whose counter words do not change). Every other count takes the
 * plain key, so the locale files of §7 keep one string per key.
 */
const COUNTED: Readonly<Record<string, string>> = {
  'errors.wrongPassword': 'attemptsLeft',
  'errors.codeLocked': 'minutes',
  'errors.tooManyCodesSent': 'minutes',
  'notices.codeLocked': 'minutes',
  'notices.tooManyCodesSent': 'minutes',
};

const pluralRules = new Map<Locale, Intl.PluralRules>();

/** A `common.signin.*` message in the collector's language, its count in the right plural form. */
export function signinMessage(
  t: Translate,
  locale: Locale,
  key: string,
  args?: Readonly<Record<string, string>>,
): string {
  const countArg = COUNTED[key];
  const count = countArg === undefined ? NaN : Number(args?.[countArg]);
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  const form = Number.isFinite(count) && rules.select(count) === 'one' ? `${key}One` : key;
  return t(`common.signin.${form}`, args);
}

/** Turns error codes into the collector's language (a password lists each rule it misses, §5). */
export function translateErrors(
  errors: StepErrors | undefined,
  t: Translate,
  locale: Locale,
): SigninStepProps['errors'] {
  if (!errors) return { fields: {} };
  const message = (error: StepErrorCode | StepMessage) =>
    typeof error === 'string'
      ? signinMessage(t, locale, `errors.${error}`)
      : signinMessage(t, locale, `errors.${error.code}`, error.args);
  const fields = Object.fromEntries(
    Object.entries(errors.fields).map(([name, error]) => [
      name,
      typeof error === 'object' && 'rules' in error
        ? joinSentences(
            error.rules.map((rule) => t(`common.signin.passwordRules.${rule}`)),
            locale,
          )
        : message(error),
    ]),
  );
  const form = errors.form ? message(errors.form) : undefined;
  return { fields, ...(form ? { form } : {}) };
}

/** A step's page: its document title and body, for PageRenderer.framed. */
export interface StepPage {
  readonly title: string;
  readonly body: ReactElement;
}

export function stepPage(input: StepPageInput): StepPage {
  const { t, data } = input;
  const view = STEP_VIEWS[input.stepKey];
  if (!view) throw new Error(`no view for step ${input.stepKey}`);
  const notice = data.notice
    ? signinMessage(t, input.frame.locale, `notices.${data.notice.key}`, data.notice.args)
    : undefined;
  const title = t(`common.signin.steps.${input.stepKey}.title`);
  const body = createElement(SigninStep, {
    stepKey: input.stepKey,
    view: { ...view, actions: offeredActions(view, data.factor, input.backTo) },
    t,
    formAction: input.formAction,
    csrfToken: data.csrf,
    values: { email: data.email ?? '', ...input.values },
    errors: translateErrors(input.errors, t, input.frame.locale),
    ...(notice ? { notice } : {}),
    ...(input.options ? { options: input.options } : {}),
    ...(data.totp ? { totp: data.totp } : {}),
    ...(input.displayName ? { displayName: input.displayName } : {}),
    frame: input.frame,
    termsUrl: input.termsUrl,
  });
  return {
    title: `${input.errors ? `${t('common.signin.errorSummary')}: ` : ''}${title}`,
    body,
  };
}
