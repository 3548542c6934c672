import { MAX_CARRIED_BYTES, MAX_CARRIED_PARAMS, parseLogoutQuery } from './route-queries';

/**
 * docs/security.md, unauthenticated writes: the query a sign-out carries back (§4 Sign-out step 5)
 * is bounded, never refused.
 */
describe(parseLogoutQuery.name, () => {
  const many = (n: number, prefix = 'k') =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 'v']));
  const stored = (carried: Record<string, string>) =>
    Buffer.byteLength(JSON.stringify(carried), 'utf8');

  it.each<[string, Record<string, unknown>, Record<string, string>, number]>([
    [
      'the query minus t',
      { b: 'psa', r: 'https://x', t: 'token' },
      { b: 'psa', r: 'https://x' },
      0,
    ],
    ['single text values only', { b: 'psa', x: ['1', '2'], y: { z: '1' } }, { b: 'psa' }, 2],
    ['no value past 2,048 characters', { b: 'psa', u: 'a'.repeat(2049) }, { b: 'psa' }, 1],
    [
      `at most ${MAX_CARRIED_PARAMS} parameters, in the order sent`,
      many(20),
      many(MAX_CARRIED_PARAMS),
      20 - MAX_CARRIED_PARAMS,
    ],
    [
      'r, b, l and lang before the rest, wherever they were sent',
      { ...many(30), lang: 'fr-CA', r: 'https://x', l: 'true', b: 'psa' },
      { r: 'https://x', b: 'psa', l: 'true', lang: 'fr-CA', ...many(MAX_CARRIED_PARAMS - 4) },
      30 - (MAX_CARRIED_PARAMS - 4),
    ],
  ])('%s', (_name, raw, carried, dropped) => {
    expect(parseLogoutQuery(raw)).toEqual({
      brand: raw.b === 'psa' ? 'psa' : 'collectors',
      carried,
      dropped,
    });
  });

  it(`never stores more than ${MAX_CARRIED_BYTES} bytes, escapes and all`, () => {
    const long = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`p${i}`, '\u0001'.repeat(2000)]),
    );
    const { carried, dropped } = parseLogoutQuery({ b: 'psa', ...long });
    expect(stored(carried)).toBeLessThanOrEqual(MAX_CARRIED_BYTES);
    expect(carried.b).toBe('psa');
    expect(dropped).toBe(10);
    // What fits is kept: a value that fits after a larger one was dropped.
    const mixed = parseLogoutQuery({ big: 'x'.repeat(2048), big2: 'y'.repeat(2048), small: 's' });
    expect(Object.keys(mixed.carried)).toEqual(['big', 'small']);
    expect(stored(mixed.carried)).toBeLessThanOrEqual(MAX_CARRIED_BYTES);
  });

  it('1,100 parameters, as an attacker sent them, are cut to the bound', () => {
    const { carried, dropped } = parseLogoutQuery({ b: 'psa', ...many(1100) });
    expect(Object.keys(carried)).toHaveLength(MAX_CARRIED_PARAMS);
    expect(dropped).toBe(1101 - MAX_CARRIED_PARAMS);
    expect(stored(carried)).toBeLessThanOrEqual(MAX_CARRIED_BYTES);
  });
});
