#!/usr/bin/env node
// Issue 50 item 11: the runtime dependencies of package-lock.json against a committed list of known-bad
// version ranges (security/known-vulnerable.json), with no network: `npm audit` cannot reach its
// advisory endpoint from the machines the tests run on. scripts/known-vulnerable.spec.ts runs the
// check in `npm test`; docs/security.md ("Dependencies") says how the list is kept up to date.
//
//   node scripts/known-vulnerable.js                  the check: exit 1, naming each listed version
//   npm audit --json --omit=dev | node scripts/known-vulnerable.js --update -
//                                                     where the advisory service is reachable: add
//                                                     what npm audit reports to the list and
//                                                     record the lock's runtime packages as checked
//   node scripts/known-vulnerable.js --reviewed "how"  where it is not: record them as checked by
//                                                     hand, saying how
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const LOCK_FILE = path.join(ROOT, 'package-lock.json');
const LIST_FILE = path.join(ROOT, 'security', 'known-vulnerable.json');

// ---------------------------------------------------------------------------------------------------
// Versions and ranges: the part of node-semver the advisories' ranges use, small enough to test whole.

const VERSION =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/**
 * A full version (`1.2.3`, `5.0.0-beta.3`, build metadata ignored) as numbers and prerelease ids, or
 * undefined when it is not one.
 */
function parseVersion(text) {
  const match = VERSION.exec(String(text).trim());
  if (!match) return undefined;
  const prerelease = match[4] === undefined ? [] : match[4].split('.');
  if (prerelease.some((id) => id === '' || (/^\d+$/.test(id) && id.length > 1 && id[0] === '0')))
    return undefined;
  return {
    release: [Number(match[1]), Number(match[2]), Number(match[3])],
    prerelease: prerelease.map((id) => (/^\d+$/.test(id) ? Number(id) : id)),
  };
}

/** SemVer 2.0.0 §11 precedence: negative, zero or positive as a is lower, equal or higher. */
function compareVersions(a, b) {
  for (let i = 0; i < 3; i++) if (a.release[i] !== b.release[i]) return a.release[i] - b.release[i];
  // A version without a prerelease is higher than the same version with one.
  if (a.prerelease.length === 0 || b.prerelease.length === 0)
    return b.prerelease.length - a.prerelease.length;
  for (let i = 0; i < Math.max(a.prerelease.length, b.prerelease.length); i++) {
    const [x, y] = [a.prerelease[i], b.prerelease[i]];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    // Numeric identifiers are lower than alphanumeric ones; alphanumeric ones compare as ASCII.
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

const OPERATORS = {
  '<': (order) => order < 0,
  '<=': (order) => order <= 0,
  '>': (order) => order > 0,
  '>=': (order) => order >= 0,
  '=': (order) => order === 0,
};

/**
 * A range as the advisories write them: comparators (`<`, `<=`, `>`, `>=`, `=` or none, on full
 * versions) joined by spaces (all must hold), alternatives joined by `||`, `*` for every version, and
 * `a - b` for `>=a <=b`. Anything else (`^`, `~`, `1.x`) throws, so that a list cannot hold a range
 * this check would misread. Prereleases are ordered like any version (node-semver's
 * includePrerelease): `<5.0.0` holds 5.0.0-beta.1, the cautious reading for a list of bad versions.
 */
function parseRange(range) {
  return String(range)
    .split('||')
    .map((alternative) => {
      const text = alternative.trim().replace(/(<=|>=|<|>|=)\s+/g, '$1');
      if (text === '' || text === '*') return [];
      const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
      const parts = hyphen ? [`>=${hyphen[1]}`, `<=${hyphen[2]}`] : text.split(/\s+/);
      return parts.map((part) => {
        const [, operator, version] = /^(<=|>=|<|>|=)?(.*)$/.exec(part);
        const parsed = parseVersion(version);
        if (!parsed)
          throw new Error(`range "${range}": "${part}" is not a comparator on a full version`);
        return { test: OPERATORS[operator ?? '='], version: parsed };
      });
    });
}

/** Whether a version lies in a range (parseRange says which ranges it reads). */
function satisfies(version, range) {
  const parsed = parseVersion(version);
  if (!parsed) return false;
  return parseRange(range).some((comparators) =>
    comparators.every(({ test, version: bound }) => test(compareVersions(parsed, bound))),
  );
}

// ---------------------------------------------------------------------------------------------------
// The lock and the list.

/**
 * Every package the service runs with, as the lock (lockfileVersion 2 or 3) installs it: each entry
 * of `packages` but the root, links and what only development needs (`dev`). `devOptional` stays: it
 * is an optional dependency of something the service runs.
 */
function runtimePackages(lock) {
  if (!lock || typeof lock.packages !== 'object')
    throw new Error('package-lock.json has no "packages" (lockfileVersion 2 or 3 is needed)');
  const found = [];
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (where === '' || entry.link || entry.dev || typeof entry.version !== 'string') continue;
    const name =
      entry.name ?? where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
    found.push({ name, version: entry.version, where });
  }
  return found;
}

/** The list's entries, each checked: a name, a range parseRange reads, and where it comes from. */
function readList(list) {
  if (!list || !Array.isArray(list.advisories))
    throw new Error('security/known-vulnerable.json has no "advisories" array');
  for (const advisory of list.advisories) {
    for (const field of ['name', 'range', 'url', 'title'])
      if (typeof advisory[field] !== 'string' || advisory[field] === '')
        throw new Error(`an advisory without its ${field}: ${JSON.stringify(advisory)}`);
    parseRange(advisory.range);
  }
  return list.advisories;
}

/** Each runtime package of the lock whose version a listed advisory names, with the advisory. */
function listedVersionsIn(lock, list) {
  const advisories = readList(list);
  return runtimePackages(lock).flatMap((pkg) =>
    advisories
      .filter((advisory) => advisory.name === pkg.name && satisfies(pkg.version, advisory.range))
      .map((advisory) => ({ ...pkg, advisory })),
  );
}

/**
 * The list with what an `npm audit --json` report (auditReportVersion 2) names added: each advisory
 * (a `via` entry that is an object, not the name of another vulnerable package), once per package
 * and URL; entries already listed stay as they are.
 */
function withAudit(list, report) {
  if (!report || typeof report.vulnerabilities !== 'object')
    throw new Error('not an npm audit --json report (no "vulnerabilities")');
  const advisories = [...readList(list)];
  const known = new Set(advisories.map((a) => `${a.name} ${a.url}`));
  const added = [];
  for (const vulnerability of Object.values(report.vulnerabilities)) {
    for (const via of vulnerability.via ?? []) {
      if (typeof via !== 'object' || !via.name || !via.url || !via.range) continue;
      if (known.has(`${via.name} ${via.url}`)) continue;
      parseRange(via.range);
      const advisory = {
        name: via.name,
        range: via.range,
        url: via.url,
        title: via.title ?? via.url,
        ...(via.severity ? { severity: via.severity } : {}),
      };
      known.add(`${via.name} ${via.url}`);
      advisories.push(advisory);
      added.push(advisory);
    }
  }
  advisories.sort((a, b) => a.name.localeCompare(b.name) || a.url.localeCompare(b.url));
  return { list: { ...list, advisories }, added };
}

/** Each runtime package of the lock as `name@version`, sorted, once. */
function lockedVersions(lock) {
  return [...new Set(runtimePackages(lock).map((p) => `${p.name}@${p.version}`))].sort();
}

/**
 * The runtime versions the lock holds that the list was never checked against: the list keeps, in
 * `checkedAgainst.packages`, the versions the lock held when it was last brought up to date (by npm
 * audit, or by a person where the advisory service is unreachable), so that a lock that changes
 * without the list fails `npm test`, naming each new version (docs/security.md, "Dependencies").
 */
function uncheckedVersions(lock, list) {
  const checked = new Set(list?.checkedAgainst?.packages ?? []);
  return lockedVersions(lock).filter((version) => !checked.has(version));
}

/** The list, recorded as checked against this lock's runtime packages today, and how. */
function checkedAgainst(list, lock, how, today = new Date().toISOString().slice(0, 10)) {
  if (typeof how !== 'string' || how.trim() === '')
    throw new Error('say how the versions were checked');
  return {
    ...list,
    checkedAgainst: { how: how.trim(), on: today, packages: lockedVersions(lock) },
  };
}

// ---------------------------------------------------------------------------------------------------
// The command.

function readJson(file) {
  return JSON.parse(fs.readFileSync(file === '-' ? 0 : file, 'utf8'));
}

function check() {
  const [lock, list] = [readJson(LOCK_FILE), readJson(LIST_FILE)];
  const unchecked = uncheckedVersions(lock, list);
  for (const version of unchecked.slice(0, 20))
    console.error(`${version} was never checked against advisories`);
  if (unchecked.length > 20) console.error(`… and ${unchecked.length - 20} more`);
  if (unchecked.length > 0) {
    console.error(
      `\n${unchecked.length} runtime version(s) entered package-lock.json after the list was ` +
        'last checked: run `npm run audit:update` where the advisory service is reachable, or ' +
        'check them by hand and run `node scripts/known-vulnerable.js --reviewed "how"` ' +
        '(docs/security.md).',
    );
    return 1;
  }
  const hits = listedVersionsIn(lock, list);
  for (const { name, version, where, advisory } of hits)
    console.error(
      `${name}@${version} (${where}) is listed: ${advisory.title}, ${advisory.range} (${advisory.url})`,
    );
  if (hits.length > 0) {
    console.error(
      `\n${hits.length} runtime package(s) of package-lock.json hold a known-vulnerable version.`,
    );
    return 1;
  }
  console.log(
    'No runtime package of package-lock.json holds a version security/known-vulnerable.json lists.',
  );
  return 0;
}

function update(reportFile) {
  const { list, added } = withAudit(readJson(LIST_FILE), readJson(reportFile));
  const checked = checkedAgainst(list, readJson(LOCK_FILE), 'npm audit --omit=dev');
  fs.writeFileSync(LIST_FILE, `${JSON.stringify(checked, null, 2)}\n`);
  for (const a of added) console.log(`added ${a.name} ${a.range}: ${a.title} (${a.url})`);
  console.log(`${added.length} advisory(ies) added to security/known-vulnerable.json`);
  return 0;
}

function reviewed(how) {
  const list = checkedAgainst(readJson(LIST_FILE), readJson(LOCK_FILE), how);
  fs.writeFileSync(LIST_FILE, `${JSON.stringify(list, null, 2)}\n`);
  console.log(
    `${list.checkedAgainst.packages.length} runtime versions recorded as checked: ${how}`,
  );
  return 0;
}

if (require.main === module) {
  const [flag, file] = process.argv.slice(2);
  process.exitCode =
    flag === '--update' ? update(file ?? '-') : flag === '--reviewed' ? reviewed(file) : check();
}

module.exports = {
  checkedAgainst,
  compareVersions,
  listedVersionsIn,
  parseRange,
  parseVersion,
  runtimePackages,
  satisfies,
  uncheckedVersions,
  withAudit,
};
