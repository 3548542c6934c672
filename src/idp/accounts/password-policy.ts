/**
 * §5 Password strength: at least 8 characters, one lowercase letter, one uppercase letter, one digit
 * and one special character from a listed set. The specification does not show the set; we use the
 * ASCII punctuation characters (OWASP's list of password special characters, without the space).
 */
export const PASSWORD_SPECIAL_CHARACTERS = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

/** §5 minimum length. */
export const MIN_PASSWORD_LENGTH = 8;

/**
 * Not in the specification: an upper bound so nobody can make us hash megabytes per request (a cheap
 * denial of service against the key derivation). 128 is far beyond any memorable passphrase.
 */
export const MAX_PASSWORD_LENGTH = 128;

/** The rules in the order they are reported, so the screen can list them in a stable order. */
export const PASSWORD_RULES = [
  'minLength',
  'maxLength',
  'lowercase',
  'uppercase',
  'digit',
  'special',
] as const;
export type PasswordRule = (typeof PASSWORD_RULES)[number];

/**
 * Letters and digits count in any script (Unicode categories Ll, Lu and Nd): 'é' is a lowercase
 * letter, 'É' an uppercase one and a full-width '１' typed with a Japanese keyboard is a digit. This
 * keeps the rule fair to fr-CA and ja-JP collectors; the special set stays ASCII because it is a
 * listed set. Whitespace is allowed anywhere and counts towards the length, but is not special.
 */
const CHARACTER_CLASSES: ReadonlyArray<readonly [PasswordRule, (character: string) => boolean]> = [
  ['lowercase', (c) => /\p{Ll}/u.test(c)],
  ['uppercase', (c) => /\p{Lu}/u.test(c)],
  ['digit', (c) => /\p{Nd}/u.test(c)],
  ['special', (c) => PASSWORD_SPECIAL_CHARACTERS.includes(c)],
];

/**
 * The form of a password that is checked and hashed: Unicode NFKC, so that the same password typed as
 * composed or decomposed 'é' (or full-width on a Japanese keyboard) is one password (NIST SP 800-63B
 * §5.1.1.2 recommends NFKC or NFKD normalisation before hashing).
 */
export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

/**
 * §5 Password strength. Returns every rule the password fails, in PASSWORD_RULES order; an empty list
 * means it is acceptable. Length is counted in code points of the normalised form, so an emoji is one
 * character, as the collector sees it.
 */
export function checkPassword(password: string): PasswordRule[] {
  const characters = Array.from(normalizePassword(password));
  const failed: PasswordRule[] = [];
  if (characters.length < MIN_PASSWORD_LENGTH) failed.push('minLength');
  if (characters.length > MAX_PASSWORD_LENGTH) failed.push('maxLength');
  for (const [rule, matches] of CHARACTER_CLASSES) {
    if (!characters.some(matches)) failed.push(rule);
  }
  return failed;
}
