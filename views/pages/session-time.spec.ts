import { sessionTimeText } from './session-time';

const NOW = new Date('2026-11-30T12:00:00Z');
const ISO = '2026-11-27T16:51:00Z';

/** Issue 33: a session's time, short enough for one line, in the locale's format and a named zone. */
describe('sessionTimeText', () => {
  it.each([
    // The server's text: it cannot know the collector's zone, so it says UTC.
    ['en-US', { timeZone: 'UTC', sayZone: true }, 'Nov 27, 4:51 PM UTC'],
    ['fr-CA', { timeZone: 'UTC', sayZone: true }, '27 nov., 16 h 51 UTC'],
    ['ja-JP', { timeZone: 'UTC', sayZone: true }, '11月27日 16:51 UTC'],
    // The browser's: the collector's own clock, which needs no zone name.
    ['en-US', { timeZone: 'America/Los_Angeles' }, 'Nov 27, 8:51 AM'],
    ['en-CA', { timeZone: 'America/Toronto' }, 'Nov 27, 11:51 a.m.'],
    ['fr-CA', { timeZone: 'America/Toronto' }, '27 nov., 11 h 51'],
    ['ja-JP', { timeZone: 'Asia/Tokyo' }, '11月28日 1:51'],
  ] as const)('%s %j: %s', (locale, options, expected) => {
    expect(sessionTimeText(ISO, locale, { ...options, now: NOW })).toBe(expected);
  });

  it('names the year only when it is not this year', () => {
    const now = new Date('2027-02-01T00:00:00Z');
    expect(sessionTimeText(ISO, 'en-US', { timeZone: 'UTC', now })).toBe('Nov 27, 2026, 4:51 PM');
    expect(sessionTimeText(ISO, 'ja-JP', { timeZone: 'UTC', now })).toBe('2026年11月27日 16:51');
  });

  it('leaves a value that is not a date as it is', () => {
    expect(sessionTimeText('not a date', 'en-US')).toBe('not a date');
  });
});
