import { runInNewContext } from 'node:vm';
import { NUDGE_INTERVAL_MS, shouldShowNudge, parseNudgeLastShown } from './nudge-timing';
import { NUDGE_SEEN_CLASS, NUDGE_SEEN_SCRIPT } from './nudge-seen-script';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

/** Runs the script on a stored value (or a storage that throws); says whether it hid the nudge. */
function hides(stored: string | null | Error): boolean {
  const classes = new Set<string>();
  runInNewContext(NUDGE_SEEN_SCRIPT, {
    document: { documentElement: { classList: { add: (name: string) => classes.add(name) } } },
    localStorage: {
      getItem: () => {
        if (stored instanceof Error) throw stored;
        return stored;
      },
    },
    Date: { now: () => NOW },
    Number,
  });
  return classes.has(NUDGE_SEEN_CLASS);
}

describe('NUDGE_SEEN_SCRIPT', () => {
  // Each row: what localStorage holds, and whether the nudge is due (shown) by the §9 rule.
  const table: readonly [string, string | null][] = [
    ['nothing stored', null],
    ['shown a minute ago', String(NOW - 60_000)],
    ['shown 168 h ago less 1 ms', String(NOW - NUDGE_INTERVAL_MS + 1)],
    ['shown exactly 168 h ago', String(NOW - NUDGE_INTERVAL_MS)],
    ['shown 169 h ago', String(NOW - NUDGE_INTERVAL_MS - 3_600_000)],
    ['not a time', 'yesterday'],
    ['an empty string', ''],
    ['too large to be a time', '1e400'],
    ['spaces around a recent time', ` ${NOW - 1000} `],
  ];

  it.each(table)('%s: hides the nudge exactly when the component would', (_case, stored) => {
    expect(hides(stored)).toBe(!shouldShowNudge(parseNudgeLastShown(stored), NOW));
  });

  it('a storage that cannot be read keeps it hidden', () => {
    expect(hides(new Error('SecurityError'))).toBe(true);
  });
});
