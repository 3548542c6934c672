import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  type JWTPayload,
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  decodeJwt,
  jwtVerify,
  type JSONWebKeySet,
} from 'jose';
import { Sessions } from '../../src/session/sessions';
import { Browser } from '../support/browser';
import { LogoutEndpoint } from '../support/logout-endpoint';
import {
  OKTA_USERS,
  type OktaStack,
  signInThroughOkta,
  startOktaStack,
} from '../support/okta-stack';
import { eventually } from '../support/process-app';
import { EMAIL, locationOf, signInVia, signOutFromThisSite } from '../support/signin-journey';
import { trustingFetch } from '../support/tls-front';
import { useTestApp } from '../support/test-app';

/**
 * Issue 49 item 2: one collector key, the same everywhere. docs/brand-contract.md "5. What `t` holds" is
 * what a brand may rely on in the `t` it receives; this reads its table and holds a real `t` of each
 * identity provider to it: the embedded IdP of local and dev, and the Okta-shaped IdP of
 * test/support/okta-idp/server.mjs (which shares no code with src/idp/). In both, `sub` is the login
 * and `uid` the user id this service keys its sessions on (the ID token's `sub`).
 */

const LONG = 90_000;

// ---------------------------------------------------------------------------------------------------
// The contract's table, as docs/brand-contract.md states it.

interface ContractRow {
  readonly claim: string;
  readonly type: string;
  readonly alwaysPresent: boolean;
}

const CONTRACT = path.join(__dirname, '../../docs/brand-contract.md');
const SECTION = '## 5. What `t` holds';
const COLUMNS = ['Claim', 'Type', 'Always present', 'Meaning'];

/** The cells of a markdown table row, trimmed (`| a | b |` → ['a', 'b']). */
const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());

/** The claim table of the section, row by row; throws when the section or its table is not there. */
function contractRows(markdown: string): ContractRow[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === SECTION);
  if (start < 0) throw new Error(`docs/brand-contract.md has no section "${SECTION}"`);
  const end = lines.findIndex((line, i) => i > start && /^#{1,2} /.test(line));
  const section = lines.slice(start + 1, end < 0 ? undefined : end);
  const first = section.findIndex((line) => line.trim().startsWith('|'));
  if (first < 0) throw new Error(`"${SECTION}" has no table`);
  const table: string[] = [];
  for (const line of section.slice(first)) {
    if (!line.trim().startsWith('|')) break;
    table.push(line);
  }
  const [header = '', rule = '', ...rows] = table;
  if (cellsOf(header).join(' | ') !== COLUMNS.join(' | '))
    throw new Error(`the table's columns are "${header}", not ${COLUMNS.join(' | ')}`);
  if (!cellsOf(rule).every((cell) => /^:?-+:?$/.test(cell)))
    throw new Error(`the table's second line is "${rule}", not its rule`);
  return rows.map((line) => {
    const [claim = '', type = '', always = ''] = cellsOf(line);
    if (always !== 'yes' && always !== 'no')
      throw new Error(`"Always present" of ${claim} is "${always}", not yes or no`);
    return { claim: claim.replace(/`/g, ''), type, alwaysPresent: always === 'yes' };
  });
}

/** What each type the table may name accepts. A type not listed here fails the test. */
const TYPES: Readonly<Record<string, (value: unknown) => boolean>> = {
  string: (v) => typeof v === 'string' && v !== '',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  'list of strings': (v) => Array.isArray(v) && v.every((s) => typeof s === 'string'),
  'number or string of digits': (v) =>
    (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) ||
    (typeof v === 'string' && /^[0-9]{1,16}$/.test(v)),
};

const rows = contractRows(fs.readFileSync(CONTRACT, 'utf8'));

describe('docs/brand-contract.md "5. What `t` holds"', () => {
  it('names at least the claims a brand needs, each with a type this test knows', () => {
    expect(rows.map((r) => r.claim)).toEqual(
      expect.arrayContaining(['iss', 'aud', 'exp', 'iat', 'jti', 'cid', 'sub', 'uid']),
    );
    expect(rows.map((r) => r.claim)).toEqual(expect.arrayContaining(['CollectorsId', 'scp']));
    expect(rows.filter((r) => !(r.type in TYPES)).map((r) => `${r.claim}: ${r.type}`)).toEqual([]);
    const always = rows.filter((r) => r.alwaysPresent).map((r) => r.claim);
    expect(always).toEqual(expect.arrayContaining(['sub', 'uid', 'scp', 'cid']));
  });
});

/**
 * Holds one token's claims to the table: every "Always present" claim is there with its type, and any
 * other claim the table names has its type when it is there. Returns the problems, so that a failure
 * names every claim at once.
 */
function breaches(claims: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  for (const row of rows) {
    const value = claims[row.claim];
    const accepts = TYPES[row.type];
    if (!accepts) problems.push(`${row.claim}: unknown type "${row.type}"`);
    else if (value === undefined) {
      if (row.alwaysPresent) problems.push(`${row.claim}: missing`);
    } else if (!accepts(value))
      problems.push(`${row.claim}: ${JSON.stringify(value)} is not a ${row.type}`);
  }
  return problems;
}

/** What a brand must check before anything else (the contract's last paragraph): RS256, iss, aud. */
async function verifiedAsABrand(
  token: string,
  issuer: string,
  audience: string,
  fetchImpl: typeof fetch = fetch,
): Promise<JWTPayload> {
  const keys = createRemoteJWKSet(new URL(`${issuer}/v1/keys`), { [customFetch]: fetchImpl });
  const { payload } = await jwtVerify(token, keys, { algorithms: ['RS256'], issuer, audience });
  return payload;
}

/** Userinfo called with `t`, as a brand may (docs/okta.md §3). */
async function userinfoWith(
  issuer: string,
  token: string,
  fetchImpl: typeof fetch = fetch,
): Promise<Record<string, unknown>> {
  const res = await fetchImpl(`${issuer}/v1/userinfo`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------------
// The embedded IdP (local and dev).

describe('the embedded IdP’s t (local and dev)', () => {
  const psa = new LogoutEndpoint();
  const t = useTestApp(async () => ({
    BACKCHANNEL_LOGOUT_URIS: JSON.stringify({ psa: await psa.start() }),
  }));
  afterAll(() => psa.stop());

  it(
    'holds to the table; uid is the user id the session is keyed on, sub the login; the logout token names uid',
    async () => {
      const browser = new Browser();
      const { landing } = await signInVia(t, browser, 'b=psa');
      const target = locationOf(landing);
      expect(target.pathname).toBe('/demo/brand/psa');
      const token = target.searchParams.get('t') ?? '';
      const si = target.searchParams.get('si') ?? '';
      const { issuer, audience } = t.config.idp;

      const claims = await verifiedAsABrand(token, issuer, audience);
      expect(breaches(claims)).toEqual([]);
      expect(claims).toMatchObject({ iss: issuer, aud: audience });
      expect(claims.sub).toBe(EMAIL);
      expect(claims.uid).not.toBe(claims.sub);

      // The user id the service keys the session on: the ID token's sub.
      const record = await t.app.get(Sessions).get(si);
      expect(record?.sub).toEqual(expect.any(String));
      expect(claims.uid).toBe(record?.sub);
      expect(decodeJwt(record?.tokens.idToken ?? '').sub).toBe(claims.uid);
      expect((await userinfoWith(issuer, token)).sub).toBe(claims.uid);

      // Sign-out: the logout token this service sends the brand names the same collector as uid.
      const before = psa.tokens.length;
      await signOutFromThisSite(browser, `${t.url}/logout/collectorsid?b=psa`);
      await eventually('a logout token at psa', () => Promise.resolve(psa.tokens.length > before));
      const keys = (await (await fetch(`${t.url}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
      const { payload: logout } = await jwtVerify(
        psa.tokens[before] ?? '',
        createLocalJWKSet(keys),
        {
          issuer: t.config.http.publicUrl,
          audience: t.config.brandClients.psa?.clientId ?? 'psa',
          algorithms: ['RS256'],
          typ: 'logout+jwt',
        },
      );
      expect(logout.sub).toBe(claims.uid);
    },
    LONG,
  );
});

// ---------------------------------------------------------------------------------------------------
// The Okta-shaped IdP (qa and prod's shape).

describe('the Okta-shaped IdP’s t (qa and prod)', () => {
  let stack: OktaStack;
  beforeAll(async () => {
    stack = await startOktaStack();
  }, 60_000);
  afterAll(() => stack?.close());

  it(
    'holds to the table; uid is the user id the session is keyed on, sub the login',
    async () => {
      const user = OKTA_USERS.plain;
      const { landed } = await signInThroughOkta(stack, user, 'b=psa');
      const target = new URL(landed.headers.get('location') ?? '', landed.url);
      expect(target.origin).toBe('https://www.psacard.com');
      const token = target.searchParams.get('t') ?? '';
      const { issuer } = stack.idp;

      const claims = await verifiedAsABrand(token, issuer, 'api://default', trustingFetch);
      expect(breaches(claims)).toEqual([]);
      expect(claims).toMatchObject({ iss: issuer, aud: 'api://default' });
      // The login, and the org's user id for this collector.
      expect(claims.sub).toBe(user.email);
      expect(claims.uid).toBe(user.uid);

      // The user id the service keys the session on (its sign-in event names it): the ID token's sub.
      const signin = stack.app
        .logs()
        .find((line) => line.event === 'signin' && line.brand === 'psa' && line.how === 'idp');
      expect(signin?.sub).toBe(claims.uid);
      expect((await userinfoWith(issuer, token, trustingFetch)).sub).toBe(claims.uid);
    },
    LONG,
  );
});
