import type { ShellData } from '../shell/shell-data';
import { errorPageAction } from './ErrorShellPage';

const base: ShellData = {
  page: 'error',
  locale: 'en-US',
  env: 'local',
  brand: 'collectors',
  theme: 'light',
  services: {} as ShellData['services'],
  features: [],
  currentPath: '/',
  year: 2026,
  messages: {},
};

function page(overrides: Partial<ShellData>, props: Record<string, unknown>): ShellData {
  return { ...base, ...overrides, props };
}

/**
 * Issue 33: the error page's button never loads again an address that fails the same way every time;
 * it tries again only where that can work.
 */
describe('errorPageAction', () => {
  it.each([
    [
      'an unknown brand: start over at the sign-in',
      page(
        { currentPath: '/signin?b=nosuchbrand' },
        {
          code: 'InvalidBrand',
          retryHref: '/signin?b=nosuchbrand',
        },
      ),
      { href: '/signin', label: 'startOver' },
    ],
    [
      "a page that does not exist, in fr-CA and the psa brand's look: that brand's sign-in in fr-CA",
      page(
        { currentPath: '/fr-CA/nope', locale: 'fr-CA', brand: 'psa' },
        {
          code: 'NotFound',
          retryHref: '/fr-CA/nope',
        },
      ),
      { href: '/signin?b=psa&lang=fr-CA', label: 'startOver' },
    ],
    [
      'a single-use landing whose journey the server names: try that journey again',
      page(
        { currentPath: '/handleloginredirect?state=x&error=access_denied' },
        {
          code: 'SigninFailed',
          retryHref: '/signin?b=pcgs&lang=fr-CA',
        },
      ),
      { href: '/signin?b=pcgs&lang=fr-CA', label: 'tryAgain' },
    ],
    [
      'an outage: the same address again',
      page(
        { currentPath: '/collection' },
        {
          code: 'ServiceUnavailable',
          retryHref: '/collection',
        },
      ),
      { href: '/collection', label: 'tryAgain' },
    ],
    [
      'a render error of ours (no code): the same address again',
      page({ currentPath: '/account/sessions' }, { retryHref: '/account/sessions' }),
      { href: '/account/sessions', label: 'tryAgain' },
    ],
    [
      'our rate limit: no button (trying again at once would fail); the message says the wait',
      page({ currentPath: '/signin' }, { code: 'TooManyRequests', retryHref: '/signin' }),
      undefined,
    ],
    [
      "the IdP's rate limit: no button either",
      page({ currentPath: '/collection' }, { code: 'IdpRateLimited', retryHref: '/collection' }),
      undefined,
    ],
    [
      'no retry address at all: start over',
      page({ currentPath: '/x' }, { code: 'InternalServerError' }),
      { href: '/signin', label: 'startOver' },
    ],
  ])('%s', (_name, data, expected) => {
    expect(errorPageAction(data)).toEqual(expected);
  });
});
