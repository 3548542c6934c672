import * as path from 'node:path';

interface Version {
  release: number[];
  prerelease: (number | string)[];
}
interface Advisory {
  name: string;
  range: string;
  url: string;
  title: string;
  severity?: string;
}
interface List {
  advisories: Advisory[];
}
interface LockedPackage {
  name: string;
  version: string;
  where: string;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script, run by node as it is
const vulnerable = require('./known-vulnerable') as {
  parseVersion(text: string): Version | undefined;
  compareVersions(a: Version, b: Version): number;
  parseRange(range: string): unknown;
  satisfies(version: string, range: string): boolean;
  runtimePackages(lock: unknown): LockedPackage[];
  listedVersionsIn(lock: unknown, list: unknown): (LockedPackage & { advisory: Advisory })[];
  withAudit(list: unknown, report: unknown): { list: List; added: Advisory[] };
  uncheckedVersions(lock: unknown, list: unknown): string[];
  checkedAgainst(list: unknown, lock: unknown, how: string, today?: string): CheckedList;
};
interface CheckedList extends List {
  checkedAgainst: { how: string; on: string; packages: string[] };
}

const ROOT = path.resolve(__dirname, '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the files the check reads
const LOCK: unknown = require(path.join(ROOT, 'package-lock.json'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const LIST = require(path.join(ROOT, 'security/known-vulnerable.json')) as List;

/**
 * Issue 50 item 11: `npm audit` cannot reach its advisory endpoint here, so `npm test` holds the
 * lock's runtime packages to the committed list of known-bad ranges (security/known-vulnerable.json)
 * without a network. docs/security.md ("Dependencies") says how the list is updated.
 */
describe('the lock against the known-vulnerable list', () => {
  it('no runtime package of package-lock.json holds a listed version', () => {
    const hits = vulnerable
      .listedVersionsIn(LOCK, LIST)
      .map(({ name, version, advisory }) => `${name}@${version}: ${advisory.url}`);
    expect(hits).toEqual([]);
  });

  it('reads every range of the list, and checks the packages the service runs with', () => {
    expect(LIST.advisories.length).toBeGreaterThan(0);
    for (const { range } of LIST.advisories)
      expect(() => vulnerable.parseRange(range)).not.toThrow();
    const names = new Set(vulnerable.runtimePackages(LOCK).map((p) => p.name));
    for (const name of ['express', 'jose', 'openid-client', 'better-sqlite3', 'ioredis'])
      expect(names).toContain(name);
    // Development tools are not what the service runs with.
    for (const name of ['jest', 'eslint', 'typescript-eslint']) expect(names).not.toContain(name);
  });

  it('fails a lock that holds a listed version, naming the package, where and the advisory', () => {
    const lock = {
      lockfileVersion: 3,
      packages: {
        '': { name: 'collectors-signon', version: '0.1.0' },
        'node_modules/express': { version: '4.19.1' },
        'node_modules/router/node_modules/path-to-regexp': { version: '7.2.0' },
        'node_modules/jest/node_modules/semver': { version: '7.5.1', dev: true },
      },
    };
    expect(
      vulnerable
        .listedVersionsIn(lock, LIST)
        .map(({ name, version, where, advisory }) => [name, version, where, advisory.url]),
    ).toEqual([
      ['express', '4.19.1', 'node_modules/express', expect.stringContaining('GHSA-qw6h-vgh9-j6wx')],
      ['express', '4.19.1', 'node_modules/express', expect.stringContaining('GHSA-rv95-896h-c2vc')],
      [
        'path-to-regexp',
        '7.2.0',
        'node_modules/router/node_modules/path-to-regexp',
        expect.stringContaining('GHSA-9wv6-86v2-598j'),
      ],
    ]);
  });
});

/**
 * docs/security.md, "Dependencies": the list is kept in step with the lock. It records the runtime
 * versions it was last checked against; a version that enters the lock after that fails `npm test`
 * until someone checks it (npm audit where reachable, or by hand) and records it.
 */
describe('the list is checked again when the lock changes', () => {
  it('every runtime version of package-lock.json was checked against the list’s advisories', () => {
    expect(vulnerable.uncheckedVersions(LOCK, LIST)).toEqual([]);
  });

  const lockWith = (packages: Record<string, { version: string; dev?: boolean }>) => ({
    lockfileVersion: 3,
    packages: { '': { name: 'collectors-signon', version: '0.1.0' }, ...packages },
  });

  it('names each runtime version that entered the lock after the check, and only those', () => {
    const before = lockWith({
      'node_modules/jose': { version: '6.2.17' },
      'node_modules/qs': { version: '6.17.1' },
    });
    const checked = vulnerable.checkedAgainst(
      { advisories: [] },
      before,
      'npm audit',
      '2026-11-29',
    );
    expect(checked.checkedAgainst).toEqual({
      how: 'npm audit',
      on: '2026-11-29',
      packages: ['jose@6.2.17', 'qs@6.17.1'],
    });
    const after = lockWith({
      'node_modules/jose': { version: '6.2.18' },
      'node_modules/qs': { version: '6.17.1' },
      'node_modules/new-thing': { version: '1.0.0' },
      'node_modules/jest': { version: '30.0.0', dev: true },
    });
    expect(vulnerable.uncheckedVersions(after, checked)).toEqual([
      'jose@6.2.18',
      'new-thing@1.0.0',
    ]);
    // A list that was never checked against any lock holds nothing as checked.
    expect(vulnerable.uncheckedVersions(before, { advisories: [] })).toEqual([
      'jose@6.2.17',
      'qs@6.17.1',
    ]);
  });

  it('records a check only with a word on how it was made', () => {
    expect(() => vulnerable.checkedAgainst({ advisories: [] }, lockWith({}), ' ')).toThrow(
      'say how the versions were checked',
    );
  });
});

describe('runtimePackages', () => {
  it('takes every installed package but the root, links and development-only ones', () => {
    const lock = {
      lockfileVersion: 3,
      packages: {
        '': { name: 'app', version: '1.0.0' },
        'node_modules/a': { version: '1.0.0' },
        'node_modules/@scope/b': { version: '2.0.0' },
        'node_modules/a/node_modules/c': { version: '3.0.0', optional: true },
        'node_modules/d': { version: '4.0.0', devOptional: true },
        'node_modules/e': { version: '5.0.0', dev: true },
        'node_modules/f': { resolved: 'packages/f', link: true },
        'node_modules/alias': { name: 'real-name', version: '6.0.0' },
      },
    };
    expect(vulnerable.runtimePackages(lock).map((p) => `${p.name}@${p.version}`)).toEqual([
      'a@1.0.0',
      '@scope/b@2.0.0',
      'c@3.0.0',
      'd@4.0.0',
      'real-name@6.0.0',
    ]);
  });

  it('refuses a lock without packages (lockfileVersion 1)', () => {
    expect(() => vulnerable.runtimePackages({ lockfileVersion: 1, dependencies: {} })).toThrow(
      /lockfileVersion 2 or 3/,
    );
  });
});

describe('versions and ranges', () => {
  // SemVer 2.0.0 §11's own example, lowest first.
  const ORDER = [
    '1.0.0-alpha',
    '1.0.0-alpha.1',
    '1.0.0-alpha.beta',
    '1.0.0-beta',
    '1.0.0-beta.2',
    '1.0.0-beta.11',
    '1.0.0-rc.1',
    '1.0.0',
    '1.0.1',
    '1.1.0',
    '2.0.0',
    '10.0.0',
  ];
  it('orders versions by SemVer precedence', () => {
    const parsed = ORDER.map((v) => vulnerable.parseVersion(v) as Version);
    for (let i = 0; i < parsed.length; i++)
      for (let j = 0; j < parsed.length; j++)
        expect(
          Math.sign(vulnerable.compareVersions(parsed[i] as Version, parsed[j] as Version)),
        ).toBe(Math.sign(i - j));
  });

  it.each(['1.2', '1.2.x', 'a.b.c', '1.2.3.4', '01.2.3', '1.2.3-01', ''])(
    'is no version: "%s"',
    (text) => {
      expect(vulnerable.parseVersion(text)).toBeUndefined();
    },
  );

  it('ignores build metadata and a leading v', () => {
    expect(vulnerable.parseVersion('v1.2.3+build.7')).toEqual({
      release: [1, 2, 3],
      prerelease: [],
    });
  });

  it.each<[string, string, boolean]>([
    ['4.19.1', '<4.19.2', true],
    ['4.19.2', '<4.19.2', false],
    ['4.19.2', '<=4.19.2', true],
    ['1.20.3', '>1.20.2', true],
    ['1.20.2', '>1.20.2', false],
    ['6.3.0', '<5.7.2 || >=6.0.0 <6.3.1 || >=7.0.0 <7.5.2', true],
    ['6.3.1', '<5.7.2 || >=6.0.0 <6.3.1 || >=7.0.0 <7.5.2', false],
    ['7.8.6', '<5.7.2 || >=6.0.0 <6.3.1 || >=7.0.0 <7.5.2', false],
    ['5.0.0-beta.2', '<4.19.2 || >=5.0.0-alpha.1 <5.0.0-beta.3', true],
    ['5.0.0-beta.3', '<4.19.2 || >=5.0.0-alpha.1 <5.0.0-beta.3', false],
    ['5.0.0-alpha.0', '>=5.0.0-alpha.1', false],
    // Prereleases are ordered like any version: a beta of a fixed release is still before it.
    ['5.0.0-beta.1', '<5.0.0', true],
    ['1.2.3', '1.2.3', true],
    ['1.2.3', '=1.2.3', true],
    ['1.2.4', '= 1.2.3', false],
    ['1.2.2', '< 1.2.3', true],
    ['1.3.0', '1.2.0 - 1.4.0', true],
    ['1.4.1', '1.2.0 - 1.4.0', false],
    ['0.0.1', '*', true],
    ['99.0.0', '', true],
    ['not-a-version', '*', false],
  ])('%s in "%s": %s', (version, range, inside) => {
    expect(vulnerable.satisfies(version, range)).toBe(inside);
  });

  it.each(['^1.2.3', '~1.2.3', '1.x', '>=1.2', '>=1.2.3 <', 'latest'])(
    'refuses a range it does not read: "%s"',
    (range) => {
      expect(() => vulnerable.parseRange(range)).toThrow(/not a comparator on a full version/);
    },
  );
});

describe('withAudit (npm run audit:update)', () => {
  const list: List = {
    advisories: [
      { name: 'cookie', range: '<0.7.0', url: 'https://github.com/advisories/GHSA-c', title: 'c' },
    ],
  };
  /** What `npm audit --json` (auditReportVersion 2) writes: advisories, and packages vulnerable through others. */
  const report = {
    auditReportVersion: 2,
    vulnerabilities: {
      express: {
        name: 'express',
        via: [
          'cookie',
          {
            source: 1096820,
            name: 'express',
            dependency: 'express',
            title: 'Express.js Open Redirect in malformed URLs',
            url: 'https://github.com/advisories/GHSA-rv95-896h-c2vc',
            severity: 'moderate',
            range: '<4.19.2',
          },
        ],
      },
      cookie: {
        name: 'cookie',
        via: [
          {
            name: 'cookie',
            title: 'c',
            url: 'https://github.com/advisories/GHSA-c',
            severity: 'low',
            range: '<0.7.0',
          },
        ],
      },
    },
  };

  it('adds each advisory once, keeps what was listed, and sorts by package', () => {
    const { list: updated, added } = vulnerable.withAudit(list, report);
    expect(added.map((a) => a.url)).toEqual(['https://github.com/advisories/GHSA-rv95-896h-c2vc']);
    expect(updated.advisories.map((a) => `${a.name} ${a.range}`)).toEqual([
      'cookie <0.7.0',
      'express <4.19.2',
    ]);
    expect(vulnerable.withAudit(updated, report).added).toEqual([]);
  });

  it('refuses what is not an audit report', () => {
    expect(() => vulnerable.withAudit(list, { metadata: {} })).toThrow(/npm audit --json/);
  });
});
