import { createElement, type ReactElement } from 'react';
import { SigninStep, SigninStepProps } from '../../../views/signin/SigninStep';
import { STEP_VIEWS } from '../../../views/signin/step-views';
import type { PageFrameData } from '../../../views/shell/shell-data';
import type { Translate } from '../../shared/translate';
import type { FlowData } from './flow-records';
import type { StepErrors } from './step-outcome';

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
}

/** Turns error codes into the collector's language (a password lists each rule it misses, §5). */
export function translateErrors(
  errors: StepErrors | undefined,
  t: Translate,
): SigninStepProps['errors'] {
  if (!errors) return { fields: {} };
  const fields = Object.fromEntries(
    Object.entries(errors.fields).map(([name, error]) => [
      name,
      typeof error === 'string'
        ? t(`common.signin.errors.${error}`)
        : error.rules.map((rule) => t(`common.signin.passwordRules.${rule}`)).join(' '),
    ]),
  );
  const form = errors.form
    ? t(`common.signin.errors.${errors.form.code}`, errors.form.args)
    : undefined;
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
    ? t(`common.signin.notices.${data.notice.key}`, data.notice.args)
    : undefined;
  const title = t(`common.signin.steps.${input.stepKey}.title`);
  const body = createElement(SigninStep, {
    stepKey: input.stepKey,
    view,
    t,
    formAction: input.formAction,
    csrfToken: data.csrf,
    values: { email: data.email ?? '', ...input.values },
    errors: translateErrors(input.errors, t),
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
