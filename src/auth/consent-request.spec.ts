import { ConsentRefusal, ConsentRequest, consentRefusal } from './consent-request';

const ALLOWED = new Set([
  'https://www.psacard.com',
  'https://signin.collectors.com',
  'https://login.collectors.com',
]);

describe(consentRefusal.name, () => {
  const table: [string, ConsentRequest, ConsentRefusal | undefined][] = [
    [
      'a navigation from a brand',
      {
        secFetchMode: 'navigate',
        secFetchDest: 'document',
        secFetchSite: 'cross-site',
        referer: 'https://www.psacard.com/terms',
      },
      undefined,
    ],
    [
      'a navigation from the IdP',
      {
        secFetchMode: 'navigate',
        secFetchSite: 'same-site',
        referer: 'https://login.collectors.com/x',
      },
      undefined,
    ],
    [
      'a same-origin navigation',
      { secFetchMode: 'navigate', secFetchSite: 'same-origin' },
      undefined,
    ],
    ['typed or bookmarked', { secFetchMode: 'navigate', secFetchSite: 'none' }, undefined],
    [
      'an old browser from a brand (Referer only)',
      { referer: 'https://www.psacard.com/' },
      undefined,
    ],
    [
      'a navigation from another site',
      { secFetchMode: 'navigate', secFetchSite: 'cross-site', referer: 'https://evil.example/' },
      'unknown-origin',
    ],
    [
      'a navigation with the Referer stripped',
      { secFetchMode: 'navigate', secFetchDest: 'document', secFetchSite: 'cross-site' },
      'unknown-origin',
    ],
    [
      'an image tag on another site',
      { secFetchMode: 'no-cors', secFetchDest: 'image', secFetchSite: 'cross-site' },
      'not-a-navigation',
    ],
    [
      'a fetch',
      { secFetchMode: 'cors', secFetchSite: 'cross-site', referer: 'https://www.psacard.com/' },
      'not-a-navigation',
    ],
    [
      'a frame',
      { secFetchMode: 'navigate', secFetchDest: 'iframe', secFetchSite: 'same-origin' },
      'not-a-navigation',
    ],
    ['a look-alike origin', { referer: 'https://www.psacard.com.evil.example/' }, 'unknown-origin'],
    ['a malformed Referer', { referer: 'not a url' }, 'unknown-origin'],
    ['no evidence at all', {}, 'unknown-origin'],
  ];
  it.each(table)('%s', (_name, request, expected) => {
    expect(consentRefusal(request, ALLOWED)).toBe(expected);
  });
});
