import { testConfig } from '../../test/support/test-config';
import { continueLinks } from './landing';

describe(continueLinks.name, () => {
  const prod = testConfig({ APP_ENV: 'prod' });

  it('en-US: grading, coins, the dealer portal and power packs, through /signin, no lang', () => {
    expect(continueLinks(prod.brands, 'en-US')).toEqual([
      {
        brand: 'psa',
        name: 'PSA',
        href: '/signin?b=psa&r=https%3A%2F%2Fwww.psacard.com%2F',
      },
      { brand: 'pcgs', name: 'PCGS', href: '/signin?b=pcgs&r=https%3A%2F%2Fwww.pcgs.com' },
      {
        brand: 'enterprise',
        name: 'Collectors Dealer Portal',
        href: '/signin?b=enterprise&r=https%3A%2F%2Fdealers.collectors.com',
      },
      {
        brand: 'powerpacks',
        name: 'Powerpacks',
        href: '/signin?b=powerpacks&r=https%3A%2F%2Fwww.powerpacks.com',
      },
    ]);
  });

  it('fr-CA: the grading site in French by its path, every sign-in in French', () => {
    const [psa, pcgs] = continueLinks(prod.brands, 'fr-CA');
    expect(psa?.href).toBe('/signin?b=psa&r=https%3A%2F%2Fwww.psacard.com%2Ffr-CA&lang=fr-CA');
    expect(pcgs?.href).toBe('/signin?b=pcgs&r=https%3A%2F%2Fwww.pcgs.com&lang=fr-CA');
  });

  it('ja-JP: the Japanese grading site instead of the American one', () => {
    const links = continueLinks(prod.brands, 'ja-JP');
    expect(links.map((l) => l.brand)).toEqual(['psajapan', 'pcgs', 'enterprise', 'powerpacks']);
    expect(links[0]?.href).toBe('/signin?b=psajapan&r=https%3A%2F%2Fwww.psacard.co.jp&lang=ja-JP');
  });
});
