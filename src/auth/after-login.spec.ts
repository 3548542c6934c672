import { productionEnv, testConfig } from '../../test/support/test-config';
import type { Brand } from '../shared/brand';
import { checkRedirectUrl, redirectPolicyFromConfig } from '../brand/redirect-policy';
import { AfterLoginDecision, LOCAL_COLLECTION_URL, decideAfterLogin } from './after-login';
import { AppError } from '../errors/app-error';
import type { JourneyContext } from './journey';

/** The rows give r and fr as raw strings; like /signin's parser, only ones that pass the policy arrive. */
type SigninQuery = Omit<JourneyContext, 'r' | 'fr'> & { readonly r?: string; readonly fr?: string };

const local = testConfig({ APP_ENV: 'local' });
const dev = testConfig({ APP_ENV: 'dev' });
const prod = testConfig({ APP_ENV: 'prod' });

function query(brand: Brand, extra: Partial<SigninQuery> = {}): SigninQuery {
  return {
    brand,
    isNewAccount: false,
    isMigrated: false,
    postWelcome: false,
    returnToSignIn: false,
    locale: 'en-US',
    ...extra,
  };
}

function decide(
  config: typeof local,
  q: SigninQuery,
  allowForcedReturn = true,
): AfterLoginDecision {
  const policy = redirectPolicyFromConfig(config);
  const { r, fr, ...rest } = q;
  const checked = (url: string | undefined) => {
    const decision = url === undefined ? undefined : checkRedirectUrl(url, policy);
    return decision?.ok ? decision.url : undefined;
  };
  const journey: JourneyContext = {
    ...rest,
    ...(checked(r) ? { r: checked(r) } : {}),
    ...(checked(fr) ? { fr: checked(fr) } : {}),
  };
  return decideAfterLogin({
    env: config.env,
    journey,
    brand: config.brands[q.brand],
    policy,
    publicUrl: config.http.publicUrl,
    allowForcedReturn,
  });
}

/** Expected decisions are written as plain strings; the checked URLs compare equal to them. */
type Plain<T> = T extends unknown
  ? { [K in keyof T]: NonNullable<T[K]> extends string ? string : T[K] }
  : never;
type Row = [string, typeof local, SigninQuery, Plain<AfterLoginDecision>, boolean?];

const rows: Row[] = [
  // §4 step 3
  [
    'returnToSignIn goes back to the sign-in path',
    prod,
    query('psa', { returnToSignIn: true }),
    { kind: 'signin', reason: 'returnToSignIn' },
  ],
  [
    'returnToSignIn wins even after the welcome',
    prod,
    query('psa', { returnToSignIn: true, postWelcome: true }),
    { kind: 'signin', reason: 'returnToSignIn' },
  ],
  [
    'a new account sees the welcome first',
    prod,
    query('collectors', { isNewAccount: true }),
    { kind: 'signin', reason: 'welcome' },
  ],
  [
    'a migrated account sees the welcome first',
    prod,
    query('pcgs', { isMigrated: true }),
    { kind: 'signin', reason: 'welcome' },
  ],
  [
    'a new account after the welcome continues',
    prod,
    query('collectors', { isNewAccount: true, postWelcome: true }),
    { kind: 'return', url: 'https://signin.collectors.com/collection', createSession: true },
  ],
  [
    'a migrated account after the welcome continues',
    prod,
    query('pcgs', { isMigrated: true, postWelcome: true }),
    {
      kind: 'brand',
      target: 'https://www.pcgs.com/auth/signin-callback',
      createSession: true,
      handoff: 'tokens-in-url',
      clearTokenCookies: false,
    },
  ],
  // §4 step 4
  [
    'goldin with a valid state goes there',
    prod,
    query('goldin', { state: 'https://goldin.co/lot/42?bid=1' }),
    { kind: 'auction', url: 'https://goldin.co/lot/42?bid=1' },
  ],
  [
    'goldinmobile with a valid state goes there',
    prod,
    query('goldinmobile', { state: 'goldin://auth/done' }),
    { kind: 'auction', url: 'goldin://auth/done' },
  ],
  [
    'goldin without state is GoldinInvalidOktaSession',
    prod,
    query('goldin'),
    { kind: 'unauthorized', error: 'GoldinInvalidOktaSession' },
  ],
  [
    'goldinmobile without state is GoldinInvalidOktaSession',
    prod,
    query('goldinmobile'),
    { kind: 'unauthorized', error: 'GoldinInvalidOktaSession' },
  ],
  [
    'goldin with a foreign state is GoldinInvalidOktaSession',
    prod,
    query('goldin', { state: 'https://evil.com/' }),
    { kind: 'unauthorized', error: 'GoldinInvalidOktaSession' },
  ],
  [
    'goldin with a non-URL state is GoldinInvalidOktaSession',
    prod,
    query('goldin', { state: 'abc123' }),
    { kind: 'unauthorized', error: 'GoldinInvalidOktaSession' },
  ],
  // §4 steps 5-7: mobile
  [
    'the collectors app: no session id, handoff code, cookies cleared',
    prod,
    query('collectorsmobile'),
    {
      kind: 'brand',
      target: 'collectors://auth/callback',
      createSession: false,
      handoff: 'handoff-code',
      clearTokenCookies: true,
    },
  ],
  [
    'the grading app: no session id, handoff code, cookies cleared',
    prod,
    query('psamobile'),
    {
      kind: 'brand',
      target: 'psacard://auth/callback',
      createSession: false,
      handoff: 'handoff-code',
      clearTokenCookies: true,
    },
  ],
  [
    'other mobile apps get a session id',
    prod,
    query('ccmobile'),
    {
      kind: 'brand',
      target: 'collectorscorner://auth/callback',
      createSession: true,
      handoff: 'handoff-code',
      clearTokenCookies: true,
    },
  ],
  // §4 step 6: redirect brands
  [
    'psa gets si/t/rt on its token URL',
    prod,
    query('psa'),
    {
      kind: 'brand',
      target: 'https://www.psacard.com/auth/signin-callback',
      createSession: true,
      handoff: 'tokens-in-url',
      clearTokenCookies: false,
    },
  ],
  [
    'psajapan on the Japanese site',
    prod,
    query('psajapan'),
    {
      kind: 'brand',
      target: 'https://www.psacard.co.jp/auth/signin-callback',
      createSession: true,
      handoff: 'tokens-in-url',
      clearTokenCookies: false,
    },
  ],
  [
    'the dealer portal',
    prod,
    query('enterprise'),
    {
      kind: 'brand',
      target: 'https://dealers.collectors.com/auth/signin-callback',
      createSession: true,
      handoff: 'tokens-in-url',
      clearTokenCookies: false,
    },
  ],
  [
    'a brand redirect carries a valid return URL',
    prod,
    query('psa', { r: 'https://www.psacard.com/orders' }),
    {
      kind: 'brand',
      target: 'https://www.psacard.com/auth/signin-callback',
      createSession: true,
      handoff: 'tokens-in-url',
      clearTokenCookies: false,
      returnUrl: 'https://www.psacard.com/orders',
    },
  ],
  [
    'a brand redirect drops an invalid return URL',
    prod,
    query('psa', { r: 'https://evil.com/' }),
    {
      kind: 'brand',
      target: 'https://www.psacard.com/auth/signin-callback',
      createSession: true,
      handoff: 'tokens-in-url',
      clearTokenCookies: false,
    },
  ],
  [
    'in local, brand redirects land on the demo brand page',
    local,
    query('pcgs'),
    {
      kind: 'brand',
      target: 'http://localhost:3333/demo/brand/pcgs',
      createSession: true,
      handoff: 'tokens-in-url',
      clearTokenCookies: false,
    },
  ],
  // §5 local override
  [
    'l=true in local uses the brand localURL',
    local,
    query('psa', { l: 'true' }),
    {
      kind: 'brand',
      target: 'http://localhost:3000/',
      createSession: true,
      handoff: 'tokens-in-url',
      clearTokenCookies: false,
    },
  ],
  [
    'l=true in dev uses the brand localURL',
    dev,
    query('psa', { l: 'true' }),
    {
      kind: 'brand',
      target: 'http://localhost:3000/',
      createSession: true,
      handoff: 'tokens-in-url',
      clearTokenCookies: false,
    },
  ],
  [
    'l=true in prod is ignored',
    prod,
    query('psa', { l: 'true' }),
    {
      kind: 'brand',
      target: 'https://www.psacard.com/auth/signin-callback',
      createSession: true,
      handoff: 'tokens-in-url',
      clearTokenCookies: false,
    },
  ],
  [
    'l=fr-CA is a locale, not the local flag',
    local,
    query('psa', { l: 'fr-CA' }),
    {
      kind: 'brand',
      target: 'http://localhost:3333/demo/brand/psa',
      createSession: true,
      handoff: 'tokens-in-url',
      clearTokenCookies: false,
    },
  ],
  // §4 step 9
  [
    'collectors with a valid return URL goes there',
    prod,
    query('collectors', { r: 'https://www.psacard.com/cert/1' }),
    { kind: 'return', url: 'https://www.psacard.com/cert/1', createSession: true },
  ],
  [
    'collectors with an invalid return URL goes to /collection',
    prod,
    query('collectors', { r: 'https://evil.com/' }),
    { kind: 'return', url: 'https://signin.collectors.com/collection', createSession: true },
  ],
  [
    'collectors without a return URL goes to /collection',
    prod,
    query('collectors'),
    { kind: 'return', url: 'https://signin.collectors.com/collection', createSession: true },
  ],
  [
    'fr wins over r where the flow allows it',
    prod,
    query('collectors', { r: 'https://www.psacard.com/a', fr: 'https://www.psacard.com/b' }),
    { kind: 'return', url: 'https://www.psacard.com/b', createSession: true },
  ],
  [
    'fr is ignored where the flow does not allow it',
    prod,
    query('collectors', { r: 'https://www.psacard.com/a', fr: 'https://www.psacard.com/b' }),
    { kind: 'return', url: 'https://www.psacard.com/a', createSession: true },
    false,
  ],
  [
    'collectors with l=true in local goes to localhost:3333/collection',
    local,
    query('collectors', { l: 'true', r: 'http://localhost:3333/x' }),
    { kind: 'return', url: LOCAL_COLLECTION_URL, createSession: true },
  ],
  // Issue 14 item 2: /collection in the collector's language by the §2 locale path rule.
  ...(['en-CA', 'fr-CA', 'ja-JP'] as const).map((locale): Row => [
    `collectors in ${locale} lands on /${locale}/collection`,
    prod,
    query('collectors', { locale }),
    {
      kind: 'return',
      url: `https://signin.collectors.com/${locale}/collection`,
      createSession: true,
    },
  ]),
  [
    'collectors in fr-CA with a return URL goes there unchanged (the brand owns its addresses)',
    prod,
    query('collectors', { locale: 'fr-CA', r: 'https://www.psacard.com/cert/1' }),
    { kind: 'return', url: 'https://www.psacard.com/cert/1', createSession: true },
  ],
  [
    'collectors with l=ja-JP in local lands on localhost:3333/ja-JP/collection',
    local,
    query('collectors', { l: 'ja-JP', locale: 'ja-JP' }),
    { kind: 'return', url: 'http://localhost:3333/ja-JP/collection', createSession: true },
  ],
  [
    'collectors with l=true in prod keeps the normal target',
    prod,
    query('collectors', { l: 'true' }),
    { kind: 'return', url: 'https://signin.collectors.com/collection', createSession: true },
  ],
];

describe(decideAfterLogin.name, () => {
  it.each(rows)('%s', (_name, config, q, expected, allowForced = true) => {
    expect(decide(config, q, allowForced)).toEqual(expected);
  });

  it('a web brand that opted in to the handoff code gets it', () => {
    const config = testConfig({
      APP_ENV: 'prod',
      BRAND_URLS: JSON.stringify({
        ...JSON.parse(productionEnv().BRAND_URLS ?? '{}'),
        pcgs: { baseURL: 'https://www.pcgs.com', handoff: 'handoff-code' },
      }),
    });
    expect(decide(config, query('pcgs'))).toMatchObject({
      kind: 'brand',
      handoff: 'handoff-code',
      clearTokenCookies: false,
      createSession: true,
    });
  });

  it('never sends a brand to a target outside the policy: a misconfigured token URL is §8 "not a valid env URL"', () => {
    // Issue 14 item 1: a URL the service must build itself and cannot is the error, not a detour to
    // step 9 (which hid the misconfiguration).
    const config = testConfig({ APP_ENV: 'prod' });
    let thrown: unknown;
    try {
      decideAfterLogin({
        env: 'prod',
        journey: query('psa') as JourneyContext,
        brand: { ...config.brands.psa, tokenURL: 'https://evil.com/cb' },
        policy: redirectPolicyFromConfig(config),
        publicUrl: config.http.publicUrl,
        allowForcedReturn: true,
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ code: 'InvalidRedirectUrl' });
    expect(String((thrown as Error).message)).toContain('not a valid env URL');
  });
});
