import { isSameOriginPost, isTopLevelNavigation, signsInAtOnce } from './token-param.middleware';

/** Issue 14 item 7: `t` is taken only on a top-level navigation, where the browser says so. */
describe(isTopLevelNavigation.name, () => {
  it.each([
    ['a page visit', { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }, true],
    ['a browser without Fetch Metadata', {}, true],
    ['navigate without a destination', { 'sec-fetch-mode': 'navigate' }, true],
    ['a fetch', { 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }, false],
    ['an image', { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }, false],
    ['a same-origin fetch', { 'sec-fetch-mode': 'same-origin' }, false],
    ['a frame', { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' }, false],
    ['an embed', { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'embed' }, false],
    ['a destination without a mode', { 'sec-fetch-dest': 'script' }, false],
    ['a repeated mode header (Node joins them)', { 'sec-fetch-mode': 'navigate, cors' }, false],
  ])('%s: %s', (_name, headers, expected) => {
    expect(isTopLevelNavigation(headers)).toBe(expected);
  });
});

/**
 * docs/security.md, a sibling host: a `t` signs in at once only from this origin, or from a sibling
 * site that is a brand origin of the redirect policy (its Origin, when the browser sends one, else
 * its Referer).
 */
describe(signsInAtOnce.name, () => {
  const brands = new Set(['https://www.psacard.com', 'https://signon.collectors.com']);
  const sameSite = { 'sec-fetch-site': 'same-site' };
  it.each([
    ['a page of this service', { 'sec-fetch-site': 'same-origin' }, true],
    [
      'a brand on a sibling host (Referer)',
      { ...sameSite, referer: 'https://www.psacard.com/x?y' },
      true,
    ],
    [
      'a brand on a sibling host (Origin)',
      { ...sameSite, origin: 'https://www.psacard.com' },
      true,
    ],
    [
      'a sibling host that is no brand',
      { ...sameSite, referer: 'https://evil.collectors.com/' },
      false,
    ],
    ['a sibling host that hides its Referer', sameSite, false],
    [
      'an opaque Origin',
      { ...sameSite, origin: 'null', referer: 'https://www.psacard.com/' },
      false,
    ],
    [
      'an Origin that is no brand, whatever the Referer',
      { ...sameSite, origin: 'https://evil.collectors.com', referer: 'https://www.psacard.com/' },
      false,
    ],
    [
      'a brand address on another scheme',
      { ...sameSite, referer: 'http://www.psacard.com/' },
      false,
    ],
    ['an unparseable Referer', { ...sameSite, referer: 'not a url' }, false],
    [
      'another site, even a brand',
      { 'sec-fetch-site': 'cross-site', referer: 'https://www.psacard.com/' },
      false,
    ],
    ['a link opened outside the browser', { 'sec-fetch-site': 'none' }, false],
    ['a browser that sends no Fetch Metadata', { referer: 'https://www.psacard.com/' }, false],
  ])('%s: %s', (_name, headers, expected) => {
    expect(signsInAtOnce(headers, brands)).toBe(expected);
  });
});

/**
 * docs/security.md, the offer key: the confirmation's form post comes from this service's own page.
 */
describe(isSameOriginPost.name, () => {
  const own = 'https://signon.collectors.com';
  it.each([
    ['the page itself', { 'sec-fetch-site': 'same-origin', origin: own }, true],
    ['a browser that sends only Origin', { origin: own }, true],
    ['a browser that sends neither (the CSRF token still decides)', {}, true],
    [
      'a sibling site',
      { 'sec-fetch-site': 'same-site', origin: 'https://evil.collectors.com' },
      false,
    ],
    ['a sibling site that hides its Origin', { 'sec-fetch-site': 'same-site' }, false],
    ['another site', { 'sec-fetch-site': 'cross-site', origin: 'https://attacker.example' }, false],
    ['another origin without Fetch Metadata', { origin: 'https://attacker.example' }, false],
    ['an opaque Origin', { origin: 'null' }, false],
  ])('%s: %s', (_name, headers, expected) => {
    expect(isSameOriginPost(headers, own)).toBe(expected);
  });
});
