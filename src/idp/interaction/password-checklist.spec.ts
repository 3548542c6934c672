import { runInNewContext } from 'node:vm';
import { PASSWORD_RULES, checkPassword } from '../accounts/password-policy';
import { PASSWORD_CHECKLIST_RULES } from '../../../views/signin/PasswordChecklist';
import { PASSWORD_RULES_MET } from '../../../views/signin/password-fields-script';

/**
 * The checklist the page ticks as the collector types (views/signin/password-fields-script.ts) says
 * what the server's §5 check will say: the page's script may not import the policy, so this holds
 * the two together, rule by rule, over passwords chosen at each rule's edge.
 */
const rulesMet = runInNewContext(`(${PASSWORD_RULES_MET})`) as (
  password: string,
) => Record<string, boolean>;

describe('the password checklist script', () => {
  it('lists the policy rules in its order, less the upper bound the field keeps', () => {
    expect(PASSWORD_CHECKLIST_RULES).toEqual(PASSWORD_RULES.filter((r) => r !== 'maxLength'));
  });

  it.each([
    '',
    'abc',
    'abcdefg',
    'abcdefgh',
    'ABCDEFGH',
    '12345678',
    '!!!!!!!!',
    'N3w!Collector-pass',
    'Éléphant1!',
    'éléphant１~',
    'パスワード1234Aa!',
    'e\u0301e\u0301e\u0301e\u0301',
    '😀😀😀😀😀😀😀A',
    'a b c D 1 2',
    'Aa1 `{|}~',
    'Aa1\\"\'',
    'Aa1¡¿§',
  ])('agrees with checkPassword on %j', (password) => {
    const missed = checkPassword(password).filter((rule) => rule !== 'maxLength');
    const met = rulesMet(password);
    expect(Object.keys(met)).toEqual([...PASSWORD_CHECKLIST_RULES]);
    expect(PASSWORD_CHECKLIST_RULES.filter((rule) => !met[rule])).toEqual(missed);
  });
});
