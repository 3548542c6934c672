import { createAnalytics, invalidEvent } from './analytics';

describe('analytics events (§3)', () => {
  it.each([
    [{ action: 'Logout', category: 'Auth' }, undefined],
    [{ action: 'Logout', category: 'Auth', label: 'psa', value: 1, user: 12345 }, undefined],
    [{ action: '', category: 'Auth' }, 'action must be 1-100 characters'],
    [{ action: 'a'.repeat(101), category: 'Auth' }, 'action must be 1-100 characters'],
    [{ action: 'Logout', category: '' }, 'category must be 1-100 characters'],
    [
      { action: 'Logout', category: 'Auth', label: 'x'.repeat(101) },
      'label must be at most 100 characters',
    ],
    [{ action: 'Logout', category: 'Auth', value: Number.NaN }, 'value must be a number'],
    [
      { action: 'Logout', category: 'Auth', user: 'someone@example.com' },
      'user must be a public collector id',
    ],
  ])('%j: %s', (event, problem) => {
    expect(invalidEvent(event)).toBe(problem);
  });

  it('records only with consent, and only valid events', () => {
    const layer: unknown[] = [];
    let consented = false;
    const analytics = createAnalytics({ consented: () => consented, dataLayer: () => layer });
    expect(analytics.track({ action: 'Logout', category: 'Auth' })).toBe(false);
    consented = true;
    expect(analytics.track({ action: '', category: 'Auth' })).toBe(false);
    expect(analytics.track({ action: 'Logout', category: 'Auth', user: 7 })).toBe(true);
    expect(layer).toEqual([
      { event: 'collectors_event', action: 'Logout', category: 'Auth', user: 7 },
    ]);
  });
});
