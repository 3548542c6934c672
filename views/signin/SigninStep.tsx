import type { Translate } from '../../src/shared/translate';
import { JourneyFrame } from '../JourneyFrame';
import type { PageFrameData } from '../shell/shell-data';
import { PASSWORD_CHECKLIST_RULES, PasswordChecklist } from './PasswordChecklist';
import { fieldsInOrder, type ActionView, type FieldView, type StepView } from './step-views';

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
  /** The intro, when the step's own does not fit the factor in use (an authenticator app). */
  readonly intro?: string;
  /** Where the sign-in leads ("to continue to PSA"), when the request named a brand. */
  readonly destination?: string;
  /**
   * The password rules the last post's new password missed, as the server checked them: the
   * checklist marks each rule met or not. Without it the rules are a plain list.
   */
  readonly unmetPasswordRules?: readonly string[];
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
  const fields = fieldsInOrder(view.fields, props.frame.locale);
  // In the order the fields are asked for, so the summary and the focus follow the form.
  const fieldErrors = Object.entries(errors.fields)
    .filter(([, message]) => message)
    .sort(([a], [b]) => fieldRank(fields, a) - fieldRank(fields, b));
  // The summary says each thing once: a form message that a field already says is left to the
  // field's entry, which also leads to the field.
  const formError =
    errors.form && !fieldErrors.some(([, message]) => message === errors.form)
      ? errors.form
      : undefined;
  // A form of one field says its error next to that field only: a summary above would say it twice.
  // Where there are several fields, the summary lists each one's error and leads to it.
  const summarised = fields.length > 1 ? fieldErrors : [];
  const hasErrors = Boolean(formError) || summarised.length > 0;
  const firstInvalid = fieldErrors[0]?.[0];
  const nameArgs = props.displayName ? { name: props.displayName } : undefined;
  return (
    <JourneyFrame frame={props.frame} t={t}>
      <h1>{stepText(t, stepKey, 'title')}</h1>
      {props.destination ? <p className="signin-destination">{props.destination}</p> : null}
      <p className="intro">{props.intro ?? stepText(t, stepKey, 'intro', nameArgs)}</p>
      {view.showsEmail && props.values.email ? (
        <p className="signin-account">
          <span className="signin-account__label">{t('common.signin.signingInAs')}</span>{' '}
          <span className="signin-account__email">{props.values.email}</span>
        </p>
      ) : null}
      {view.namesNewEmail && props.values.email ? (
        <NewEmail t={t} email={props.values.email} />
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
            {summarised.map(([name, message]) => (
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
        {fields.map((field) => (
          <Field
            key={field.name}
            field={field}
            t={t}
            value={props.values[field.name] ?? ''}
            error={errors.fields[field.name]}
            autoFocus={firstInvalid ? firstInvalid === field.name : field === fields[0]}
            options={props.options?.[field.name] ?? field.options ?? []}
            termsUrl={props.termsUrl}
            unmetRules={props.unmetPasswordRules}
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

const fieldRank = (fields: readonly FieldView[], name: string) => {
  const rank = fields.findIndex((field) => field.name === name);
  return rank < 0 ? fields.length : rank;
};

/**
 * The address being registered, whole, and that no account uses it: a mistyped address is seen
 * here, with "Use a different email" below to change it, rather than becoming a second account.
 * The address is set apart inside the locale's own sentence, wherever its language puts it.
 */
function NewEmail({ t, email }: { t: Translate; email: string }) {
  const marker = '\u0000';
  const [before = '', after = ''] = t('common.signin.fieldHelp.newEmail', { email: marker }).split(
    marker,
  );
  return (
    <p className="signin-new-email">
      {before}
      <strong className="signin-new-email__address">{email}</strong>
      {after}
    </p>
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
        {t('common.signin.totp.manualEntry')}{' '}
        {/* In groups of four, as authenticator apps show keys; the gaps are margins, so what is
            selected and copied is the key itself, the one the QR code's otpauth URI carries. */}
        <code className="secret">
          {keyGroups(totp.secret).map((group, i) => (
            <span key={i} className="secret__group">
              {group}
            </span>
          ))}
        </code>
      </figcaption>
    </figure>
  );
}

const keyGroups = (key: string): string[] => key.match(/.{1,4}/g) ?? [];

interface FieldProps {
  field: FieldView;
  t: Translate;
  value: string;
  error: string | undefined;
  autoFocus: boolean;
  options: readonly string[];
  termsUrl: string;
  unmetRules: readonly string[] | undefined;
}

function Field(props: FieldProps) {
  const { field, t, value, error, autoFocus, options, termsUrl } = props;
  const id = `field-${field.name}`;
  const hintKey = `common.signin.fields.${field.name}.hint`;
  const hint = t(hintKey);
  const hasHint = hint !== hintKey;
  const isNewPassword = field.type === 'new-password';
  const describedBy =
    [hasHint ? `${id}-hint` : '', isNewPassword ? `${id}-rules` : '', error ? `${id}-error` : '']
      .filter(Boolean)
      .join(' ') || undefined;
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
          // A ticked box comes back ticked after a refused post, as every other value does.
          defaultChecked={value === 'true'}
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
  const isPassword = inputType === 'password';
  const input = (
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
  );
  return (
    <div className={error ? 'field invalid' : 'field'} data-required={requiredMessage}>
      <label htmlFor={id}>{label}</label>
      {hintNode}
      {errorNode}
      {isPassword ? (
        <div className="password-input">
          {input}
          <ShowPassword t={t} controls={id} />
        </div>
      ) : (
        input
      )}
      {isNewPassword ? (
        <PasswordChecklist
          t={t}
          id={`${id}-rules`}
          rules={PASSWORD_CHECKLIST_RULES}
          unmet={props.unmetRules}
        />
      ) : null}
    </div>
  );
}

/**
 * Shows or hides the password typed beside it. Hidden until the page's script makes it work
 * (password-fields-script.ts), so a page without JavaScript shows no button that does nothing. A
 * plain button (type="button": it never submits) whose name says what it will do, in the page's
 * language; the visible word is part of that name (WCAG 2.5.3).
 */
function ShowPassword({ t, controls }: { t: Translate; controls: string }) {
  const text = (part: string) => t(`common.signin.fieldHelp.${part}`);
  return (
    <button
      type="button"
      className="show-password"
      aria-controls={controls}
      aria-label={text('showLabel')}
      data-show={text('show')}
      data-hide={text('hide')}
      data-show-label={text('showLabel')}
      data-hide-label={text('hideLabel')}
      hidden
    >
      {text('show')}
    </button>
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
