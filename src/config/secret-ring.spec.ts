import { exportJWK, generateKeyPair } from 'jose';
import { randomBytes } from 'node:crypto';
import { productionEnv } from '../../test/support/test-config';
import { ConfigError, DEVELOPER_SECRETS, RawEnv, parseConfig } from './config.schema';
import { MAX_RING_SECRETS, readSecretRing } from './secret-ring';

/** A random secret of 44 characters, as `openssl rand -base64 32` writes one. */
const secret = (): string => randomBytes(32).toString('base64');
const NEW = secret();
const ONE = 'one purpose each';
const OLD = secret();
const OLDER = secret();

/**
 * SESSION_SECRET as a ring (docs/operating.md "Rotating secrets"): what the text means, secret by
 * secret, newest first.
 */
describe(readSecretRing.name, () => {
  it.each<[string, string, readonly string[]]>([
    ['one secret, as before rings', OLD, [OLD]],
    ['the next secret added second (step 1)', `${OLD},${NEW}`, [OLD, NEW]],
    ['the next secret moved first (step 2)', `${NEW},${OLD}`, [NEW, OLD]],
    ['three, newest first', `${NEW},${OLD},${OLDER}`, [NEW, OLD, OLDER]],
    ['a lone secret ending in a newline, kept as it always named', `${OLD}\n`, [`${OLD}\n`]],
    ['spaces inside a secret', 'correct horse battery staple', ['correct horse battery staple']],
    ['the outer ends of a ring kept as written', ` ${NEW},${OLD}\n`, [` ${NEW}`, `${OLD}\n`]],
  ])('reads %s', (_name, text, secrets) => {
    expect(readSecretRing(text)).toEqual({ secrets });
  });

  it.each<[string, string, string]>([
    ['an empty entry in the middle', `${NEW},,${OLD}`, 'secret 2 of 3 is empty'],
    ['a trailing comma', `${NEW},`, 'secret 2 of 2 is empty'],
    ['a leading comma', `,${NEW}`, 'secret 1 of 2 is empty'],
    ['a space after a comma', `${NEW}, ${OLD}`, 'secret 2 of 2 starts with whitespace'],
    ['a space before a comma', `${NEW} ,${OLD}`, 'secret 1 of 2 ends with whitespace'],
    [
      'a passphrase with a comma, read as two secrets',
      'correct horse battery staple, mauve ledger',
      'secret 2 of 2 starts with whitespace',
    ],
    ['the same secret twice', `${NEW},${OLD},${NEW}`, 'secret 3 of 3 repeats secret 1'],
    [
      'more secrets than a lookup should try',
      Array.from({ length: MAX_RING_SECRETS + 1 }, secret).join(','),
      `holds ${MAX_RING_SECRETS + 1} secrets; at most ${MAX_RING_SECRETS}`,
    ],
  ])('refuses %s', (_name, text, problem) => {
    const reading = readSecretRing(text);
    expect('problem' in reading && reading.problem).toContain(problem);
  });
});

function problemsOf(env: RawEnv): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.key}: ${p.message}`);
    throw error;
  }
  return [];
}

/** The qa/prod rules hold for every secret of the ring (docs/security.md, weak secrets). */
describe('SESSION_SECRET as a ring in parseConfig', () => {
  const prod = productionEnv();

  it('gives the ring to the service, newest first', () => {
    expect(parseConfig({ ...prod, SESSION_SECRET: `${NEW},${OLD}` }).sessionSecrets).toEqual([
      NEW,
      OLD,
    ]);
    expect(parseConfig({}).sessionSecrets).toEqual([DEVELOPER_SECRETS.SESSION_SECRET]);
  });

  it.each<[string, string, string[]]>([
    [
      'a short secret second',
      `${NEW},short`,
      ['SESSION_SECRET[2]: must be at least 32 characters in prod'],
    ],
    [
      'the published developer secret as the old one',
      `${NEW},${DEVELOPER_SECRETS.SESSION_SECRET}`,
      ['SESSION_SECRET[2]: must not be the public developer default in prod'],
    ],
    [
      'a typed secret first',
      `${'s'.repeat(40)},${OLD}`,
      [expect.stringMatching(/^SESSION_SECRET\[1\]: has too little variety for prod/) as string],
    ],
    [
      'an empty entry, named with the ring',
      `${NEW},,${OLD}`,
      [expect.stringMatching(/^SESSION_SECRET: secret 2 of 3 is empty/) as string],
    ],
    [
      'the client secret in the ring',
      `${NEW},${prod.IDP_CLIENT_SECRET}`,
      [`IDP_CLIENT_SECRET: must not be the secret of SESSION_SECRET[2] too in prod: ${ONE}`],
    ],
  ])('in prod refuses %s', (_name, ring, problems) => {
    expect(problemsOf({ ...prod, SESSION_SECRET: ring })).toEqual(problems);
  });

  it('in prod refuses a token key that is the old secret of the ring (its base64 bytes)', () => {
    expect(
      problemsOf({ ...prod, SESSION_SECRET: `${NEW},${OLD}`, TOKEN_ENCRYPTION_KEYS: `k1:${OLD}` }),
    ).toEqual([
      `TOKEN_ENCRYPTION_KEYS.k1: must not be the secret of SESSION_SECRET[2] too in prod: ${ONE}`,
    ]);
  });

  it('local and dev take a ring of any secrets, but not a malformed one', () => {
    expect(problemsOf({ APP_ENV: 'dev', SESSION_SECRET: 'a,b' })).toEqual([]);
    expect(problemsOf({ APP_ENV: 'dev', SESSION_SECRET: 'a,a' })).toEqual([
      'SESSION_SECRET: secret 2 of 2 repeats secret 1: each secret appears once',
    ]);
  });
});

/** SERVICE_SIGNING_KEY as a ring: one JWK as before, or a JSON array of them, newest first. */
describe('SERVICE_SIGNING_KEY as a ring in parseConfig', () => {
  let first: string;
  let second: string;
  beforeAll(async () => {
    const jwk = async () =>
      exportJWK(
        (await generateKeyPair('RS256', { modulusLength: 2048, extractable: true })).privateKey,
      );
    first = JSON.stringify(await jwk());
    second = JSON.stringify(await jwk());
  });
  const keysOf = (text: string) =>
    parseConfig({ SERVICE_SIGNING_KEY: text }).backchannel.signingKeys;

  it('reads one key as it was written, and an array as its keys in order', () => {
    expect(keysOf(first)).toEqual([first]);
    expect(keysOf(`[${second},${first}]`)).toEqual([second, first]);
  });

  it.each<[string, () => string, string]>([
    ['an empty array', () => '[]', 'SERVICE_SIGNING_KEY: must hold at least one key'],
    [
      'a key twice',
      () => `[${first},${second},${first}]`,
      'SERVICE_SIGNING_KEY: key 2 repeats key 0: one of each',
    ],
    [
      'a public key second',
      () => `[${first},${JSON.stringify({ ...JSON.parse(second), d: undefined })}]`,
      'SERVICE_SIGNING_KEY: 1.d: Invalid input: expected string, received undefined',
    ],
    [
      'four keys',
      () => `[${first},${second},${first},${second}]`,
      'SERVICE_SIGNING_KEY: must hold at most 3 keys',
    ],
    ['two keys joined by a comma', () => `${first},${second}`, 'must be a JSON Web Key'],
  ])('refuses %s', (_name, text, problem) => {
    expect(problemsOf({ SERVICE_SIGNING_KEY: text() })).toEqual([expect.stringContaining(problem)]);
  });
});

/**
 * A brand's previous client secret in BRAND_CLIENTS, while the brand rotates (docs/okta.md "Rotating
 * client secrets"): judged as every secret is.
 */
describe('BRAND_CLIENTS previousClientSecret in parseConfig', () => {
  const prod = productionEnv();
  const clients = JSON.parse(prod.BRAND_CLIENTS ?? '{}') as Record<
    string,
    { clientId: string; clientSecret: string }
  >;
  const withPrevious = (previous: string): RawEnv => ({
    ...prod,
    BRAND_CLIENTS: JSON.stringify({
      ...clients,
      pcgs: { ...clients.pcgs, previousClientSecret: previous },
    }),
  });

  it('gives it to the service beside the current secret', () => {
    const previous = secret();
    expect(parseConfig(withPrevious(previous)).brandClients.pcgs).toEqual({
      ...clients.pcgs,
      previousClientSecret: previous,
    });
  });

  it.each<[string, () => string, string]>([
    [
      'the current secret again',
      () => clients.pcgs?.clientSecret ?? '',
      'BRAND_CLIENTS: pcgs.previousClientSecret: must differ from clientSecret',
    ],
    [
      'a short one',
      () => 'short',
      'BRAND_CLIENTS: pcgs.previousClientSecret: must be at least 32 characters',
    ],
    [
      'a typed one',
      () => `pcgs-${'x'.repeat(36)}`,
      'BRAND_CLIENTS.pcgs.previousClientSecret: has too little variety for prod',
    ],
    [
      'a published developer secret',
      () => 'local-dev-brand-secret-pcgs-not-for-real-use',
      'BRAND_CLIENTS.pcgs.previousClientSecret: must not be a published developer secret in prod',
    ],
    [
      'the service’s own client secret',
      () => prod.IDP_CLIENT_SECRET ?? '',
      'BRAND_CLIENTS.pcgs.previousClientSecret: must not be the secret of IDP_CLIENT_SECRET',
    ],
  ])('in prod refuses %s', (_name, previous, problem) => {
    expect(problemsOf(withPrevious(previous()))).toEqual([expect.stringContaining(problem)]);
  });
});
