import { Brand } from './brand';
import {
  Locale,
  legalAgreementUrl,
  localizeUrl,
  normalizeLocale,
  resolveLocale,
  splitLocalePath,
} from './locale';

describe(resolveLocale.name, () => {
  const table: [string, { l?: unknown; lang?: unknown; brand?: Brand }, Locale][] = [
    ['nothing -> en-US', {}, 'en-US'],
    ['l wins', { l: 'fr-CA', lang: 'ja-JP' }, 'fr-CA'],
    ['lang when l is absent', { lang: 'ja-JP' }, 'ja-JP'],
    ['lang when l is the local flag', { l: 'true', lang: 'en-CA' }, 'en-CA'],
    ['lang when l is not a locale', { l: 'xx-YY', lang: 'fr-CA' }, 'fr-CA'],
    ['case-insensitive', { l: 'FR-ca' }, 'fr-CA'],
    ['underscore form', { lang: 'ja_JP' }, 'ja-JP'],
    ['bare language', { lang: 'fr' }, 'fr-CA'],
    ['bare ja', { lang: 'ja' }, 'ja-JP'],
    ['psajapan brand gives ja-JP', { brand: 'psajapan' }, 'ja-JP'],
    ['explicit locale beats the Japan brand', { lang: 'en-US', brand: 'psajapan' }, 'en-US'],
    ['other brands give the default', { brand: 'pcgs' }, 'en-US'],
    ['unsupported locale falls through', { lang: 'de-DE' }, 'en-US'],
    ['arrays are not locales', { l: ['fr-CA'] }, 'en-US'],
    ['over-long values are not locales', { lang: 'fr-CA'.repeat(10) }, 'en-US'],
  ];
  it.each(table)('%s', (_name, hints, expected) => {
    expect(resolveLocale(hints)).toBe(expected);
  });

  it('normalises only supported locales', () => {
    expect(normalizeLocale('en-ca')).toBe('en-CA');
    expect(normalizeLocale('en-GB')).toBeUndefined();
    expect(normalizeLocale(undefined)).toBeUndefined();
  });
});

describe(localizeUrl.name, () => {
  const table: [string, Locale, { style: 'path' | 'query'; force?: boolean }, string][] = [
    ['/orders', 'en-US', { style: 'path' }, '/orders'],
    ['/orders', 'en-US', { style: 'path', force: true }, '/en-US/orders'],
    ['/orders', 'fr-CA', { style: 'path' }, '/fr-CA/orders'],
    ['/', 'ja-JP', { style: 'path' }, '/ja-JP'],
    ['/orders?x=1#top', 'en-CA', { style: 'path' }, '/en-CA/orders?x=1#top'],
    [
      'https://www.psacard.com/orders',
      'fr-CA',
      { style: 'path' },
      'https://www.psacard.com/fr-CA/orders',
    ],
    [
      'https://www.psacard.com/orders',
      'fr-CA',
      { style: 'query' },
      'https://www.psacard.com/orders?lang=fr-CA',
    ],
    [
      'https://www.psacard.com/orders?x=1',
      'ja-JP',
      { style: 'query' },
      'https://www.psacard.com/orders?x=1&lang=ja-JP',
    ],
    [
      'https://www.psacard.com/orders',
      'en-US',
      { style: 'query' },
      'https://www.psacard.com/orders',
    ],
    [
      'https://www.psacard.com/orders',
      'en-US',
      { style: 'query', force: true },
      'https://www.psacard.com/orders?lang=en-US',
    ],
    ['/faq?lang=en-US', 'fr-CA', { style: 'query' }, '/faq?lang=fr-CA'],
  ];
  it.each(table)('%s in %s (%j) -> %s', (target, locale, options, expected) => {
    expect(localizeUrl(target, locale, options)).toBe(expected);
  });
});

describe(legalAgreementUrl.name, () => {
  const table: [Locale, Brand | undefined, string][] = [
    ['en-US', undefined, 'https://www.collectors.com/legal-agreement'],
    ['en-US', 'psa', 'https://www.collectors.com/legal-agreement?b=psa'],
    ['fr-CA', undefined, 'https://www.collectors.com/fr-CA/legal-agreement'],
    ['ja-JP', 'psajapan', 'https://www.collectors.com/ja-JP/legal-agreement?b=psajapan'],
    ['en-CA', 'pcgs', 'https://www.collectors.com/en-CA/legal-agreement?b=pcgs'],
  ];
  it.each(table)('%s, brand %s -> %s', (locale, brand, expected) => {
    expect(legalAgreementUrl('https://www.collectors.com/', locale, brand)).toBe(expected);
  });
});

describe(splitLocalePath.name, () => {
  const table: [string, { locale: Locale; rest: string } | undefined][] = [
    ['/fr-CA/collection', { locale: 'fr-CA', rest: '/collection' }],
    ['/ja-JP/account/sessions?x=1', { locale: 'ja-JP', rest: '/account/sessions?x=1' }],
    ['/en-US/collection', { locale: 'en-US', rest: '/collection' }],
    ['/fr-ca/collection', { locale: 'fr-CA', rest: '/collection' }],
    ['/fr-CA', { locale: 'fr-CA', rest: '/' }],
    ['/fr-CA?lang=x', { locale: 'fr-CA', rest: '/?lang=x' }],
    ['/collection', undefined],
    ['/fr-CAx/collection', undefined],
    ['/de-DE/collection', undefined],
    ['/fr/collection', undefined],
    ['/', undefined],
    ['', undefined],
  ];
  it.each(table)('%s', (path, expected) => {
    expect(splitLocalePath(path)).toEqual(expected);
  });
});
