import type { SessionTokens } from './sessions';
import { OwedLogout, owedLogouts } from './owed-logouts';

const tokens = (extra: Partial<SessionTokens> = {}): SessionTokens => ({
  accessToken: 'at',
  expiresAt: 0,
  ...extra,
});
const grant = (brand: 'psamobile' | 'pcgs' | 'psa') => ({ brand, refreshToken: `rt-${brand}` });

// docs/brand-contract.md §7: a logout token goes only where the ending session sent something.
describe('owedLogouts: the brands a session ending tells, and the sid each knows', () => {
  const table: [string, Parameters<typeof owedLogouts>[0], OwedLogout[]][] = [
    ['the collector’s own session, nothing handed', { brand: 'collectors', tokens: tokens() }, []],
    [
      'a web brand’s si: that brand, with its si as sid',
      { brand: 'pcgs', tokens: tokens({ handedAs: 'si-1', handedOver: [grant('pcgs')] }) },
      [{ brand: 'pcgs', sid: 'si-1' }],
    ],
    [
      'an app’s grant recorded in the browser’s session: the app, by sub alone',
      { brand: 'collectors', tokens: tokens({ handedOver: [grant('psamobile')] }) },
      [{ brand: 'psamobile' }],
    ],
    [
      'a web brand’s si that also recorded an app’s grant: both, once each',
      {
        brand: 'psa',
        tokens: tokens({
          handedAs: 'si-2',
          handedOver: [grant('psa'), grant('psamobile'), grant('psamobile')],
        }),
      },
      [{ brand: 'psa', sid: 'si-2' }, { brand: 'psamobile' }],
    ],
    [
      'a session of a non-redirect brand, even if it names an si: nobody',
      { brand: 'goldin', tokens: tokens({ handedAs: 'si-3' }) },
      [],
    ],
    [
      'a bare refresh token from before brands had clients of their own names no brand: nobody',
      { brand: 'collectors', tokens: tokens({ handedOver: ['legacy-rt'] }) },
      [],
    ],
  ];
  it.each(table)('%s', (_name, record, owed) => {
    expect(owedLogouts(record)).toEqual(owed);
  });
});
