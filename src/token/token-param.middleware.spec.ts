import { isTopLevelNavigation } from './token-param.middleware';

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
