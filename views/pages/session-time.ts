import type { Locale } from '../../src/shared/locale';

/**
 * A session's time as /account/sessions shows it (issue 33): short enough for one line on a phone
 * (month, day and time; the year only when it is not this year's), in the locale's own order and
 * clock. With a time zone named (the server, which does not know the collector's, uses UTC) the zone
 * is said; in the browser's own zone it is not, as a collector reads their own clock.
 */
export function sessionTimeText(
  iso: string,
  locale: Locale,
  options: { readonly timeZone?: string; readonly sayZone?: boolean; readonly now?: Date } = {},
): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const year = (d: Date) =>
    new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    }).format(d);
  const thisYear = year(date) === year(options.now ?? new Date());
  return new Intl.DateTimeFormat(locale, {
    ...(thisYear ? {} : { year: 'numeric' }),
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    ...(options.sayZone ? { timeZoneName: 'short' } : {}),
  }).format(date);
}
