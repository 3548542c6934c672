import {
  ConfirmationPost,
  SignoutDoubt,
  SignoutNavigation,
  confirmationRefusal,
  signoutDoubt,
} from './signout-request';

/** The brand origins of a redirect policy, this service's among them. */
const BRANDS = new Set([
  'https://www.psacard.com',
  'https://www.pcgs.com',
  'https://signin.collectors.com',
]);

const NAVIGATE = { secFetchMode: 'navigate', secFetchDest: 'document' } as const;

describe(signoutDoubt.name, () => {
  const table: [string, SignoutNavigation, SignoutDoubt | undefined][] = [
    // At once: this service's own pages, and a brand's sign-out link.
    ['a sign-out link of this service', { ...NAVIGATE, secFetchSite: 'same-origin' }, undefined],
    ['the sessions page sending the browser on', { secFetchSite: 'same-origin' }, undefined],
    [
      'the brand’s sign-out link (its origin as the Referer)',
      { ...NAVIGATE, secFetchSite: 'cross-site', referer: 'https://www.psacard.com/' },
      undefined,
    ],
    [
      'a brand page that sends its whole URL as the Referer',
      { ...NAVIGATE, secFetchSite: 'cross-site', referer: 'https://www.pcgs.com/account?x=1' },
      undefined,
    ],
    [
      'a brand on a sibling subdomain (same-site)',
      { ...NAVIGATE, secFetchSite: 'same-site', referer: 'https://signin.collectors.com/x' },
      undefined,
    ],
    [
      'an old browser from a brand (Referer only)',
      { referer: 'https://www.psacard.com/' },
      undefined,
    ],
    // Asks first.
    [
      'a link on another site',
      { ...NAVIGATE, secFetchSite: 'cross-site', referer: 'https://evil.example/' },
      'foreign-referrer',
    ],
    [
      'a sibling subdomain that is no brand',
      { ...NAVIGATE, secFetchSite: 'same-site', referer: 'https://evil.collectors.com/' },
      'foreign-referrer',
    ],
    [
      'another site with its Referer stripped (no-referrer)',
      { ...NAVIGATE, secFetchSite: 'cross-site' },
      'no-referrer',
    ],
    [
      'a link opened outside the browser (an email, an app)',
      { ...NAVIGATE, secFetchSite: 'none' },
      'no-referrer',
    ],
    ['a request that says nothing at all', {}, 'no-referrer'],
    [
      'an image on a brand’s page',
      {
        secFetchMode: 'no-cors',
        secFetchDest: 'image',
        secFetchSite: 'cross-site',
        referer: 'https://www.psacard.com/forum',
      },
      'not-a-navigation',
    ],
    [
      'a frame on a brand’s page',
      {
        secFetchMode: 'navigate',
        secFetchDest: 'iframe',
        secFetchSite: 'cross-site',
        referer: 'https://www.psacard.com/',
      },
      'not-a-navigation',
    ],
    [
      'a fetch from another site',
      { secFetchMode: 'cors', secFetchSite: 'cross-site', referer: 'https://evil.example/' },
      'not-a-navigation',
    ],
    [
      'a look-alike origin',
      { ...NAVIGATE, secFetchSite: 'cross-site', referer: 'https://www.psacard.com.evil.example/' },
      'foreign-referrer',
    ],
    [
      'http for an https brand',
      { ...NAVIGATE, secFetchSite: 'cross-site', referer: 'http://www.psacard.com/' },
      'foreign-referrer',
    ],
    [
      'a Referer that is no URL',
      { ...NAVIGATE, secFetchSite: 'cross-site', referer: 'psacard' },
      'no-referrer',
    ],
    [
      'an opaque Referer',
      { ...NAVIGATE, secFetchSite: 'cross-site', referer: 'data:text/html,x' },
      'no-referrer',
    ],
  ];
  it.each(table)('%s', (_name, request, expected) => {
    expect(signoutDoubt(request, BRANDS)).toBe(expected);
  });
});

describe(confirmationRefusal.name, () => {
  const OWN = 'https://signin.collectors.com';
  const table: [string, ConfirmationPost, 'cross-site' | undefined][] = [
    ['the page’s own form', { secFetchSite: 'same-origin', origin: OWN }, undefined],
    ['a browser without Fetch Metadata', { origin: OWN }, undefined],
    ['a browser that sends neither', {}, undefined],
    [
      'a form on another site',
      { secFetchSite: 'cross-site', origin: 'https://evil.example' },
      'cross-site',
    ],
    [
      'a sibling subdomain',
      { secFetchSite: 'same-site', origin: 'https://x.collectors.com' },
      'cross-site',
    ],
    [
      'a brand’s form',
      { secFetchSite: 'cross-site', origin: 'https://www.psacard.com' },
      'cross-site',
    ],
    ['an opaque origin (a sandboxed frame)', { origin: 'null' }, 'cross-site'],
    ['another origin, no Fetch Metadata', { origin: 'https://evil.example' }, 'cross-site'],
    ['a post from nowhere', { secFetchSite: 'none', origin: OWN }, 'cross-site'],
  ];
  it.each(table)('%s', (_name, post, expected) => {
    expect(confirmationRefusal(post, OWN)).toBe(expected);
  });
});
