import * as fs from 'node:fs';
import * as path from 'node:path';
import { OKTA_USERS, OktaStack, signInThroughOkta, startOktaStack } from '../support/okta-stack';
import { RunningRedis, redisCommand, startRedis } from '../support/redis-server';
import { crossSiteBrowser } from '../support/token-offers';

/**
 * Redis sizing (docs/operating.md "Redis sizing"): what the service keeps in Redis per login state,
 * per live session and its indexes, and per offer of a cross-site `t`, measured with MEMORY USAGE
 * on the keys that real sign-ins through the Okta-shaped IdP leave (the production shape: qa, an
 * external IdP, so no IdP artefacts in this Redis). The documented figures must stay within 25 % of
 * what is measured here, so the table cannot drift from the product.
 *
 * What a million collectors cost is measured too, not multiplied out: one collector's keys (a web
 * session and its two indexes, and its entry in the live-sessions set) are copied 10,000 times
 * inside Redis (DUMP and RESTORE, with their
 * time to live), and the growth of `used_memory` divided by the copies, which counts Redis's own
 * tables (the keyspace and the expiries) that MEMORY USAGE leaves out.
 */

const DOC = path.resolve(__dirname, '../../docs/operating.md');
const SECTION = '### Redis sizing';
const COPIES = 10_000;
/** How far a documented figure may be from the measured one. */
const TOLERANCE = 0.25;

type Usage = Map<string, number>;

/** Every key in the Redis now, with its MEMORY USAGE (all of a value sampled). */
async function keysWithUsage(redis: RunningRedis): Promise<Usage> {
  const usage: Usage = new Map();
  let cursor = '0';
  do {
    const [next, keys] = (await redisCommand(redis.port, 'SCAN', cursor, 'COUNT', '1000')) as [
      string,
      string[],
    ];
    cursor = next;
    for (const key of keys) {
      const bytes = await redisCommand(redis.port, 'MEMORY', 'USAGE', key, 'SAMPLES', '0');
      usage.set(key, Number(bytes));
    }
  } while (cursor !== '0');
  return usage;
}

/**
 * Keys that come and go on their own while the service idles: the revocation queue's drain lock
 * (taken every REVOCATION_RETRY_MS) and a refresh's single-flight lock.
 */
const TRANSIENT = new Set(['revocations', 'lock']);

type Added = Map<string, { key: string; bytes: number }[]>;

/** The keys that are new since `before`, by namespace (`session`, `ratelimit:signin`, ...). */
function addedByNamespace(before: Usage, after: Usage): Added {
  const added: Added = new Map();
  for (const [key, bytes] of after) {
    if (before.has(key)) continue;
    const parts = key.replace(/^cs:/, '').split(':');
    // A rate-limit counter is named by all but its last part (`ratelimit:token-offer:address`).
    const namespace = parts[0] === 'ratelimit' ? parts.slice(0, -1).join(':') : (parts[0] ?? '');
    if (TRANSIENT.has(namespace)) continue;
    added.set(namespace, [...(added.get(namespace) ?? []), { key, bytes }]);
  }
  return added;
}

/** The one new key of a namespace. */
function theKey(added: Added, namespace: string): { key: string; bytes: number } {
  const entries = added.get(namespace) ?? [];
  const [entry] = entries;
  if (entries.length !== 1 || !entry)
    throw new Error(`${entries.length} new ${namespace}: keys (new: ${[...added.keys()].join()})`);
  return entry;
}

function bytesOf(added: Added, namespace: string): number {
  return theKey(added, namespace).bytes;
}

async function usedMemory(redis: RunningRedis): Promise<number> {
  const info = String(await redisCommand(redis.port, 'INFO', 'memory'));
  return Number(/^used_memory:(\d+)/m.exec(info)?.[1]);
}

/** Copies `key` `copies` times under new names, with its time to live, inside Redis. */
async function copy(redis: RunningRedis, key: string, copies: number): Promise<void> {
  const script = `
    local payload = redis.call('DUMP', KEYS[1])
    local ttl = redis.call('PTTL', KEYS[1])
    if ttl < 0 then ttl = 0 end
    for i = 1, tonumber(ARGV[2]) do redis.call('RESTORE', ARGV[1] .. i, ttl, payload) end
    return 0`;
  await redisCommand(redis.port, 'EVAL', script, '1', key, `${key}:copy:`, String(copies));
}

/** Adds `copies` entries like the sorted set's first one (its score, a longer name) to it. */
async function copyMember(redis: RunningRedis, key: string, copies: number): Promise<void> {
  const script = `
    local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    for i = 1, tonumber(ARGV[1]) do redis.call('ZADD', KEYS[1], first[2], first[1] .. ':' .. i) end
    return 0`;
  await redisCommand(redis.port, 'EVAL', script, '1', key, String(copies));
}

/** The Bytes column of the section's table, by its first column. */
function documentedBytes(): Map<string, number> {
  const doc = fs.readFileSync(DOC, 'utf8');
  const start = doc.indexOf(`\n${SECTION}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n#', start + SECTION.length + 2);
  const rows = new Map<string, number>();
  for (const line of doc.slice(start, end === -1 ? undefined : end).split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const bytes = Number((cells[3] ?? '').replace(/,/g, ''));
    if (cells[1] && Number.isFinite(bytes) && bytes > 0) rows.set(cells[1], bytes);
  }
  return rows;
}

describe('Redis sizing, as docs/operating.md states it', () => {
  let redis: RunningRedis;
  let stack: OktaStack;
  beforeAll(async () => {
    redis = await startRedis();
    stack = await startOktaStack({ env: { SESSION_STORE: 'redis', REDIS_URL: redis.url } });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
  });

  it('login state, session, indexes, brand hop, offer: within 25 % of the table', async () => {
    const measured = new Map<string, number>();

    // A sign-in under way: its login state, until the IdP sends the collector back.
    const empty = await keysWithUsage(redis);
    await stack.browser().get(`${stack.url}/signin?b=collectors`);
    const underWay = await keysWithUsage(redis);
    const loginState = addedByNamespace(empty, underWay);
    measured.set('login state', bytesOf(loginState, 'login'));
    // A window may turn between two counts, leaving two counters: they weigh the same.
    measured.set('rate-limit counter', loginState.get('ratelimit:signin')?.[0]?.bytes ?? 0);

    // A collector's first web session: the session and the two indexes that name it.
    await signInThroughOkta(stack, OKTA_USERS.plain, 'b=collectors');
    const signedIn = await keysWithUsage(redis);
    const web = addedByNamespace(underWay, signedIn);
    expect([...web.keys()].filter((n) => !n.startsWith('ratelimit:')).sort()).toEqual([
      'live-sessions',
      'session',
      'sessions-of',
      'sessions-of-family-brand',
    ]);
    measured.set('web session', bytesOf(web, 'session'));
    measured.set('collector index', bytesOf(web, 'sessions-of'));
    measured.set('sign-in and brand index', bytesOf(web, 'sessions-of-family-brand'));

    // A sign-in through a brand's link hands the brand tokens: what that adds.
    const brand = await signInThroughOkta(stack, OKTA_USERS.plain, 'b=psa');
    const handedOver = await keysWithUsage(redis);
    const hop = addedByNamespace(signedIn, handedOver);
    measured.set('brand hop', bytesOf(hop, 'handed') + bytesOf(hop, 'brand-grants'));

    // The brand's page opened in another browser with the `t` it received: an offer.
    const t = new URL(brand.landed.headers.get('location') ?? '').searchParams.get('t') ?? '';
    const offered = await crossSiteBrowser().get(
      `http://127.0.0.1:${stack.app.port}/collection?t=${encodeURIComponent(t)}`,
    );
    expect(new URL(offered.headers.get('location') ?? '', stack.url).pathname).toBe(
      '/signin/continue',
    );
    const offer = addedByNamespace(handedOver, await keysWithUsage(redis));
    measured.set('offer', bytesOf(offer, 'token-offer') + bytesOf(offer, 'token-offered'));

    // One collector with one web session, copied: what each costs in used_memory, with its entry
    // in the live-sessions count (one sorted set for every session: its entries, not the key).
    const before = await usedMemory(redis);
    const live = theKey(web, 'live-sessions').key;
    const liveBefore = Number(
      await redisCommand(redis.port, 'MEMORY', 'USAGE', live, 'SAMPLES', '0'),
    );
    for (const namespace of ['session', 'sessions-of', 'sessions-of-family-brand'])
      await copy(redis, theKey(web, namespace).key, COPIES);
    await copyMember(redis, live, COPIES);
    const liveAfter = Number(
      await redisCommand(redis.port, 'MEMORY', 'USAGE', live, 'SAMPLES', '0'),
    );
    measured.set('live-sessions entry', Math.round((liveAfter - liveBefore) / COPIES));
    measured.set(
      'collector with one web session, in used_memory',
      Math.round(((await usedMemory(redis)) - before) / COPIES),
    );

    const documented = documentedBytes();
    const report = [...measured].map(([row, bytes]) => ({
      row,
      measured: bytes,
      documented: documented.get(row),
    }));
    // The figures, for whoever updates the table (before the checks, so a failure shows them).
    process.stdout.write(`${JSON.stringify(report)}\n`);
    for (const { row, measured: bytes, documented: stated } of report) {
      if (stated === undefined) throw new Error(`docs/operating.md has no row "${row}"`);
      expect({ row, within: Math.abs(stated - bytes) <= bytes * TOLERANCE }).toEqual({
        row,
        within: true,
      });
    }
  }, 120_000);
});
