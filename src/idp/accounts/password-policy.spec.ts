import {
  MAX_PASSWORD_LENGTH,
  PASSWORD_SPECIAL_CHARACTERS,
  PasswordRule,
  checkPassword,
} from './password-policy';

describe('checkPassword', () => {
  // §5 Password strength, read as a table: password, failed rules (in order), why.
  const table: ReadonlyArray<readonly [string, PasswordRule[], string]> = [
    ['Passw0rd!', [], 'one of each class'],
    ['Abcde1!x', [], 'exactly 8 characters'],
    ['Abcd1!x', ['minLength'], '7 characters'],
    ['', ['minLength', 'lowercase', 'uppercase', 'digit', 'special'], 'empty fails everything'],
    ['PASSW0RD!', ['lowercase'], 'no lowercase letter'],
    ['passw0rd!', ['uppercase'], 'no uppercase letter'],
    ['Password!', ['digit'], 'no digit'],
    ['Passw0rdd', ['special'], 'no special character'],
    ['Pass w0rd', ['special'], 'a space is allowed but is not special'],
    ['Pass\tw0rd\n', ['special'], 'neither are tabs and newlines'],
    ['  Passw0rd!  ', [], 'surrounding spaces are kept and count towards the length'],
    ['passwörd1!', ['uppercase'], 'ö is a lowercase letter, nothing uppercase'],
    ['PASSWÖRD1!', ['lowercase'], 'Ö is an uppercase letter, nothing lowercase'],
    ['Éléphant1!', [], 'accented letters count in both cases'],
    ['Пароль12!', [], 'Cyrillic letters count'],
    ['パスワAb1!', ['minLength'], 'Japanese kana are letters without case; 7 characters'],
    ['パスワードです1!', ['lowercase', 'uppercase'], 'kana alone give no case'],
    ['Passwordd１!', [], 'a full-width digit is a digit'],
    ['Passw0rd€', ['special'], 'the euro sign is not in the listed set'],
    ['Passw0rd😀', ['special'], 'nor is an emoji'],
    ['Aa1!😀😀😀', ['minLength'], 'an emoji is one character, so 7 in all'],
    ['Aa1!😀😀😀😀', [], 'and 8 is enough'],
    ['Aa1!' + 'x'.repeat(MAX_PASSWORD_LENGTH - 4), [], 'exactly the maximum length'],
    ['Aa1!' + 'x'.repeat(MAX_PASSWORD_LENGTH - 3), ['maxLength'], 'one over the maximum'],
    ['a'.repeat(MAX_PASSWORD_LENGTH + 1), ['maxLength', 'uppercase', 'digit', 'special'], 'order'],
  ];

  for (const [password, failed, why] of table) {
    it(`${why}: ${JSON.stringify(password.slice(0, 20))} -> [${failed.join(', ')}]`, () => {
      expect(checkPassword(password)).toEqual(failed);
    });
  }

  it('accepts every character of the documented special set', () => {
    for (const special of PASSWORD_SPECIAL_CHARACTERS) {
      expect(checkPassword(`Passw0rd${special}`)).toEqual([]);
    }
  });

  it('documents the ASCII punctuation as the special set (32 characters, no letters or digits)', () => {
    expect(PASSWORD_SPECIAL_CHARACTERS).toHaveLength(32);
    expect(PASSWORD_SPECIAL_CHARACTERS).toMatch(/^[!-/:-@[-`{-~]+$/);
  });

  it('checks the composed form: a decomposed é is one lowercase character', () => {
    const decomposed = 'E\u0301le\u0301phant1!'.normalize('NFD');
    expect(checkPassword(decomposed)).toEqual([]);
    expect(checkPassword('Ab1!e\u0301e\u0301e\u0301')).toEqual(['minLength']);
  });
});
