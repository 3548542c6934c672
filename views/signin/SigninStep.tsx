import type { Translate } from '../../src/shared/translate';
import { JourneyFrame } from '../JourneyFrame';
import type { PageFrameData } from '../shell/shell-data';
import type { ActionView, FieldView, StepView } from './step-views';

export interface SigninStepProps {
  readonly stepKey: string;
  readonly view: StepView;
  readonly t: Translate;
  /** Where the form posts (the interaction URL). */
  readonly formAction: string;
  readonly csrfToken: string;
  readonly values: Readonly<Record<string, string>>;
  /** Already translated messages: one for the form, one per field name. */
  readonly errors: { readonly form?: string; readonly fields: Readonly<Record<string, string>> };
  readonly notice?: string;
  /** Options offered by radio fields when the flow narrows them (e.g. the account's factors). */
  readonly options?: Readonly<Record<string, readonly string[]>>;
  readonly totp?: { readonly qrSvg: string; readonly secret: string };
  /** The brand the authorization request named, the locale and the footer links (JourneyFrame). */
  readonly frame: PageFrameData;
  readonly termsUrl: string;
  /** For the welcome and success blocks. */
  readonly displayName?: string;
}

const stepText = (t: Translate, stepKey: string, part: string, args?: Record<string, string>) =>
  t(`common.signin.steps.${stepKey}.${part}`, args);

/**
 * One sign-in step: heading, error summary, the step's fields and actions. Works without JavaScript;
 * every field has a label, errors are announced (role="alert") and tied to their field
 * (aria-describedby, aria-invalid), and autocomplete tokens let password managers and one-time-code
 * autofill help.
 */
export function SigninStep(props: SigninStepProps) {
  const { stepKey, view, t, errors } = props;
  const fieldErrors = Object.entries(errors.fields).filter(([, message]) => message);
  // The summary says each thing once: a form message that a field already says is left to the
  // field's entry, which also leads to the field.
  const formError =
    errors.form && !fieldErrors.some(([, message]) => message === errors.form)
      ? errors.form
      : undefined;
  const hasErrors = Boolean(formError) || fieldErrors.length > 0;
  const firstInvalid = fieldErrors[0]?.[0];
  return (
    <JourneyFrame frame={props.frame} t={t}>
      <h1>{stepText(t, stepKey, 'title')}</h1>
      <p className="intro">
        {stepText(t, stepKey, 'intro', props.displayName ? { name: props.displayName } : undefined)}
      </p>
      {view.showsEmail && props.values.email ? (
        <p className="signin-account">
          <span className="signin-account__label">{t('common.signin.signingInAs')}</span>{' '}
          <span className="signin-account__email">{props.values.email}</span>
        </p>
      ) : null}
      {props.notice ? (
        <p className="notice" role="status">
          {props.notice}
        </p>
      ) : null}
      {hasErrors ? (
        <div
          className="error-summary"
          role="alert"
          aria-labelledby="error-summary-title"
          tabIndex={-1}
        >
          <h2 id="error-summary-title">{t('common.signin.errorSummary')}</h2>
          <ul>
            {formError ? <li>{formError}</li> : null}
            {fieldErrors.map(([name, message]) => (
              <li key={name}>
                <a href={`#field-${name}`}>{message}</a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {view.content === 'totp-qr' && props.totp ? <TotpBlock t={t} totp={props.totp} /> : null}
      {/* The product's own messages for empty fields, in the page's language, not the browser's
          bubbles (required-fields-script.ts); the server checks the post all the same. */}
      <form method="post" action={props.formAction} noValidate data-required-fields="">
        <input type="hidden" name="csrf" value={props.csrfToken} />
        {hasPasswordField(view) && props.values.email ? (
          <AccountName email={props.values.email} />
        ) : null}
        {view.fields.map((field) => (
          <Field
            key={field.name}
            field={field}
            t={t}
            value={props.values[field.name] ?? ''}
            error={errors.fields[field.name]}
            autoFocus={firstInvalid ? firstInvalid === field.name : field === view.fields[0]}
            options={props.options?.[field.name] ?? field.options ?? []}
            termsUrl={props.termsUrl}
          />
        ))}
        <div className="actions">
          {view.actions.map((action) => (
            <Action key={action.action} action={action} t={t} />
          ))}
        </div>
      </form>
    </JourneyFrame>
  );
}

const hasPasswordField = (view: StepView) =>
  view.fields.some((field) => field.type === 'password' || field.type === 'new-password');

/**
 * The account a password belongs to, for password managers: the email was asked on an earlier
 * step, so without it here they would save or fill a password with no username. Chromium's
 * "email first" guidance: a username field in the password form, hidden by CSS (`hidden` is
 * display: none), so it is neither focused nor announced. The server reads the email from the
 * flow, never from this field.
 */
function AccountName({ email }: { email: string }) {
  return (
    <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
  );
}

function TotpBlock({ t, totp }: { t: Translate; totp: { qrSvg: string; secret: string } }) {
  return (
    <figure className="totp">
      {/* The SVG comes from the qrcode library for a secret we generated, never from input. */}
      <div
        className="qr"
        role="img"
        aria-label={t('common.signin.totp.qrLabel')}
        dangerouslySetInnerHTML={{ __html: totp.qrSvg }}
      />
      <figcaption>
        {t('common.signin.totp.manualEntry')} <code className="secret">{totp.secret}</code>
      </figcaption>
    </figure>
  );
}

interface FieldProps {
  field: FieldView;
  t: Translate;
  value: string;
  error: string | undefined;
  autoFocus: boolean;
  options: readonly string[];
  termsUrl: string;
}

function Field({ field, t, value, error, autoFocus, options, termsUrl }: FieldProps) {
  const id = `field-${field.name}`;
  const hintKey = `common.signin.fields.${field.name}.hint`;
  const hint = t(hintKey);
  const hasHint = hint !== hintKey;
  const describedBy =
    [hasHint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') ||
    undefined;
  const label = t(`common.signin.fields.${field.name}.label`);
  // What the server says when the field comes empty, said before the post by the page's script.
  const requiredMessage = field.required
    ? t(`common.signin.errors.${field.type === 'checkbox' ? 'termsRequired' : 'required'}`)
    : undefined;
  const errorNode = error ? (
    <p id={`${id}-error`} className="field-error">
      {error}
    </p>
  ) : null;
  const hintNode = hasHint ? (
    <p id={`${id}-hint`} className="hint">
      {hint}
    </p>
  ) : null;

  if (field.type === 'radio') {
    return (
      <fieldset
        className={error ? 'field invalid' : 'field'}
        id={id}
        aria-describedby={describedBy}
        data-required={requiredMessage}
      >
        <legend>{label}</legend>
        {hintNode}
        {errorNode}
        {/* No option takes the focus on load: its focus ring would read as a choice made. */}
        {options.map((option) => (
          <label key={option} className="radio">
            <input
              type="radio"
              name={field.name}
              value={option}
              required={field.required}
              defaultChecked={value === option}
            />
            {t(`common.signin.options.${field.name}.${option}`)}
          </label>
        ))}
      </fieldset>
    );
  }
  if (field.type === 'checkbox') {
    return (
      <div
        className={error ? 'field checkbox invalid' : 'field checkbox'}
        data-required={requiredMessage}
      >
        <input
          id={id}
          type="checkbox"
          name={field.name}
          value="true"
          required={field.required}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
        <label htmlFor={id}>
          {label}{' '}
          <a href={termsUrl} target="_blank" rel="noopener noreferrer">
            {t('common.signin.fields.acceptTerms.link')}
          </a>
        </label>
        {hintNode}
        {errorNode}
      </div>
    );
  }
  const inputType =
    field.type === 'new-password' ? 'password' : field.type === 'code' ? 'text' : field.type;
  return (
    <div className={error ? 'field invalid' : 'field'} data-required={requiredMessage}>
      <label htmlFor={id}>{label}</label>
      {hintNode}
      {errorNode}
      <input
        id={id}
        name={field.name}
        type={inputType}
        defaultValue={
          field.type === 'password' || field.type === 'new-password' || field.type === 'code'
            ? undefined
            : value
        }
        autoComplete={field.autocomplete}
        required={field.required}
        maxLength={field.maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        autoFocus={autoFocus}
        // Numeric keys on a phone; no pattern, since spaces and dashes are welcome in a code.
        {...(field.type === 'code' ? { inputMode: 'numeric' as const } : {})}
      />
    </div>
  );
}

function Action({ action, t }: { action: ActionView; t: Translate }) {
  return (
    <button
      type="submit"
      name="action"
      value={action.action}
      className={`button ${action.kind}`}
      formNoValidate={action.formNoValidate}
    >
      {t(`common.signin.buttons.${action.label}`)}
    </button>
  );
}
