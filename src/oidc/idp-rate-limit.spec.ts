import {
  DEFAULT_BLOCK_SECONDS,
  IdpRateLimited,
  MAX_BLOCK_SECONDS,
  MIN_BLOCK_SECONDS,
  RateLimitHeaders,
  blockedUntil,
  rateLimitOf,
} from './idp-rate-limit';

/** 2026-11-29T10:00:00Z, in ms, and the same instant in the forms the headers use. */
const NOW = Date.parse('2026-11-29T10:00:00Z');
const NOW_S = NOW / 1000;
const httpDate = (ms: number) => new Date(ms).toUTCString();

describe(blockedUntil.name, () => {
  // [what the 429 said, its headers, seconds from now until the endpoint may be called again]
  const table: ReadonlyArray<readonly [string, RateLimitHeaders, number]> = [
    ['Okta: Reset 20 s ahead', { 'x-rate-limit-reset': String(NOW_S + 20) }, 20],
    [
      'Okta: Reset read against its own Date (our clock 30 s behind Okta’s)',
      { 'x-rate-limit-reset': String(NOW_S + 50), date: httpDate(NOW + 30_000) },
      20,
    ],
    [
      'Okta: Reset read against its own Date (our clock 30 s ahead)',
      { 'x-rate-limit-reset': String(NOW_S - 10), date: httpDate(NOW - 30_000) },
      20,
    ],
    [
      'Okta: a Date that cannot be read is ignored',
      { 'x-rate-limit-reset': String(NOW_S + 7), date: 'soon' },
      7,
    ],
    ['Retry-After in seconds', { 'retry-after': '12' }, 12],
    ['Retry-After as an HTTP-date', { 'retry-after': httpDate(NOW + 45_000) }, 45],
    [
      'both: the later of the two',
      { 'x-rate-limit-reset': String(NOW_S + 10), 'retry-after': '30' },
      30,
    ],
    ['neither: one Okta window', {}, DEFAULT_BLOCK_SECONDS],
    [
      'a Reset that is not a number: one window',
      { 'x-rate-limit-reset': 'tomorrow' },
      DEFAULT_BLOCK_SECONDS,
    ],
    ['a negative Retry-After: one window', { 'retry-after': '-5' }, DEFAULT_BLOCK_SECONDS],
    [
      'a Reset already past: the minimum',
      { 'x-rate-limit-reset': String(NOW_S - 100) },
      MIN_BLOCK_SECONDS,
    ],
    ['Retry-After 0: the minimum', { 'retry-after': '0' }, MIN_BLOCK_SECONDS],
    [
      'a silly Reset (a day ahead): capped',
      { 'x-rate-limit-reset': String(NOW_S + 86_400) },
      MAX_BLOCK_SECONDS,
    ],
    [
      'a silly Retry-After (an hour and a second): capped',
      { 'retry-after': '3601' },
      MAX_BLOCK_SECONDS,
    ],
    [
      'a Reset in milliseconds by mistake: capped',
      { 'x-rate-limit-reset': String(NOW) },
      MAX_BLOCK_SECONDS,
    ],
  ];

  it.each(table)('%s', (_name, headers, seconds) => {
    expect((blockedUntil(headers, NOW) - NOW) / 1000).toBe(seconds);
  });

  it('keeps the minimum below the default and the default below the cap', () => {
    expect(MIN_BLOCK_SECONDS).toBeLessThan(DEFAULT_BLOCK_SECONDS);
    expect(DEFAULT_BLOCK_SECONDS).toBeLessThan(MAX_BLOCK_SECONDS);
  });
});

describe(rateLimitOf.name, () => {
  const limit = new IdpRateLimited('userinfo', NOW, false);
  it.each([
    ['the error itself', limit, limit],
    ['its cause', new Error('a', { cause: limit }), limit],
    ['the cause of its cause', new Error('a', { cause: new Error('b', { cause: limit }) }), limit],
    ['no rate limit in the chain', new Error('a', { cause: new Error('b') }), undefined],
    ['not an error', 'a string', undefined],
    ['nothing', undefined, undefined],
  ])('%s', (_name, error, found) => {
    expect(rateLimitOf(error)).toBe(found);
  });
});
