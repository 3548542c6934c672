import { generateKeyPairSync, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { productionEnv } from '../../test/support/test-config';
import { APP_ENVS } from '../shared/environment';
import { ConfigError, RawEnv, parseConfig } from './config.schema';
import { ConfigProblem } from './brand-directory';
import { isWarningRule } from './config-rules';
import {
  DEVELOPER_TOKEN_KEY,
  ENV_VARS,
  EnvVar,
  QaProdRule,
  developerBrandClients,
  schemaOf,
} from './env-vars';
import { PROJECT_ROOT } from './project-paths';

const entries = Object.entries(ENV_VARS) as [string, EnvVar][];
/** A private RSA JWK, as SERVICE_SIGNING_KEY holds one. */
const signingKey = JSON.stringify(
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
);
/** A private EC JWK with its kid, as IDP_CLIENT_PRIVATE_KEY holds one. */
const IDP_CLIENT_PRIVATE_KEY = JSON.stringify({
  ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }),
  kid: 'signon-1',
});

function problemsOf(env: RawEnv): ConfigProblem[] {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  return [];
}

function without(env: Record<string, string>, key: string): RawEnv {
  const copy: Record<string, string> = { ...env };
  delete copy[key];
  return copy;
}

/** The rows of the configuration table under a README heading: variable, the two default columns. */
function readmeRows(section: string): Map<string, { developer: string; qaProd: string }> {
  const readme = fs.readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${section}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + 1);
  const rows = new Map<string, { developer: string; qaProd: string }>();
  for (const line of readme.slice(start, end === -1 ? undefined : end).split('\n')) {
    const cells = line
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split(/\s\|\s/)
      .map((c) => c.trim());
    const name = /^`([A-Z][A-Z0-9_]*\*?)`$/.exec(cells[0] ?? '')?.[1];
    if (name) rows.set(name, { developer: cells[1] ?? '', qaProd: cells[2] ?? '' });
  }
  return rows;
}

/** A cell that shows one value: `3333`, or `2592000` (30 days). */
const shownValue = (cell: string): string | undefined =>
  /^`([^`]+)`(?:\s+\([^)]*\))?$/.exec(cell)?.[1];
/** A cell that says there is no value: —, none, empty. */
const showsNone = (cell: string): boolean => /^(—|none|empty)(\s+\(.*\))?$/.test(cell);

describe('ENV_VARS and the README configuration table', () => {
  const sections = [...new Set(entries.map(([, e]) => e.readme))];
  const rows = new Map(
    sections.flatMap((s) => [...readmeRows(s)].map(([n, r]) => [n, { ...r, s }])),
  );

  it('documents every variable of the table in its README section', () => {
    const undocumented = entries
      .filter(([name, entry]) => rows.get(name)?.s !== entry.readme)
      .map(([name]) => name);
    expect(undocumented).toEqual([]);
  });

  it('documents no variable the table does not have', () => {
    expect([...rows.keys()].filter((name) => !(name in ENV_VARS))).toEqual([]);
  });

  it('shows the defaults the table has, where it shows one', () => {
    const mismatches: string[] = [];
    for (const [name, entry] of entries) {
      const row = rows.get(name);
      if (!row) continue;
      const local = entry.defaults.local ?? entry.defaults.embedded;
      const dev = entry.defaults.dev ?? entry.defaults.embedded;
      const shown = shownValue(row.developer);
      if (shown !== undefined && (shown !== local || shown !== dev))
        mismatches.push(`${name} local/dev: README ${shown}, table ${local} / ${dev}`);
      const devOnly = /; dev: `([^`]+)`$/.exec(row.developer)?.[1];
      if (devOnly !== undefined && devOnly !== dev)
        mismatches.push(`${name} dev: README ${devOnly}, table ${dev}`);
      if (showsNone(row.developer) && local !== undefined)
        mismatches.push(`${name} local: README none, table ${local}`);
      const strict = shownValue(row.qaProd);
      if (strict !== undefined && (strict !== entry.defaults.qa || strict !== entry.defaults.prod))
        mismatches.push(
          `${name} qa/prod: README ${strict}, table ${entry.defaults.qa} / ${entry.defaults.prod}`,
        );
    }
    expect(mismatches).toEqual([]);
  });

  // The README's qa / prod column names the rules in words.
  const WORDS: [QaProdRule, RegExp][] = [
    ['required', /^required(?! with)/],
    ['https', /\bhttps\b/],
    ['secret', /≥ 32 chars/],
    ['varied', /\bvaried\b(?! keys)/],
    ['varied-keys', /\bvaried keys\b/],
    ['single-purpose', /\bits own\b/],
    ['documented-hops', /\bwarned above 1\b/],
    ['no-embedded-idp', /embedded refused/],
    ['with-backchannel', /^required with `BACKCHANNEL_LOGOUT_URIS`/],
    ['with-secret-auth', /^secret methods: /],
    ['with-private-key-jwt', /^required with `private_key_jwt`/],
    ['every-redirect-brand', /every redirect brand/],
    ['redirect-brands-only', /redirect brands only/],
  ];
  it.each(WORDS)(
    'says "%s" in the qa / prod column exactly where the table has it',
    (rule, words) => {
      const says = [...rows].filter(([, row]) => words.test(row.qaProd)).map(([n]) => n);
      const has = entries.filter(([, e]) => e.qaProd.includes(rule)).map(([n]) => n);
      expect(says.sort()).toEqual(has.sort());
    },
  );
});

describe('ENV_VARS defaults', () => {
  it.each(entries.filter(([, e]) => e.schema !== undefined))('%s: each default parses', (_n, e) => {
    for (const env of APP_ENVS) {
      const text = (e.defaults[env] ?? e.defaults.embedded)
        ?.replace('$PORT', '3333')
        .replace('$PUBLIC_URL', 'https://signin.collectors.com');
      if (text !== undefined) expect(schemaOf(e, env)?.safeParse(text).error).toBeUndefined();
    }
  });
});

/**
 * Each declared qa/prod rule, broken in prod: parseConfig refuses it, naming the variable. The same
 * value in dev is accepted, so the rule, not the schema, refused it.
 */
describe('ENV_VARS qa/prod rules, as parseConfig applies them', () => {
  const brandUrls = JSON.parse(productionEnv().BRAND_URLS ?? '{}') as Record<string, object>;
  const productionClients = JSON.parse(productionEnv().BRAND_CLIENTS ?? '{}') as Record<
    string,
    object
  >;
  const PLAIN_HTTP: Record<string, string> = {
    BRAND_URLS: JSON.stringify({ ...brandUrls, pcgs: { baseURL: 'http://www.pcgs.com' } }),
    BACKCHANNEL_LOGOUT_URIS: JSON.stringify({ pcgs: 'http://www.pcgs.com/logout' }),
  };
  /** How to break each rule for one variable: the environment, and the problem's key. */
  const BREAK: Record<QaProdRule, (name: string, e: EnvVar) => [RawEnv, string]> = {
    required: (name) => [without(productionEnv(), name), name],
    https: (name) => [
      { ...productionEnv(), [name]: PLAIN_HTTP[name] ?? 'http://signin.example.com' },
      name === 'BRAND_URLS' ? 'BRAND_URLS.pcgs.baseURL' : name,
    ],
    secret: (name, e) => [{ ...productionEnv(), [name]: e.defaults.local ?? '' }, name],
    'no-developer-key': (name) => [{ ...productionEnv(), [name]: DEVELOPER_TOKEN_KEY }, name],
    'no-developer-brand-secret': (name) => [
      {
        ...productionEnv(),
        [name]: JSON.stringify({ ...productionClients, pcgs: developerBrandClients().pcgs }),
      },
      `${name}.pcgs.clientSecret`,
    ],
    'every-redirect-brand': (name) => {
      const { pcgs: _dropped, ...others } = productionClients;
      return [{ ...productionEnv(), [name]: JSON.stringify(others) }, `${name}.pcgs`];
    },
    'redirect-brands-only': (name) => [
      {
        ...productionEnv(),
        SERVICE_SIGNING_KEY: signingKey,
        [name]: JSON.stringify({ goldin: 'https://goldin.co/logout' }),
      },
      `${name}.goldin`,
    ],
    // docs/security.md, weak secrets: the fixtures' own secrets are random; these are what a person
    // types.
    varied: (name) =>
      name === 'BRAND_CLIENTS'
        ? [
            {
              ...productionEnv(),
              [name]: JSON.stringify({
                ...productionClients,
                pcgs: { clientId: '0oa-pcgs', clientSecret: `pcgs-${'x'.repeat(36)}` },
              }),
            },
            `${name}.pcgs.clientSecret`,
          ]
        : [{ ...productionEnv(), [name]: name.charAt(0).toLowerCase().repeat(40) }, name],
    'varied-keys': (name) => [
      { ...productionEnv(), [name]: `prod-1:${Buffer.alloc(32).toString('base64')}` },
      `${name}.prod-1`,
    ],
    'single-purpose': (name) => {
      const env = productionEnv();
      // A base64 text is the key it decodes to: the session secret used as a token key too.
      const key = randomBytes(32).toString('base64');
      if (name === 'TOKEN_ENCRYPTION_KEYS')
        return [{ ...env, SESSION_SECRET: key, [name]: `k1:${key}` }, `${name}.k1`];
      if (name === 'BRAND_CLIENTS')
        return [
          {
            ...env,
            [name]: JSON.stringify({
              ...productionClients,
              pcgs: { clientId: '0oa-pcgs', clientSecret: env.IDP_CLIENT_SECRET },
            }),
          },
          `${name}.pcgs.clientSecret`,
        ];
      if (name === 'SERVICE_SIGNING_KEY') {
        // The key that proves the service to the IdP, also signing the brands' logout tokens.
        const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
          format: 'jwk',
        });
        return [
          {
            ...env,
            IDP_CLIENT_AUTH_METHOD: 'private_key_jwt',
            IDP_CLIENT_PRIVATE_KEY: JSON.stringify({ ...jwk, kid: 'signon' }),
            BACKCHANNEL_LOGOUT_URIS: JSON.stringify({ pcgs: 'https://www.pcgs.com/logout' }),
            [name]: JSON.stringify(jwk),
          },
          name,
        ];
      }
      return [{ ...env, [name]: env.SESSION_SECRET ?? '' }, name];
    },
    'documented-hops': (name) => [{ ...productionEnv(), [name]: '2' }, name],
    'no-embedded-idp': (name) => [{ ...productionEnv(), [name]: 'embedded' }, name],
    'with-backchannel': (name) => [
      {
        ...without(productionEnv(), name),
        BACKCHANNEL_LOGOUT_URIS: JSON.stringify({ pcgs: 'https://www.pcgs.com/logout' }),
      },
      name,
    ],
    // The secret methods (the default among them) send the secret: without it nothing can sign in.
    'with-secret-auth': (name) => [
      { ...without(productionEnv(), name), IDP_CLIENT_AUTH_METHOD: 'client_secret_post' },
      name,
    ],
    // In dev too: private_key_jwt without its key would fail every sign-in, so the start refuses.
    'with-private-key-jwt': (name) => [
      { ...without(productionEnv(), name), IDP_CLIENT_AUTH_METHOD: 'private_key_jwt' },
      name,
    ],
  };
  const declared = entries.flatMap(([name, e]) => e.qaProd.map((rule) => [name, rule, e] as const));

  /** Rules that hold in every environment: dev refuses the broken value too. */
  const EVERYWHERE: readonly QaProdRule[] = ['with-private-key-jwt'];

  it.each(declared.filter(([, rule]) => !isWarningRule(rule)))('%s: %s', (name, rule, e) => {
    const [env, key] = BREAK[rule](name, e);
    const problems = problemsOf(env).map((p) => p.key);
    expect(problems).toEqual([key]);
    const developerEnv = { ...env, APP_ENV: 'dev', IDP_MODE: '' };
    expect(problemsOf(developerEnv).map((p) => p.key)).toEqual(
      EVERYWHERE.includes(rule) ? [key] : [],
    );
  });

  // A warning rule starts the service, and says why at start (the warnings app.factory.ts logs).
  it.each(declared.filter(([, rule]) => isWarningRule(rule)))(
    '%s: %s (a warning)',
    (name, rule, e) => {
      const [env, key] = BREAK[rule](name, e);
      expect(parseConfig(env).warnings.map((w) => w.key)).toEqual([key]);
      expect(parseConfig({ ...env, APP_ENV: 'dev', IDP_MODE: '' }).warnings).toEqual([]);
    },
  );

  it.each(entries.filter(([, e]) => e.schema && !e.qaProd.includes('required')))(
    '%s may be left unset in prod (with private_key_jwt for the client secret)',
    (name) => {
      // IDP_CLIENT_SECRET is required with the default method (its rule above), not with this one.
      const env =
        name === 'IDP_CLIENT_SECRET'
          ? {
              ...productionEnv(),
              IDP_CLIENT_AUTH_METHOD: 'private_key_jwt',
              IDP_CLIENT_PRIVATE_KEY,
            }
          : productionEnv();
      expect(problemsOf(without(env, name)).filter((p) => p.key === name)).toEqual([]);
    },
  );
});

describe('one place reads the environment (docs/design.md "Style" rule 4)', () => {
  it('no file of src/ but src/config/load-config.ts mentions process.env', () => {
    const readers: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.spec.ts')) {
          const code = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''); // comments may name it
          if (/process\s*\.\s*env\b|process\s*\[/.test(code))
            readers.push(path.relative(PROJECT_ROOT, file));
        }
      }
    };
    walk(path.join(PROJECT_ROOT, 'src'));
    expect(readers).toEqual(['src/config/load-config.ts']);
  });
});
