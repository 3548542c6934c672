import type { Locale } from './locale';
import type { Translate } from './translate';

/**
 * How long to wait before trying again, as a collector reads it: under a minute in whole seconds
 * ("30 seconds"), from a minute on in whole minutes rounded up ("2 minutes" for 90 s), each in the
 * plural form the language's rules ask for (`common.waitTime.*`, `<key>One` for Intl.PluralRules'
 * "one"). Without a known wait (no Retry-After), "a few minutes".
 */
export function waitPhrase(seconds: number | undefined, locale: Locale, t: Translate): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0)
    return t('common.waitTime.fewMinutes');
  const [unit, count] =
    seconds < 60 ? ['seconds', Math.ceil(seconds)] : ['minutes', Math.ceil(seconds / 60)];
  const one = new Intl.PluralRules(locale).select(count) === 'one';
  return t(`common.waitTime.${unit}${one ? 'One' : ''}`, { count });
}
