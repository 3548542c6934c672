import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { productionEnv } from '../../test/support/test-config';
import {
  ConfigError,
  DEVELOPER_SECRETS,
  DEVELOPER_TOKEN_KEY,
  RawEnv,
  developerBrandClients,
  parseConfig,
} from './config.schema';

function problemsOf(env: RawEnv): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => p.key);
    throw error;
  }
  return [];
}

function withRemoved(env: Record<string, string>, ...keys: string[]): RawEnv {
  const copy: Record<string, string> = { ...env };
  for (const k of keys) delete copy[k];
  return copy;
}

describe(parseConfig.name, () => {
  it('starts in local with the embedded defaults and no variables at all', () => {
    const config = parseConfig({});
    expect(config.env).toBe('local');
    expect(config.http).toEqual({
      host: '127.0.0.1',
      port: 3333,
      publicUrl: 'http://localhost:3333',
      trustProxy: 0,
      compression: true,
      apiMaxBatch: 10,
      keepAliveTimeoutSeconds: 65,
      headersTimeoutSeconds: 66,
    });
    expect(config.idp).toEqual({
      mode: 'embedded',
      issuer: 'http://localhost:3333/oauth2/default',
      clientId: 'collectors-signon',
      clientSecret: DEVELOPER_SECRETS.IDP_CLIENT_SECRET,
      clientAuthMethod: 'client_secret_basic',
      audience: 'api://default',
      revocationRetryMs: 30_000,
      accessTokenTtlSeconds: 3600,
      accessTokenMaxLifetimeSeconds: 86400,
    });
    expect(config.sessionStore).toEqual({
      kind: 'sqlite',
      file: expect.stringMatching(/data\/sessions\.sqlite$/),
    });
    expect(config.services.grading).toBe('https://dev.psacard.com');
  });

  it('local and dev share their service addresses (§1)', () => {
    expect(parseConfig({ APP_ENV: 'dev' }).services).toEqual(
      parseConfig({ APP_ENV: 'local' }).services,
    );
  });

  it('follows PORT in the default public URL and issuer', () => {
    const config = parseConfig({ PORT: '4000' });
    expect(config.http.publicUrl).toBe('http://localhost:4000');
    expect(config.idp.issuer).toBe('http://localhost:4000/oauth2/default');
  });

  it('accepts a complete prod environment', () => {
    const config = parseConfig(productionEnv());
    expect(config.env).toBe('prod');
    expect(config.http.host).toBe('0.0.0.0');
    expect(config.idp.mode).toBe('external');
    expect(config.services.grading).toBe('https://www.psacard.com');
  });

  const rejected: [string, RawEnv, string[]][] = [
    ['an unknown APP_ENV', { APP_ENV: 'staging' }, ['APP_ENV']],
    ['a bad port', { PORT: '70000' }, ['PORT']],
    ['a non-numeric port', { PORT: 'http' }, ['PORT']],
    ['an unknown store', { SESSION_STORE: 'memcached' }, ['SESSION_STORE']],
    ['redis without a URL', { SESSION_STORE: 'redis' }, ['REDIS_URL']],
    ['redis with a bad URL', { SESSION_STORE: 'redis', REDIS_URL: 'http://x' }, ['REDIS_URL']],
    ['an unknown log level', { LOG_LEVEL: 'loud' }, ['LOG_LEVEL']],
    // It used to be read after the problems were counted, so a bad value ran as `on`.
    ['a compression other than on or off', { COMPRESSION: 'yes' }, ['COMPRESSION']],
    [
      'a client-error limit without its window',
      { RATE_LIMIT_CLIENT_ERRORS: '120' },
      ['RATE_LIMIT_CLIENT_ERRORS'],
    ],
    ['a public URL with credentials', { PUBLIC_URL: 'https://a:b@x.com' }, ['PUBLIC_URL']],
    ['a relative service URL', { GRADING_BASE_URL: 'psacard.com' }, ['GRADING_BASE_URL']],
    ['brand URLs that are not JSON', { BRAND_URLS: '{pcgs:' }, ['BRAND_URLS']],
    [
      'brand URLs for an unknown brand',
      { BRAND_URLS: '{"netflix":{"baseURL":"https://n.com"}}' },
      ['BRAND_URLS'],
    ],
    [
      'an unknown brand URL field',
      { BRAND_URLS: '{"pcgs":{"baseUrl":"https://n.com"}}' },
      ['BRAND_URLS'],
    ],
    [
      'a javascript app scheme',
      { BRAND_URLS: '{"psamobile":{"appScheme":"javascript"}}' },
      ['BRAND_URLS'],
    ],
    ['an https app scheme', { BRAND_URLS: '{"psamobile":{"appScheme":"https"}}' }, ['BRAND_URLS']],
    [
      'an external IdP without issuer and client',
      { IDP_MODE: 'external' },
      ['IDP_ISSUER', 'IDP_CLIENT_ID', 'IDP_CLIENT_SECRET'].slice(0, 2),
    ],
  ];
  it.each(rejected)('stops on %s, naming it', (_name, env, keys) => {
    expect(problemsOf(env)).toEqual(expect.arrayContaining(keys));
  });

  it('lists every missing qa/prod variable at once, with no silent defaults', () => {
    for (const appEnv of ['qa', 'prod']) {
      const keys = problemsOf({ APP_ENV: appEnv });
      expect(keys).toEqual(
        expect.arrayContaining([
          'PUBLIC_URL',
          'GRADING_BASE_URL',
          'GRADING_JAPAN_BASE_URL',
          'CID_ROUTER_BASE_URL',
          'POWERPACKS_BASE_URL',
          'SESSION_SECRET',
          'IDP_ISSUER',
          'IDP_CLIENT_ID',
          'IDP_CLIENT_SECRET',
          'BRAND_URLS.pcgs.baseURL',
          'BRAND_URLS.goldin.baseURL',
          'BRAND_URLS.psamobile.appScheme',
        ]),
      );
    }
  });

  it('the error message names each variable and its problem', () => {
    expect(() => parseConfig({ APP_ENV: 'staging', PORT: 'x' })).toThrow(
      /Invalid configuration \(\d+ problems\):[\s\S]*APP_ENV: must be one of local, dev, qa, prod \(got "staging"\)[\s\S]*PORT:/,
    );
  });

  const prodRejected: [string, RawEnv, string][] = [
    [
      'the public developer session secret',
      { ...productionEnv(), SESSION_SECRET: DEVELOPER_SECRETS.SESSION_SECRET },
      'SESSION_SECRET',
    ],
    ['a short session secret', { ...productionEnv(), SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [
      'a short client secret',
      { ...productionEnv(), IDP_CLIENT_SECRET: 'short' },
      'IDP_CLIENT_SECRET',
    ],
    [
      'a plain-http public URL',
      { ...productionEnv(), PUBLIC_URL: 'http://signin.collectors.com' },
      'PUBLIC_URL',
    ],
    [
      'a plain-http issuer',
      { ...productionEnv(), IDP_ISSUER: 'http://login.collectors.com/oauth2/default' },
      'IDP_ISSUER',
    ],
    ['the embedded IdP', { ...productionEnv(), IDP_MODE: 'embedded' }, 'IDP_MODE'],
    [
      'a missing grading address',
      withRemoved(productionEnv(), 'GRADING_BASE_URL'),
      'GRADING_BASE_URL',
    ],
    ['a missing session secret', withRemoved(productionEnv(), 'SESSION_SECRET'), 'SESSION_SECRET'],
    // Issue 15 item 4: fail closed.
    ['an unset TRUST_PROXY', withRemoved(productionEnv(), 'TRUST_PROXY'), 'TRUST_PROXY'],
    // Issue 15 item 9: tokens at rest are sealed with the operator's own keys.
    [
      'no token encryption keys',
      withRemoved(productionEnv(), 'TOKEN_ENCRYPTION_KEYS'),
      'TOKEN_ENCRYPTION_KEYS',
    ],
    [
      'the published developer token key',
      { ...productionEnv(), TOKEN_ENCRYPTION_KEYS: DEVELOPER_TOKEN_KEY },
      'TOKEN_ENCRYPTION_KEYS',
    ],
    [
      'a token key of the wrong size',
      { ...productionEnv(), TOKEN_ENCRYPTION_KEYS: `k1:${Buffer.alloc(16).toString('base64')}` },
      'TOKEN_ENCRYPTION_KEYS',
    ],
    [
      'a token key id named twice',
      {
        ...productionEnv(),
        TOKEN_ENCRYPTION_KEYS: ['k1', 'k1']
          .map((id, i) => `${id}:${Buffer.alloc(32, i + 1).toString('base64')}`)
          .join(','),
      },
      'TOKEN_ENCRYPTION_KEYS',
    ],
    [
      'an idle timeout longer than the lifetime',
      {
        ...productionEnv(),
        SESSION_IDLE_TIMEOUT_SECONDS: '7200',
        SESSION_MAX_LIFETIME_SECONDS: '3600',
      },
      'SESSION_IDLE_TIMEOUT_SECONDS',
    ],
    [
      'a published developer brand secret (long enough, but in this repository)',
      {
        ...productionEnv(),
        BRAND_CLIENTS: JSON.stringify({
          ...JSON.parse(productionEnv().BRAND_CLIENTS ?? '{}'),
          pcgs: developerBrandClients().pcgs,
        }),
      },
      'BRAND_CLIENTS.pcgs.clientSecret',
    ],
    [
      'another brand’s published developer secret',
      {
        ...productionEnv(),
        BRAND_CLIENTS: JSON.stringify({
          ...JSON.parse(productionEnv().BRAND_CLIENTS ?? '{}'),
          pcgs: { clientId: 'pcgs-prod', clientSecret: developerBrandClients().psa?.clientSecret },
        }),
      },
      'BRAND_CLIENTS.pcgs.clientSecret',
    ],
    [
      'a plain-http brand address',
      {
        ...productionEnv(),
        BRAND_URLS: JSON.stringify({
          ...JSON.parse(productionEnv().BRAND_URLS ?? '{}'),
          pcgs: { baseURL: 'http://www.pcgs.com' },
        }),
      },
      'BRAND_URLS.pcgs.baseURL',
    ],
  ];
  it.each(prodRejected)('prod refuses %s', (_name, env, key) => {
    expect(problemsOf(env)).toEqual([key]);
  });

  it('prod refuses a plain-http token URL; TRUST_PROXY=0 is a value, not a default', () => {
    const urls = JSON.parse(productionEnv().BRAND_URLS ?? '{}') as Record<string, object>;
    expect(
      problemsOf({
        ...productionEnv(),
        BRAND_URLS: JSON.stringify({
          ...urls,
          pcgs: { baseURL: 'https://www.pcgs.com', tokenURL: 'http://www.pcgs.com/cb' },
        }),
      }),
    ).toEqual(['BRAND_URLS.pcgs.tokenURL']);
    expect(parseConfig({ ...productionEnv(), TRUST_PROXY: '0' }).http.trustProxy).toBe(0);
    expect(parseConfig({ APP_ENV: 'dev' }).http.trustProxy).toBe(0);
  });

  it('reads a rotated key ring (the first seals) and the session lifetimes, with their defaults', () => {
    const ring = ['new', 'old']
      .map((id) => `${id}:${randomBytes(32).toString('base64')}`)
      .join(',');
    const config = parseConfig({ ...productionEnv(), TOKEN_ENCRYPTION_KEYS: ring });
    expect(config.tokenKeys.map((k) => k.id)).toEqual(['new', 'old']);
    expect(config.sessionLifetime).toEqual({ idleSeconds: 2_592_000, absoluteSeconds: 31_536_000 });
    expect(parseConfig({}).tokenKeys.map((k) => k.id)).toEqual(['dev']);
  });

  it('qa is as strict as prod', () => {
    expect(problemsOf({ ...productionEnv('qa'), IDP_MODE: 'embedded' })).toEqual(['IDP_MODE']);
    expect(problemsOf(productionEnv('qa'))).toEqual([]);
  });
});

describe('IDP_AUDIENCE (issue 31 item 1: a custom authorization server names its own)', () => {
  it.each([
    ['unset: Okta’s default server', undefined, 'api://default'],
    ['an absolute URI', 'https://api.collectors.com', 'https://api.collectors.com'],
    ['a plain name', 'collectors-api', 'collectors-api'],
  ])('%s', (_name, value, audience) => {
    const env =
      value === undefined ? productionEnv('qa') : { ...productionEnv('qa'), IDP_AUDIENCE: value };
    expect(parseConfig(env).idp.audience).toBe(audience);
  });

  it.each([
    ['a space', 'api default'],
    ['a control character', 'api://default\n'],
    ['more than 200 characters', 'a'.repeat(201)],
  ])('refuses %s, naming the key', (_name, value) => {
    expect(problemsOf({ IDP_AUDIENCE: value })).toEqual(['IDP_AUDIENCE']);
  });
});

describe('rate limits (docs/design.md "Brute force", §8 client error reports)', () => {
  it.each([
    ['no variable', {}, { limit: 120, windowSeconds: 60 }, { limit: 120, windowSeconds: 60 }],
    [
      'RATE_LIMIT_CLIENT_ERRORS alone',
      { RATE_LIMIT_CLIENT_ERRORS: '5/30' },
      { limit: 5, windowSeconds: 30 },
      { limit: 120, windowSeconds: 60 },
    ],
    [
      'RATE_LIMIT_SIGNIN alone',
      { RATE_LIMIT_SIGNIN: '7/10' },
      { limit: 120, windowSeconds: 60 },
      { limit: 7, windowSeconds: 10 },
    ],
  ] as const)('with %s: client errors %o, sign-ins %o', (_name, env, clientErrors, signin) => {
    const { rateLimit } = parseConfig(env);
    expect(rateLimit.clientErrors).toEqual(clientErrors);
    expect(rateLimit.signinPerAddress).toEqual(signin);
  });
});

describe('enabled features (§3, §5: malformed data is treated as empty)', () => {
  it('reads the list, with no warning', () => {
    const config = parseConfig({ ENABLED_FEATURES: 'gettingStarted,vault' });
    expect(config.features).toEqual(['gettingStarted', 'vault']);
    expect(config.warnings).toEqual([]);
  });

  it.each([
    ['text that is no list', 'not json', 'is not a feature name'],
    ['a JSON object', '{"a":1}', 'not a list of strings'],
    ['an array of numbers', '[1,2]', 'entry 0 is not a string'],
  ])('starts on %s with no features and one warning naming it', (_name, value, problem) => {
    expect(problemsOf({ ENABLED_FEATURES: value })).toEqual([]);
    const config = parseConfig({ ENABLED_FEATURES: value });
    expect(config.features).toEqual([]);
    expect(config.warnings).toEqual([
      {
        key: 'ENABLED_FEATURES',
        message: expect.stringContaining(problem) as string,
      },
    ]);
    expect(config.warnings[0]?.message).toContain('treated as empty (§5)');
  });

  it('still stops on real problems, and a malformed list is not one of them', () => {
    expect(problemsOf({ ENABLED_FEATURES: '[1]', PORT: 'x' })).toEqual(['PORT']);
  });
});

describe('the management listener (docs/operating.md "The management port")', () => {
  it('listens on 9000 on the interface of HOST unless told otherwise, in every environment', () => {
    expect(parseConfig({}).management).toEqual({ port: 9000, host: '127.0.0.1' });
    expect(parseConfig(productionEnv()).management).toEqual({ port: 9000, host: '0.0.0.0' });
    expect(parseConfig({ HOST: '0.0.0.0' }).management.host).toBe('0.0.0.0');
    expect(
      parseConfig({ MANAGEMENT_PORT: '9100', MANAGEMENT_HOST: '10.0.0.7' }).management,
    ).toEqual({ port: 9100, host: '10.0.0.7' });
  });

  it('refuses the public port, naming the problem', () => {
    expect(() => parseConfig({ PORT: '9000' })).toThrow(
      /MANAGEMENT_PORT: must differ from PORT \(9000\): the management listener needs a port of its own, and \/metrics is never served on the public port/,
    );
    expect(problemsOf({ ...productionEnv(), PORT: '8080', MANAGEMENT_PORT: '8080' })).toEqual([
      'MANAGEMENT_PORT',
    ]);
  });

  it.each(['0', '65536', 'nine', '9000.5'])('refuses MANAGEMENT_PORT=%s', (text) => {
    expect(problemsOf({ MANAGEMENT_PORT: text })).toEqual(['MANAGEMENT_PORT']);
  });
});

describe('graceful shutdown settings', () => {
  it('stops at once locally and drains for 5 s behind the load balancers of qa and prod', () => {
    expect(parseConfig({}).shutdown).toEqual({ drainMs: 0, timeoutMs: 10_000 });
    expect(parseConfig({ APP_ENV: 'dev' }).shutdown).toEqual({ drainMs: 0, timeoutMs: 10_000 });
    expect(parseConfig(productionEnv()).shutdown).toEqual({ drainMs: 5_000, timeoutMs: 10_000 });
  });

  it('takes SHUTDOWN_DRAIN_MS and SHUTDOWN_TIMEOUT_MS', () => {
    expect(
      parseConfig({ SHUTDOWN_DRAIN_MS: '1500', SHUTDOWN_TIMEOUT_MS: '20000' }).shutdown,
    ).toEqual({ drainMs: 1_500, timeoutMs: 20_000 });
  });

  it.each([
    ['a negative drain', { SHUTDOWN_DRAIN_MS: '-1' }, ['SHUTDOWN_DRAIN_MS']],
    ['a drain that is not a number', { SHUTDOWN_DRAIN_MS: 'soon' }, ['SHUTDOWN_DRAIN_MS']],
    ['a timeout under a second', { SHUTDOWN_TIMEOUT_MS: '10' }, ['SHUTDOWN_TIMEOUT_MS']],
    [
      'a drain as long as the timeout',
      { SHUTDOWN_DRAIN_MS: '5000', SHUTDOWN_TIMEOUT_MS: '5000' },
      ['SHUTDOWN_DRAIN_MS'],
    ],
  ] as const)('refuses %s', (_name, env, keys) => {
    expect(problemsOf(env)).toEqual(keys);
  });
});

describe('keep-alive and header timeouts', () => {
  it('outlast a load balancer idle timeout of 60 s by default, everywhere', () => {
    for (const env of [{}, { APP_ENV: 'dev' }, productionEnv()]) {
      const { keepAliveTimeoutSeconds, headersTimeoutSeconds } = parseConfig(env).http;
      expect([keepAliveTimeoutSeconds, headersTimeoutSeconds]).toEqual([65, 66]);
    }
  });

  it('takes HTTP_KEEP_ALIVE_TIMEOUT_SECONDS and HTTP_HEADERS_TIMEOUT_SECONDS', () => {
    const { http } = parseConfig({
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '620',
      HTTP_HEADERS_TIMEOUT_SECONDS: '630',
    });
    expect([http.keepAliveTimeoutSeconds, http.headersTimeoutSeconds]).toEqual([620, 630]);
  });

  it.each([
    ['headers as long as the keep-alive', { HTTP_HEADERS_TIMEOUT_SECONDS: '65' }],
    ['a keep-alive past the default headers', { HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '120' }],
  ] as const)('refuses %s, saying which must be greater', (_name, env) => {
    expect(() => parseConfig(env)).toThrow(
      /HTTP_HEADERS_TIMEOUT_SECONDS: must be greater than HTTP_KEEP_ALIVE_TIMEOUT_SECONDS \(\d+\)/,
    );
  });

  it.each([
    [
      'a keep-alive of 0',
      { HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '0' },
      'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS',
    ],
    [
      'headers that are not a number',
      { HTTP_HEADERS_TIMEOUT_SECONDS: 'soon' },
      'HTTP_HEADERS_TIMEOUT_SECONDS',
    ],
  ] as const)('refuses %s', (_name, env, key) => {
    expect(problemsOf(env)).toContain(key);
  });
});

/** Cases the ENV_VARS table must keep: defaults by IdP mode, values in defaults, one JSON reader. */
describe(`${parseConfig.name} through ENV_VARS`, () => {
  const messagesOf = (env: RawEnv): string[] => {
    try {
      parseConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems.map((p) => `${p.key}: ${p.message}`);
      throw error;
    }
    return [];
  };
  const JWK = JSON.stringify({ kty: 'RSA', n: 'n'.repeat(342), e: 'AQAB', d: 'd' });

  it('refuses an empty APP_ENV rather than reading it as local, and judges the rest as prod', () => {
    const messages = messagesOf({ APP_ENV: '' });
    expect(messages[0]).toBe('APP_ENV: must be one of local, dev, qa, prod (got "")');
    expect(messages).toContain('PUBLIC_URL: is required in prod');
  });

  it('fills a default with the parsed value of the variable it names, without trailing slashes', () => {
    expect(parseConfig({ PORT: '04000' }).http.publicUrl).toBe('http://localhost:4000');
    const config = parseConfig({
      PUBLIC_URL: 'http://localhost:3333/',
      GRADING_BASE_URL: 'https://grading.example/',
    });
    expect(config.http.publicUrl).toBe('http://localhost:3333');
    expect(config.idp.issuer).toBe('http://localhost:3333/oauth2/default');
    expect(config.services.grading).toBe('https://grading.example');
    expect(parseConfig({ IDP_ISSUER: 'http://idp.example/o/' }).idp.issuer).toBe(
      'http://idp.example/o',
    );
  });

  it('an external IdP needs its issuer and clients in dev too, but not a secret', () => {
    // docs/brand-contract.md §1: the brands' tokens are issued to their own clients at any IdP.
    expect(messagesOf({ APP_ENV: 'dev', IDP_MODE: 'external' })).toEqual([
      'IDP_ISSUER: is required in dev',
      'IDP_CLIENT_ID: is required in dev',
      'BRAND_CLIENTS: is required in dev',
    ]);
    const external = parseConfig({
      APP_ENV: 'dev',
      IDP_MODE: 'external',
      IDP_ISSUER: 'http://idp.example',
      IDP_CLIENT_ID: 'signon',
      BRAND_CLIENTS: JSON.stringify({ pcgs: developerBrandClients().pcgs }),
    });
    expect(external.idp.clientSecret).toBe(DEVELOPER_SECRETS.IDP_CLIENT_SECRET);
    expect(external.brandClients).toEqual({ pcgs: developerBrandClients().pcgs });
    expect(parseConfig({}).brandClients).toEqual(developerBrandClients());
  });

  it('the embedded IdP in prod is refused, and it alone (its own issuer and client stand)', () => {
    expect(
      messagesOf({
        ...withRemoved(productionEnv(), 'IDP_ISSUER', 'IDP_CLIENT_ID', 'IDP_CLIENT_SECRET'),
        IDP_MODE: 'embedded',
      }),
    ).toEqual(['IDP_MODE: embedded is only allowed in local and dev, not prod']);
  });

  it('a published secret is reported as published; a malformed ring still as holding the developer key', () => {
    expect(
      messagesOf({ ...productionEnv(), IDP_CLIENT_SECRET: DEVELOPER_SECRETS.IDP_CLIENT_SECRET }),
    ).toEqual(['IDP_CLIENT_SECRET: must not be the public developer default in prod']);
    expect(
      messagesOf({ ...productionEnv(), TOKEN_ENCRYPTION_KEYS: `${DEVELOPER_TOKEN_KEY},bad` }),
    ).toEqual([
      'TOKEN_ENCRYPTION_KEYS: must be a comma-separated list of id:base64 keys of 32 bytes',
      'TOKEN_ENCRYPTION_KEYS: must not hold the published developer key in prod',
    ]);
  });

  it.each<[string, RawEnv, string[]]>([
    [
      'BRAND_URLS not JSON',
      { BRAND_URLS: '{' },
      ['BRAND_URLS: must be a JSON object keyed by brand code'],
    ],
    [
      'BRAND_URLS with a bad field',
      { BRAND_URLS: '{"pcgs":{"baseURL":"x"}}' },
      [
        'BRAND_URLS: pcgs.baseURL: must be an absolute http(s) URL without credentials, query or fragment',
      ],
    ],
    [
      'BRAND_CLIENTS not JSON',
      { BRAND_CLIENTS: 'x' },
      ['BRAND_CLIENTS: must be a JSON object keyed by brand code'],
    ],
    [
      'BACKCHANNEL_LOGOUT_URIS not JSON',
      { BACKCHANNEL_LOGOUT_URIS: '[' },
      ['BACKCHANNEL_LOGOUT_URIS: must be a JSON object of brand code to https URL'],
    ],
    [
      'SERVICE_SIGNING_KEY not JSON',
      { SERVICE_SIGNING_KEY: '{' },
      ['SERVICE_SIGNING_KEY: must be a JSON Web Key, or a JSON array of them'],
    ],
    [
      'SERVICE_SIGNING_KEY not RSA',
      { SERVICE_SIGNING_KEY: '{"kty":"EC"}' },
      expect.arrayContaining([
        expect.stringMatching(/^SERVICE_SIGNING_KEY: kty: must be an RSA key/),
      ]) as string[],
    ],
  ])('reads %s as one JSON variable', (_name, env, messages) => {
    expect(messagesOf(env)).toEqual(messages);
  });

  it('a brand client secret is as long as a secret in prod only; the signing key stays as written', () => {
    const clients = JSON.stringify({ pcgs: { clientId: 'pcgs', clientSecret: 'short' } });
    expect(messagesOf({ ...productionEnv(), BRAND_CLIENTS: clients })).toEqual([
      'BRAND_CLIENTS: pcgs.clientSecret: must be at least 32 characters',
    ]);
    expect(parseConfig({ APP_ENV: 'dev', BRAND_CLIENTS: clients }).brandClients).toEqual({
      pcgs: { clientId: 'pcgs', clientSecret: 'short' },
    });
    const written = ` ${JWK.replace(',', ', ')} `;
    expect(parseConfig({ SERVICE_SIGNING_KEY: written }).backchannel.signingKeys).toEqual([
      written,
    ]);
  });

  it('the embedded token lifetime is held to the ceiling only with the embedded IdP', () => {
    const longer = {
      IDP_ACCESS_TOKEN_TTL_SECONDS: '7200',
      ACCESS_TOKEN_MAX_LIFETIME_SECONDS: '3600',
    };
    expect(problemsOf(longer)).toEqual(['IDP_ACCESS_TOKEN_TTL_SECONDS']);
    expect(problemsOf({ ...productionEnv(), ...longer })).toEqual([]);
  });
});

/**
 * docs/security.md, weak secrets: qa and prod refuse secrets a person typed, keys with next to no
 * bytes in them, and one secret used for two purposes, naming each; more trusted proxies than the
 * deployments document is a warning. The rules: src/config/config-rules.ts, secret-strength.ts.
 */
describe('weak and shared secrets in qa and prod (docs/security.md, weak secrets)', () => {
  const prod = productionEnv();
  const clients = JSON.parse(prod.BRAND_CLIENTS ?? '{}') as Record<string, object>;
  const withBrandSecret = (brand: string, clientSecret: string) =>
    JSON.stringify({ ...clients, [brand]: { clientId: `0oa-${brand}`, clientSecret } });
  const keyOf = (bytes: Buffer) => `prod-1:${bytes.toString('base64')}`;
  /** A session secret of 32 characters, so that its bytes can be a token key too. */
  const secret32 = randomBytes(24).toString('base64');

  it.each<[string, RawEnv, string[]]>([
    [
      'a session secret of one character repeated',
      { SESSION_SECRET: 's'.repeat(40) },
      ['SESSION_SECRET'],
    ],
    [
      'a session secret of four characters in turn',
      { SESSION_SECRET: 'abcd'.repeat(10) },
      ['SESSION_SECRET'],
    ],
    [
      'a session secret that is mostly one character',
      { SESSION_SECRET: `${'a'.repeat(40)}Zq9!` },
      ['SESSION_SECRET'],
    ],
    [
      'a client secret of one character repeated',
      { IDP_CLIENT_SECRET: 'c'.repeat(40) },
      ['IDP_CLIENT_SECRET'],
    ],
    [
      'a brand secret padded with x',
      { BRAND_CLIENTS: withBrandSecret('pcgs', `pcgs-${'x'.repeat(36)}`) },
      ['BRAND_CLIENTS.pcgs.clientSecret'],
    ],
    [
      'an all-zero token key',
      { TOKEN_ENCRYPTION_KEYS: keyOf(Buffer.alloc(32)) },
      ['TOKEN_ENCRYPTION_KEYS.prod-1'],
    ],
    [
      'a token key of one byte repeated',
      { TOKEN_ENCRYPTION_KEYS: keyOf(Buffer.alloc(32, 7)) },
      ['TOKEN_ENCRYPTION_KEYS.prod-1'],
    ],
    [
      'a token key of eight bytes repeated',
      { TOKEN_ENCRYPTION_KEYS: keyOf(Buffer.concat(Array(4).fill(randomBytes(8)) as Buffer[])) },
      ['TOKEN_ENCRYPTION_KEYS.prod-1'],
    ],
    [
      'an old key of zero bytes behind a good one',
      {
        TOKEN_ENCRYPTION_KEYS: `new:${randomBytes(32).toString('base64')},old:${Buffer.alloc(32).toString('base64')}`,
      },
      ['TOKEN_ENCRYPTION_KEYS.old'],
    ],
    [
      'the session secret as the client secret',
      { IDP_CLIENT_SECRET: prod.SESSION_SECRET ?? '' },
      ['IDP_CLIENT_SECRET'],
    ],
    [
      'a token key whose base64 is the session secret',
      (() => {
        const key = randomBytes(32);
        return { SESSION_SECRET: key.toString('base64'), TOKEN_ENCRYPTION_KEYS: keyOf(key) };
      })(),
      ['TOKEN_ENCRYPTION_KEYS.prod-1'],
    ],
    [
      'a token key that is the session secret’s own bytes',
      { SESSION_SECRET: secret32, TOKEN_ENCRYPTION_KEYS: keyOf(Buffer.from(secret32, 'utf8')) },
      ['TOKEN_ENCRYPTION_KEYS.prod-1'],
    ],
    [
      'a token key as the client secret',
      { IDP_CLIENT_SECRET: (prod.TOKEN_ENCRYPTION_KEYS ?? '').split(':')[1] ?? '' },
      ['IDP_CLIENT_SECRET'],
    ],
    [
      'the client secret as a brand’s',
      { BRAND_CLIENTS: withBrandSecret('pcgs', prod.IDP_CLIENT_SECRET ?? '') },
      ['BRAND_CLIENTS.pcgs.clientSecret'],
    ],
    [
      'the session secret as a brand’s',
      { BRAND_CLIENTS: withBrandSecret('psa', prod.SESSION_SECRET ?? '') },
      ['BRAND_CLIENTS.psa.clientSecret'],
    ],
    [
      'all of them at once, each named',
      {
        SESSION_SECRET: 's'.repeat(40),
        TOKEN_ENCRYPTION_KEYS: keyOf(Buffer.alloc(32)),
        IDP_CLIENT_SECRET: 'c'.repeat(40),
        BRAND_CLIENTS: withBrandSecret('pcgs', 'x'.repeat(40)),
      },
      [
        'SESSION_SECRET',
        'TOKEN_ENCRYPTION_KEYS.prod-1',
        'IDP_CLIENT_SECRET',
        'BRAND_CLIENTS.pcgs.clientSecret',
      ],
    ],
  ])('prod refuses %s', (_name, change, keys) => {
    expect(problemsOf({ ...prod, ...change })).toEqual(keys);
    expect(problemsOf({ ...productionEnv('qa'), ...change })).toEqual(keys);
    // A rule of qa and prod: dev takes the same values.
    expect(problemsOf({ ...prod, ...change, APP_ENV: 'dev', IDP_MODE: '' })).toEqual([]);
  });

  it.each<[string, RawEnv]>([
    ['hex (openssl rand -hex 16)', { SESSION_SECRET: randomBytes(16).toString('hex') }],
    ['base64 (openssl rand -base64 32)', { SESSION_SECRET: randomBytes(32).toString('base64') }],
    ['an Okta client secret', { IDP_CLIENT_SECRET: randomBytes(30).toString('base64url') }],
    // No comma: SESSION_SECRET is a comma-separated ring (secret-ring.spec.ts).
    ['a passphrase', { SESSION_SECRET: 'correct horse battery staple; mauve ledger' }],
    ['a random token key', { TOKEN_ENCRYPTION_KEYS: keyOf(randomBytes(32)) }],
  ])('prod takes a random value: %s', (_name, change) => {
    expect(problemsOf({ ...prod, ...change })).toEqual([]);
  });

  it('says why, in the message that stops the start', () => {
    expect(() =>
      parseConfig({
        ...prod,
        TOKEN_ENCRYPTION_KEYS: keyOf(Buffer.alloc(32)),
        IDP_CLIENT_SECRET: prod.SESSION_SECRET,
        BRAND_CLIENTS: withBrandSecret('pcgs', 'x'.repeat(40)),
      }),
    ).toThrow(
      [
        'Invalid configuration (3 problems):',
        '  - TOKEN_ENCRYPTION_KEYS.prod-1: holds 1 different byte value(s) of 32 (all zero, or a byte or short pattern repeated); prod needs at least 16 (generate it: openssl rand -base64 32)',
        '  - IDP_CLIENT_SECRET: must not be the secret of SESSION_SECRET too in prod: one purpose each',
        '  - BRAND_CLIENTS.pcgs.clientSecret: has too little variety for prod: 0.00 bits of entropy a character, at least 2.5 (use a random value, e.g. openssl rand -base64 32)',
      ].join('\n'),
    );
  });

  it.each([
    ['0', false],
    ['1', false],
    ['2', true],
    ['10', true],
  ])('TRUST_PROXY=%s: a warning at start: %s, never a refusal', (hops, warned) => {
    const config = parseConfig({ ...prod, TRUST_PROXY: hops });
    expect(config.warnings.filter((w) => w.key === 'TRUST_PROXY').length).toBe(warned ? 1 : 0);
    expect(
      parseConfig({ ...prod, TRUST_PROXY: hops, APP_ENV: 'dev', IDP_MODE: '' }).warnings,
    ).toEqual([]);
  });
});

/**
 * docs/okta.md "Client authentication": IDP_CLIENT_AUTH_METHOD, and the key private_key_jwt signs
 * with, checked at start with a message that says what is wrong with it.
 */
describe('IDP_CLIENT_AUTH_METHOD and IDP_CLIENT_PRIVATE_KEY', () => {
  const prod = productionEnv();
  const rsaJwk = (modulusLength: number) =>
    generateKeyPairSync('rsa', { modulusLength }).privateKey.export({ format: 'jwk' });
  const ecJwk = (namedCurve: string) =>
    generateKeyPairSync('ec', { namedCurve }).privateKey.export({ format: 'jwk' });
  const rsa = { ...rsaJwk(2048), kid: 'signon-rsa' };
  const ec = { ...ecJwk('P-256'), kid: 'signon-ec' };
  const withKey = (key: unknown): RawEnv => ({
    ...withRemoved(prod, 'IDP_CLIENT_SECRET'),
    IDP_CLIENT_AUTH_METHOD: 'private_key_jwt',
    IDP_CLIENT_PRIVATE_KEY: typeof key === 'string' ? key : JSON.stringify(key),
  });
  const messageOf = (env: RawEnv): string => {
    try {
      parseConfig(env);
    } catch (error) {
      return (error as Error).message;
    }
    return '';
  };

  it('is client_secret_basic when unset (Okta’s default), with no key', () => {
    const { idp } = parseConfig(prod);
    expect(idp.clientAuthMethod).toBe('client_secret_basic');
    expect(idp.clientPrivateKey).toBeUndefined();
  });

  it.each([
    ['an RSA key', rsa],
    ['an EC key', ec],
  ])('private_key_jwt with %s needs no client secret, and keeps the key', (_name, key) => {
    const { idp } = parseConfig(withKey(key));
    expect(idp.clientAuthMethod).toBe('private_key_jwt');
    expect(idp.clientSecret).toBe('');
    expect(idp.clientPrivateKey).toEqual(key);
  });

  it('a secret method ignores a key left set', () => {
    const { idp } = parseConfig({ ...prod, IDP_CLIENT_PRIVATE_KEY: JSON.stringify(ec) });
    expect(idp.clientPrivateKey).toBeUndefined();
  });

  it.each([
    ['not JSON', '-----BEGIN PRIVATE KEY-----', 'must be a private JSON Web Key (JSON)'],
    ['no kid', { ...ec, kid: undefined }, 'kid: must name its kid'],
    ['the public half only', { ...ec, d: undefined }, 'd: must be a private key'],
    ['an oct key', { kty: 'oct', k: 'c2VjcmV0', kid: 'x' }, 'kty: must be an RSA or EC key'],
    [
      'RSA of 1024 bits',
      { ...rsaJwk(1024), kid: 'short' },
      'must be an RSA key of at least 2048 bits',
    ],
    ['EC on secp256k1', { ...ecJwk('secp256k1'), kid: 'k1' }, 'must be on P-256, P-384 or P-521'],
    ['an alg that does not fit', { ...ec, alg: 'RS256' }, 'alg RS256 does not fit the key (ES256)'],
    ['a point off the curve', { ...ec, x: 'AAAA' }, 'is not a usable private key'],
  ])('refuses %s, saying so', (_name, key, message) => {
    expect(messageOf(withKey(key))).toContain(`IDP_CLIENT_PRIVATE_KEY: ${message}`);
  });

  it('refuses in qa and prod a logout-token key that is also the client key: one purpose each', () => {
    const shared = { ...rsa, kid: 'shared' };
    const other = { ...rsaJwk(2048), kid: 'next' };
    const withBoth = (ring: object[]): RawEnv => ({
      ...withKey(shared),
      BACKCHANNEL_LOGOUT_URIS: JSON.stringify({ psa: 'https://www.psacard.com/logout' }),
      SERVICE_SIGNING_KEY: JSON.stringify(ring),
    });
    expect(messageOf(withBoth([other, shared]))).toContain(
      'SERVICE_SIGNING_KEY[2]: must not be the secret of IDP_CLIENT_PRIVATE_KEY too in prod',
    );
    expect(messageOf(withBoth([other]))).toBe('');
  });

  it('refuses private_key_jwt without a key in every environment', () => {
    expect(messageOf({ IDP_CLIENT_AUTH_METHOD: 'private_key_jwt' })).toContain(
      'IDP_CLIENT_PRIVATE_KEY: is required with IDP_CLIENT_AUTH_METHOD private_key_jwt',
    );
  });

  it('refuses a method Okta does not offer here', () => {
    expect(messageOf({ ...prod, IDP_CLIENT_AUTH_METHOD: 'client_secret_jwt' })).toContain(
      'IDP_CLIENT_AUTH_METHOD: must be one of client_secret_basic, client_secret_post, private_key_jwt',
    );
  });

  it('a brand may name client_secret_post, and no other method', () => {
    const clients = JSON.parse(prod.BRAND_CLIENTS ?? '{}') as Record<string, object>;
    const withMethod = (authMethod: string): RawEnv => ({
      ...prod,
      BRAND_CLIENTS: JSON.stringify({ ...clients, pcgs: { ...clients.pcgs, authMethod } }),
    });
    expect(parseConfig(withMethod('client_secret_post')).brandClients.pcgs?.authMethod).toBe(
      'client_secret_post',
    );
    expect(messageOf(withMethod('private_key_jwt'))).toContain(
      'BRAND_CLIENTS: pcgs.authMethod: must be client_secret_basic or client_secret_post',
    );
  });
});
