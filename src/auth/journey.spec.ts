import { testConfig } from '../../test/support/test-config';
import { redirectPolicyFromConfig } from '../brand/redirect-policy';
import { MAX_JOURNEY_BYTES, journeyBytes, parseSigninQuery } from './journey';

const policy = redirectPolicyFromConfig(testConfig({ APP_ENV: 'prod' }));

describe(parseSigninQuery.name, () => {
  it('accepts the §3 parameters', () => {
    const result = parseSigninQuery(
      {
        b: 'PSA',
        r: 'https://www.psacard.com/orders',
        fr: 'https://www.psacard.com/forced',
        l: 'fr-CA',
        state: 's',
        t: 'token',
        isNewAccount: 'true',
        isMigrated: 'false',
        postWelcome: 'true',
        returnToSignIn: 'false',
        acceptedTermsAndConditions: 'true',
        utm_source: 'ignored',
      },
      policy,
    );
    expect(result).toEqual({
      ok: true,
      dropped: [],
      journey: {
        brand: 'psa',
        r: 'https://www.psacard.com/orders',
        fr: 'https://www.psacard.com/forced',
        l: 'fr-CA',
        state: 's',
        t: 'token',
        isNewAccount: true,
        isMigrated: false,
        postWelcome: true,
        returnToSignIn: false,
        acceptedTermsAndConditions: true,
        locale: 'fr-CA',
      },
    });
  });

  it('defaults: collectors, no flags, en-US; the Japan brand gives ja-JP', () => {
    expect(parseSigninQuery({}, policy)).toEqual({
      ok: true,
      dropped: [],
      journey: {
        brand: 'collectors',
        isNewAccount: false,
        isMigrated: false,
        postWelcome: false,
        returnToSignIn: false,
        locale: 'en-US',
      },
    });
    expect(parseSigninQuery({ b: 'psajapan' }, policy)).toMatchObject({
      ok: true,
      journey: { locale: 'ja-JP' },
    });
    expect(parseSigninQuery({ b: 'psa', lang: 'ja-JP', l: 'true' }, policy)).toMatchObject({
      ok: true,
      journey: { locale: 'ja-JP', l: 'true' },
    });
  });

  const rejected: [string, Record<string, unknown>, string, string][] = [
    ['an unknown brand', { b: 'netflix' }, 'b', 'InvalidBrand'],
    ['a repeated brand', { b: ['psa', 'pcgs'] }, 'b', 'InvalidBrand'],
    ['a flag that is not a boolean', { isNewAccount: 'yes' }, 'isNewAccount', 'BadRequest'],
    [
      'terms that are not a boolean',
      { acceptedTermsAndConditions: '1' },
      'acceptedTermsAndConditions',
      'BadRequest',
    ],
    ['an oversize state', { state: 'x'.repeat(5000) }, 'state', 'BadRequest'],
    ['an oversize token', { t: 'x'.repeat(5000) }, 't', 'BadRequest'],
  ];
  it.each(rejected)('rejects %s, naming %s', (_name, raw, param, code) => {
    const result = parseSigninQuery(raw, policy);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems).toContainEqual(expect.objectContaining({ param, code }));
  });

  it('reports every problem at once and keeps the brand for a branded error page', () => {
    const result = parseSigninQuery(
      { b: 'pcgs', r: 'https://evil.com', postWelcome: 'maybe', isMigrated: 'no', lang: 'fr-CA' },
      policy,
    );
    expect(result).toMatchObject({ ok: false, brand: 'pcgs', locale: 'fr-CA' });
    if (!result.ok)
      expect(result.problems.map((p) => p.param)).toEqual(['isMigrated', 'postWelcome']);
  });

  // §5 "r is used only when it passes a safe-parse" and §4 step 9 "else /collection": a return URL
  // that does not pass is dropped and reported, the sign-in goes on (issue 14 item 1).
  const dropped: [string, Record<string, unknown>, 'r' | 'fr', string][] = [
    ['a foreign return URL', { r: 'https://evil.com/' }, 'r', 'origin-not-allowed'],
    ['a relative return URL', { r: '/orders' }, 'r', 'not-absolute'],
    ['a protocol-relative return URL', { r: '//evil.com' }, 'r', 'not-absolute'],
    ['a malformed return URL', { r: 'https://' }, 'r', 'unparseable'],
    ['a javascript: forced return URL', { fr: 'javascript:alert(1)' }, 'fr', 'scheme-not-allowed'],
    [
      'a repeated return URL',
      { r: ['https://www.psacard.com/', 'https://evil.com/'] },
      'r',
      'repeated',
    ],
    ['a nested return URL', { r: { a: 'b' } }, 'r', 'not-text'],
    [
      'an oversize return URL',
      { r: `https://www.psacard.com/${'x'.repeat(5000)}` },
      'r',
      'too-long',
    ],
  ];
  it.each(dropped)('drops %s (%s) and goes on', (_name, raw, param, reason) => {
    const result = parseSigninQuery({ b: 'psa', ...raw }, policy);
    expect(result).toMatchObject({ ok: true, journey: { brand: 'psa' } });
    if (!result.ok) return;
    expect(result.journey[param]).toBeUndefined();
    expect(result.dropped).toEqual([expect.objectContaining({ param, reason })]);
  });

  it('keeps a valid r while dropping a bad fr', () => {
    const result = parseSigninQuery(
      { r: 'https://www.psacard.com/orders', fr: 'https://evil.com/' },
      policy,
    );
    expect(result).toMatchObject({
      ok: true,
      journey: { r: 'https://www.psacard.com/orders' },
      dropped: [{ param: 'fr', reason: 'origin-not-allowed' }],
    });
  });
});

/**
 * docs/security.md, unauthenticated writes: a login state keeps the journey for 10 minutes, for
 * anyone who asks: bounded.
 */
describe('the journey a sign-in keeps', () => {
  const url = (length: number) => {
    const base = 'https://www.psacard.com/orders?q=';
    return `${base}${'a'.repeat(length - base.length)}`;
  };

  it(`takes r, fr and state at the redirect policy's 2,048 characters each (under ${MAX_JOURNEY_BYTES} bytes)`, () => {
    const result = parseSigninQuery(
      { b: 'goldin', r: url(2048), fr: url(2048), state: url(2048), l: 'fr-CA' },
      policy,
    );
    expect(result.ok).toBe(true);
    if (result.ok) expect(journeyBytes(result.journey)).toBeLessThanOrEqual(MAX_JOURNEY_BYTES);
  });

  it.each([
    [
      'l and state of control characters (six bytes each, escaped)',
      { l: '\u0001'.repeat(4096), state: '\u0001'.repeat(4096) },
    ],
    ['a state and an l of 4,096 characters each', { l: 'x'.repeat(4096), state: 'y'.repeat(4096) }],
  ])('refuses %s, naming the bound', (_name, query) => {
    const result = parseSigninQuery({ b: 'psa', ...query }, policy);
    expect(result).toMatchObject({
      ok: false,
      brand: 'psa',
      problems: [
        {
          param: 'query',
          code: 'BadRequest',
          message: expect.stringMatching(new RegExp(`more than ${MAX_JOURNEY_BYTES}$`)),
        },
      ],
    });
  });
});
