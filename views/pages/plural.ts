import type { Locale } from '../../src/shared/locale';
import type { Translate } from '../../src/shared/translate';

const rules = new Map<Locale, Intl.PluralRules>();

/**
 * A counted message in the locale's plural form (issue 33: "1 devices"): the key holds one message
 * per CLDR plural category the locale uses (`one`, `other`, ...), and Intl.PluralRules picks it, so
 * fr-CA says 0 and 1 in the singular and ja-JP, which has no plural, always reads `other`. A category
 * a locale file does not give falls back to `other`. Both sides of hydration pick the same form.
 */
export function countText(
  t: Translate,
  locale: Locale,
  key: string,
  count: number,
  args: Readonly<Record<string, string | number>> = {},
): string {
  let pluralRules = rules.get(locale);
  if (!pluralRules) {
    pluralRules = new Intl.PluralRules(locale);
    rules.set(locale, pluralRules);
  }
  const values = { ...args, count: count.toLocaleString(locale) };
  const formKey = `${key}.${pluralRules.select(count)}`;
  const text = t(formKey, values);
  return text !== formKey ? text : t(`${key}.other`, values);
}
