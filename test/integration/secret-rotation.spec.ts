import {
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  jwtVerify,
} from 'jose';
import type { JSONWebKeySet, JWK } from 'jose';
import { randomBytes } from 'node:crypto';
import { Browser } from '../support/browser';
import { LogoutEndpoint } from '../support/logout-endpoint';
import { startRedis, type RunningRedis } from '../support/redis-server';
import { RoundRobinProxy } from '../support/round-robin-proxy';
import {
  basicAuth,
  exchangeHandoff,
  jarCookie,
  locationOf,
  signInVia,
  signOutFromThisSite,
} from '../support/signin-journey';
import { developerBrandClients } from '../../src/config/config.schema';
import { TestApp, startTestApp } from '../support/test-app';
import { tempDataDir } from '../support/test-config';
import { freePort } from '../support/free-port';

/**
 * Secrets that rotate without signing anyone out (docs/operating.md "Rotating secrets"). Real
 * sign-ins through the embedded IdP, a real SQLite file kept across restarts, a real redis-server
 * shared by two instances, and a brand that verifies logout tokens with the published JWKS.
 */

const secret = (): string => randomBytes(32).toString('base64');

/** Whether the browser is signed in at this address: /collection shows only to a collector. */
async function signedInAt(url: string, cookie: string): Promise<boolean> {
  const res = await fetch(`${url}/collection`, { headers: { cookie }, redirect: 'manual' });
  if (res.status === 200) return true;
  expect(res.status).toBe(302);
  expect(res.headers.get('location')).toMatch(/\/signin/);
  return false;
}

const unknownSessionLines = (t: TestApp) =>
  t.logs.records.filter((r) => r.event === 'session-unknown');

describe('SESSION_SECRET rotated across restarts, one SQLite file', () => {
  const OLD = secret();
  const NEW = secret();
  let port: string;
  let dataDir: string;
  let t: TestApp | undefined;

  const restart = async (ring: string): Promise<TestApp> => {
    await t?.close();
    t = await startTestApp({ PORT: port, DATA_DIR: dataDir, SESSION_SECRET: ring });
    return t;
  };

  beforeAll(async () => {
    port = String(await freePort());
    dataDir = tempDataDir();
  });
  afterAll(() => t?.close());

  /** A collector who signs in now, and the cookies their browser holds. */
  async function signIn(app: TestApp): Promise<string> {
    const browser = new Browser();
    const { landing } = await signInVia(app, browser, 'b=collectors');
    expect(landing.status).toBe(302);
    expect(await jarCookie(browser, app.url, 'sessionId')).toEqual(expect.any(String));
    return browser.jar.getCookieString(app.url);
  }

  it('signed in through NEW,OLD; with NEW alone the old session is refused cleanly', async () => {
    const before = await signIn(await restart(OLD));
    expect(await signedInAt(t!.url, before)).toBe(true);

    // The new secret moved first: sessions made under the old one are still found.
    const rotated = await restart(`${NEW},${OLD}`);
    expect(await signedInAt(rotated.url, before)).toBe(true);
    const after = await signIn(rotated);
    expect(await signedInAt(rotated.url, after)).toBe(true);
    // Still signed in on the next visits (each reads, touches and finds the same record).
    expect(await signedInAt(rotated.url, before)).toBe(true);
    expect(unknownSessionLines(rotated)).toEqual([]);

    // The old secret retired: its sessions are no sessions, the service answers and says why.
    const retired = await restart(NEW);
    expect(await signedInAt(retired.url, before)).toBe(false);
    expect(await signedInAt(retired.url, after)).toBe(true);
    expect(unknownSessionLines(retired)).toEqual([
      expect.objectContaining({
        level: 30, // info
        msg: expect.stringContaining(
          'made under a SESSION_SECRET or sealed with a TOKEN_ENCRYPTION_KEYS key not in the ring',
        ) as string,
      }),
    ]);
    // Nothing crashed: the collector signs in again, under the new secret.
    expect(await signedInAt(retired.url, await signIn(retired))).toBe(true);
  }, 120_000);
});

/** The rings rotated in two steps: the variable, and how one of its secrets is written. */
const RINGS: [string, (name: string) => string][] = [
  ['SESSION_SECRET', () => secret()],
  // The token key that seals each session's tokens (one id:base64 entry of the ring).
  ['TOKEN_ENCRYPTION_KEYS', (name) => `${name}:${randomBytes(32).toString('base64')}`],
];

/**
 * A rolling update: old and new pods share the session store and serve the same browsers, so each
 * must find, and open, the sessions the other makes. Two instances behind a round-robin balancer,
 * sharing one Redis (the embedded IdP's state included, as in multi-instance.spec.ts).
 */
describe.each(RINGS)(
  '%s rotated by a rolling update, two instances sharing Redis',
  (variable, entry) => {
    const OLD = entry('old');
    const NEW = entry('new');
    let redis: RunningRedis;
    const proxy = new RoundRobinProxy();
    let publicUrl: string;
    let shared: Record<string, string>;
    const running = new Map<'a' | 'b' | 'c', TestApp>();

    const instance = (name: 'a' | 'b' | 'c'): TestApp => {
      const app = running.get(name);
      if (!app) throw new Error(`instance ${name} is not running`);
      return app;
    };
    /** Replaces one instance with one running `ring`, as the rollout replaces a pod. */
    const roll = async (name: 'a' | 'b' | 'c', ring: string): Promise<TestApp> => {
      await running.get(name)?.close();
      const app = await startTestApp({ ...shared, [variable]: ring });
      running.set(name, app);
      return app;
    };
    const stop = async (name: 'a' | 'b' | 'c') => {
      await running.get(name)?.close();
      running.delete(name);
    };

    beforeAll(async () => {
      redis = await startRedis();
      publicUrl = `http://localhost:${await proxy.listen()}`;
      shared = {
        SESSION_STORE: 'redis',
        REDIS_URL: redis.url,
        PUBLIC_URL: publicUrl,
        DATA_DIR: tempDataDir(),
        RATE_LIMIT_SIGNIN: '200/60',
        RATE_LIMIT_SIGNIN_SESSION: '1000/60',
      };
      await roll('a', OLD);
      await roll('b', OLD);
    }, 90_000);
    afterAll(async () => {
      await proxy.close();
      for (const name of [...running.keys()]) await stop(name);
      await redis?.stop();
    });

    /** A sign-in whose every hop (the IdP's included) goes to one instance: the session is its. */
    async function signInThrough(name: 'a' | 'b' | 'c'): Promise<string> {
      proxy.backends = [instance(name).url];
      const browser = new Browser();
      const { landing } = await signInVia(
        { ...instance(name), url: publicUrl },
        browser,
        'b=collectors',
      );
      expect(landing.status).toBe(302);
      return browser.jar.getCookieString(publicUrl);
    }

    /** Which of the instances find the session. */
    async function acceptedBy(cookie: string): Promise<string[]> {
      const names: string[] = [];
      for (const [name, app] of running) if (await signedInAt(app.url, cookie)) names.push(name);
      return names;
    }

    const sessions: string[] = [];

    it('step 1: an instance with OLD,NEW and one with OLD take each other’s sessions', async () => {
      sessions.push(await signInThrough('a'));
      await roll('b', `${OLD},${NEW}`);
      sessions.push(await signInThrough('b'), await signInThrough('a'));
      for (const cookie of sessions) expect(await acceptedBy(cookie)).toEqual(['a', 'b']);
    }, 90_000);

    it('why step 1 first: sessions NEW,OLD makes are not found by OLD alone', async () => {
      await roll('c', `${NEW},${OLD}`);
      const skipped = await signInThrough('c');
      // a (OLD alone) sends the collector to sign in; b (OLD,NEW) and c find the session.
      expect(await acceptedBy(skipped)).toEqual(['b', 'c']);
      expect(unknownSessionLines(instance('a')).length).toBeGreaterThan(0);
      // Flapping, not lost: a's refusal ended nothing.
      expect(await signedInAt(instance('c').url, skipped)).toBe(true);
      await stop('c');
    }, 90_000);

    it('step 2: NEW,OLD and OLD,NEW instances take every session, old and new', async () => {
      await roll('a', `${NEW},${OLD}`);
      sessions.push(await signInThrough('a'), await signInThrough('b'));
      for (const cookie of sessions) expect(await acceptedBy(cookie)).toEqual(['a', 'b']);
      await roll('b', `${NEW},${OLD}`);
      sessions.push(await signInThrough('b'));
      for (const cookie of sessions) expect(await acceptedBy(cookie)).toEqual(['a', 'b']);
    }, 90_000);

    it('a session refreshed on both orders of the ring at once stays signed in', async () => {
      // Short-lived access tokens, so that the next requests refresh, on both instances at once.
      const shortLived = { ...shared, IDP_ACCESS_TOKEN_TTL_SECONDS: '1' };
      for (const [name, ring] of [
        ['a', `${NEW},${OLD}`],
        ['b', `${OLD},${NEW}`],
      ] as const) {
        await running.get(name)?.close();
        running.set(name, await startTestApp({ ...shortLived, [variable]: ring }));
      }
      const cookie = await signInThrough('a');
      const madeUnderOld = sessions[0] ?? '';
      for (let round = 0; round < 3; round++) {
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        // Both instances refresh the session's tokens at once: each must write the record where it
        // is and take the same refresh lock. Had each taken the key its own first secret names,
        // both would refresh with the same refresh token, and the IdP would refuse the second:
        // signed out.
        const answers = await Promise.all(
          [cookie, madeUnderOld].flatMap((c) =>
            [instance('a'), instance('b')].map((app) => signedInAt(app.url, c)),
          ),
        );
        expect(answers).toEqual([true, true, true, true]);
      }
    }, 90_000);
  },
);

/**
 * SERVICE_SIGNING_KEY as a ring: a brand verifies logout tokens with the JWKS it fetched and cached
 * (Cache-Control: max-age=300). The next key is published (step 1) before it signs (step 2), so the
 * JWKS the brand holds from step 1 already verifies the first token the next key signs.
 */
describe('SERVICE_SIGNING_KEY rotated: the next key is published before it signs', () => {
  const psa = new LogoutEndpoint([200]);
  let current: JWK;
  let next: JWK;
  let env: Record<string, string>;
  let t: TestApp | undefined;

  const privateJwk = async (): Promise<JWK> =>
    exportJWK(
      (await generateKeyPair('RS256', { modulusLength: 2048, extractable: true })).privateKey,
    );
  const restart = async (ring: JWK[]): Promise<TestApp> => {
    await t?.close();
    t = await startTestApp({
      ...env,
      SERVICE_SIGNING_KEY: ring.length === 1 ? JSON.stringify(ring[0]) : JSON.stringify(ring),
    });
    return t;
  };
  const jwksOf = async (app: TestApp): Promise<JSONWebKeySet> => {
    const res = await fetch(`${app.url}/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    return (await res.json()) as JSONWebKeySet;
  };

  /** A collector who signs in to psa and signs out: the logout token psa receives. */
  async function logoutToken(app: TestApp): Promise<string> {
    const before = psa.tokens.length;
    const browser = new Browser();
    await signInVia(app, browser, 'b=psa');
    await signOutFromThisSite(browser, `${app.url}/logout/collectorsid?b=psa`);
    const deadline = Date.now() + 15_000;
    while (psa.tokens.length === before && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const token = psa.tokens[before];
    if (!token) throw new Error('psa received no logout token');
    return token;
  }

  beforeAll(async () => {
    [current, next] = await Promise.all([privateJwk(), privateJwk()]);
    env = {
      PORT: String(await freePort()),
      DATA_DIR: tempDataDir(),
      BACKCHANNEL_LOGOUT_URIS: JSON.stringify({ psa: await psa.start() }),
    };
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await psa.stop();
  });

  it('publishes the next key, then signs with it: the JWKS cached at step 1 verifies', async () => {
    const verify = async (token: string, jwks: JSONWebKeySet, app: TestApp) =>
      jwtVerify(token, createLocalJWKSet(jwks), {
        issuer: app.config.http.publicUrl,
        audience: app.config.brandClients.psa?.clientId ?? 'no client',
        algorithms: ['RS256'],
      });

    const before = await restart([current]);
    const published = await jwksOf(before);
    expect(published.keys).toHaveLength(1);
    const currentKid = published.keys[0]?.kid;
    expect(decodeProtectedHeader(await logoutToken(before)).kid).toBe(currentKid);

    // Step 1: the next key is published, second; the current one still signs.
    const stepOne = await restart([current, next]);
    const cached = await jwksOf(stepOne);
    expect(cached.keys.map((k) => k.kid)).toEqual([currentKid, expect.any(String)]);
    const nextKid = cached.keys[1]?.kid;
    expect(nextKid).not.toBe(currentKid);
    for (const key of cached.keys)
      expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    const stillCurrent = await logoutToken(stepOne);
    expect(decodeProtectedHeader(stillCurrent).kid).toBe(currentKid);
    await expect(verify(stillCurrent, cached, stepOne)).resolves.toBeDefined();

    // Step 2: the next key signs. The brand has not fetched the JWKS again: its cached copy
    // verifies.
    const stepTwo = await restart([next, current]);
    const signedByNext = await logoutToken(stepTwo);
    expect(decodeProtectedHeader(signedByNext).kid).toBe(nextKid);
    await expect(verify(signedByNext, cached, stepTwo)).resolves.toBeDefined();
    // The JWKS fetched before step 1 would not have: that is why step 1 comes first.
    await expect(verify(signedByNext, published, stepTwo)).rejects.toThrow();
    // The retired key is still published, for tokens it signed that are still being retried.
    expect((await jwksOf(stepTwo)).keys.map((k) => k.kid)).toEqual([nextKid, currentKid]);
  }, 120_000);
});

/**
 * A brand rotating its client secret (docs/okta.md "Rotating client secrets"): with its previous
 * secret in BRAND_CLIENTS, the brand's back end redeems handoff codes with either, so it moves to
 * the new one in its own time. The service itself uses the new one at the IdP (here the embedded
 * IdP, which registers the brand's client with it: every hop's grant for the brand proves it).
 */
describe('a brand rotating its client secret: the handoff endpoint takes the previous one too', () => {
  const developer = developerBrandClients();
  const previous = developer.psamobile?.clientSecret ?? '';
  const NEW = secret();
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await startTestApp({
      BRAND_CLIENTS: JSON.stringify({
        ...developer,
        psamobile: {
          clientId: 'brand-psamobile',
          clientSecret: NEW,
          previousClientSecret: previous,
        },
      }),
    });
  }, 60_000);
  afterAll(() => t?.close());

  /** A fresh handoff code for psamobile: a real sign-in, its hop's grant made with the new secret. */
  async function handoffCode(app: TestApp): Promise<string> {
    const { landing } = await signInVia(app, new Browser(), 'b=psamobile');
    const code = locationOf(landing).searchParams.get('code');
    if (!code) throw new Error('no handoff code');
    return code;
  }

  it.each<[string, number, () => string]>([
    ['the new secret', 200, () => NEW],
    ['the previous secret', 200, () => previous],
    ['a secret it never had', 401, () => secret()],
  ])(
    'redeems a code with %s: %d',
    async (_name, status, secretOf) => {
      const app = t!;
      const code = await handoffCode(app);
      const res = await exchangeHandoff(app, basicAuth('brand-psamobile', secretOf()), { code });
      expect(res.status).toBe(status);
      if (status === 200) expect(res.json.refresh_token).toEqual(expect.any(String));
      else expect(res.json.error).toBe('invalid_client');
    },
    60_000,
  );
});
