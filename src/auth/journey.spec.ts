import { testConfig } from '../../test/support/test-config';
import { redirectPolicyFromConfig } from '../brand/redirect-policy';
import { parseSigninQuery } from './journey';

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
    ['a foreign return URL', { r: 'https://evil.com/' }, 'r', 'InvalidRedirectUrl'],
    ['a protocol-relative return URL', { r: '//evil.com' }, 'r', 'InvalidRedirectUrl'],
    ['a javascript: forced return URL', { fr: 'javascript:alert(1)' }, 'fr', 'InvalidRedirectUrl'],
    [
      'a repeated return URL',
      { r: ['https://www.psacard.com/', 'https://evil.com/'] },
      'r',
      'BadRequest',
    ],
    ['a nested parameter', { r: { a: 'b' } }, 'r', 'BadRequest'],
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
      { b: 'pcgs', r: 'https://evil.com', postWelcome: 'maybe', lang: 'fr-CA' },
      policy,
    );
    expect(result).toMatchObject({ ok: false, brand: 'pcgs', locale: 'fr-CA' });
    if (!result.ok) expect(result.problems.map((p) => p.param)).toEqual(['r', 'postWelcome']);
  });
});
