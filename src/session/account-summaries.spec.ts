import { accountSummaryFrom } from './account-summaries';

describe(accountSummaryFrom.name, () => {
  const table: [string, Record<string, unknown>[], ReturnType<typeof accountSummaryFrom>][] = [
    [
      'the ID token alone',
      [{ name: 'Casey Collector', email: 'c@example.com', CollectorsId: 100001 }],
      { name: 'Casey Collector', email: 'c@example.com', collectorsId: 100001, factors: [] },
    ],
    [
      'userinfo adds what the ID token lacks, and wins',
      [{ CollectorsId: 7 }, { given_name: 'Pat', family_name: 'Lee', factors: ['sms', 'totp'] }],
      { name: 'Pat Lee', collectorsId: 7, factors: ['totp', 'sms'] },
    ],
    [
      'unknown factor types and bad values are left out',
      [{ factors: ['totp', 'webauthn', 3], email: 42, name: ' ', CollectorsId: 1.5 }],
      { factors: ['totp'] },
    ],
    ['nothing at all', [], { factors: [] }],
    ['an over-long name', [{ name: 'x'.repeat(201) }], { factors: [] }],
  ];
  it.each(table)('%s', (_name, sources, expected) => {
    expect(accountSummaryFrom(...sources)).toEqual(expected);
  });
});
