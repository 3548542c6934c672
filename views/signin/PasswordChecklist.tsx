import type { Translate } from '../../src/shared/translate';

/**
 * The rules a new password is shown against, in the order the server reports them (§5, the
 * PASSWORD_RULES of src/idp/accounts/password-policy.ts, which the browser code may not import;
 * password-checklist.spec.ts holds the two together). The upper bound is left out: the field's
 * maxlength keeps a typed password within it.
 */
export const PASSWORD_CHECKLIST_RULES = [
  'minLength',
  'lowercase',
  'uppercase',
  'digit',
  'special',
] as const;

interface PasswordChecklistProps {
  readonly t: Translate;
  readonly id: string;
  readonly rules: readonly string[];
  /** The rules the last post missed; without it, nothing is known yet and none is marked. */
  readonly unmet: readonly string[] | undefined;
}

/**
 * The password rules, said once, under the new password: a plain list without JavaScript (and the
 * server still checks them), each rule marked met or not after a refused post, and ticked as the
 * collector types by the page's script (password-fields-script.ts). Each mark is also a word for
 * screen readers, not a colour alone, and the changes are announced in the polite live region.
 */
export function PasswordChecklist({ t, id, rules, unmet }: PasswordChecklistProps) {
  const text = (part: string) => t(`common.signin.fieldHelp.${part}`);
  return (
    <div className="password-rules" id={id} data-password-rules="">
      <p className="password-rules__title">{text('rulesTitle')}</p>
      <ul>
        {rules.map((rule) => {
          const met = unmet === undefined ? undefined : !unmet.includes(rule);
          return (
            <li
              key={rule}
              className="password-rule"
              data-rule={rule}
              {...(met === undefined ? {} : { 'data-met': String(met) })}
            >
              {text(`rules.${rule}`)}
              <span
                className="visually-hidden password-rule__state"
                data-met-text={text('ruleMet')}
                data-unmet-text={text('ruleUnmet')}
              >
                {met === undefined ? '' : text(met ? 'ruleMet' : 'ruleUnmet')}
              </span>
            </li>
          );
        })}
      </ul>
      <p className="visually-hidden" aria-live="polite" data-password-rules-status="" />
    </div>
  );
}
