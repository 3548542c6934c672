/** The environment variable that carries the §3 enabled-features data. */
export const ENABLED_FEATURES_KEY = 'ENABLED_FEATURES';

/** More names than any header or page switches on: a longer list is a mistake, not data. */
export const MAX_FEATURES = 64;

/** A feature name as the shell pages compare it (e.g. gettingStarted). */
const FEATURE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** What a malformed value becomes, and why (the warning names the variable and this problem). */
export type EnabledFeatures =
  | { readonly ok: true; readonly features: readonly string[] }
  | { readonly ok: false; readonly features: readonly []; readonly problem: string };

const malformed = (problem: string): EnabledFeatures => ({ ok: false, features: [], problem });

/** A value quoted for a warning: short, and on one line. */
const quote = (value: unknown): string => JSON.stringify(value).slice(0, 40);

function checkNames(names: readonly unknown[]): EnabledFeatures {
  if (names.length > MAX_FEATURES) return malformed(`more than ${MAX_FEATURES} names`);
  for (const [index, name] of names.entries()) {
    if (typeof name !== 'string') return malformed(`entry ${index} is not a string`);
    if (!FEATURE_NAME.test(name)) {
      return malformed(
        `entry ${index} (${quote(name)}) is not a feature name (letters, digits, - and _)`,
      );
    }
  }
  return { ok: true, features: names as string[] };
}

/**
 * §5 "Enabled-features data must be a list of strings, else it is treated as empty": the list, or
 * the empty list and the problem, never a start-up failure. Two spellings of the list: names
 * separated by commas (`gettingStarted,vault`) or a JSON array of strings (`["gettingStarted"]`).
 * A value that opens with `[` or `{` is read as JSON; no comma-separated list could, because a
 * feature name starts with a letter, so no valid value changes meaning.
 */
export function parseEnabledFeatures(raw: string | undefined): EnabledFeatures {
  const value = raw?.trim() ?? '';
  if (value === '') return { ok: true, features: [] };
  if (!value.startsWith('[') && !value.startsWith('{')) {
    const names = value
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    return checkNames(names);
  }
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return malformed('not valid JSON');
  }
  if (!Array.isArray(json)) return malformed('not a list of strings (a JSON array)');
  return checkNames(json);
}
