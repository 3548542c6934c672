import { TRPCError } from '@trpc/server';
import type { Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import { AccountProfiles } from '../../src/session/account-profiles';
import { LiveSessions } from '../../src/session/live-sessions';
import { SessionEnding } from '../../src/session/session-ending';
import { Sessions } from '../../src/session/sessions';
import { SESSION_STORE } from '../../src/store/session-store';
import { AuthEvents } from '../../src/logging/auth-events';
import { AppLogger } from '../../src/logging/app-logger';
import { AppRouterFactory } from '../../src/api/app-router-factory';
import { CSRF_HEADER, createCallerFactory } from '../../src/api/trpc';
import { createTrpcContext } from '../../src/api/trpc.middleware';
import { SignedIn, signedInSession } from '../support/account-api';
import { useTestApp } from '../support/test-app';

/**
 * The account API's rules (§7, §8, docs/design.md "CSRF"), called through tRPC's createCaller with the
 * context HTTP calls get (createTrpcContext), on the router the real app builds: real session store,
 * real embedded IdP, nothing mocked. Only the request and response objects are plain stand-ins.
 */

const FOREIGN = 'https://evil.example';
const t = useTestApp();
let publicOrigin: string;
const callerFactory = (factory: AppRouterFactory) => createCallerFactory(factory.build());
let createCaller: ReturnType<typeof callerFactory>;

interface CallOptions {
  readonly cookie?: string;
  /** The CSRF header's value; null leaves it out. */
  readonly csrf?: string | null;
  readonly origin?: string;
  readonly ip?: string;
}

/** A caller as one HTTP request would be: its headers, its address, and the cookies it is sent. */
function caller(options: CallOptions = {}) {
  const headers: Record<string, string> = {};
  if (options.csrf !== null) headers[CSRF_HEADER] = options.csrf ?? '1';
  if (options.origin !== undefined) headers.origin = options.origin;
  if (options.cookie !== undefined) headers.cookie = options.cookie;
  const req = { headers, query: {}, ip: options.ip ?? '192.0.2.1' } as unknown as Request;
  const setCookies: string[] = [];
  const res = {
    append(name: string, value: string) {
      if (name.toLowerCase() === 'set-cookie') setCookies.push(value);
      return res;
    },
  } as unknown as Response;
  const liveSessions = t.app.get(LiveSessions);
  return {
    api: createCaller(() => createTrpcContext(req, res, { liveSessions, publicOrigin })),
    setCookies,
  };
}

/** The tRPC code a call failed with, or 'OK'. */
async function outcome(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'OK';
  } catch (error) {
    if (error instanceof TRPCError) return error.code;
    throw error;
  }
}

const live = async (s: SignedIn) => (await t.app.get(Sessions).get(s.sessionId)) !== undefined;
const effectLines = () =>
  t.logs.records.filter((r) => r.msg === 'client error' || r.event === 'signin').length;
/** A well-formed session id that names no session. */
const nobodysSession = () => randomBytes(32).toString('base64url');

beforeAll(() => {
  publicOrigin = new URL(t.config.http.publicUrl).origin;
  createCaller = callerFactory(t.app.get(AppRouterFactory));
}, 60_000);

describe('CSRF (docs/design.md): mutations need x-collectors-csrf: 1 and, if an Origin is sent, this site’s', () => {
  let collector: SignedIn;
  beforeAll(async () => {
    collector = await signedInSession(t);
  }, 60_000);

  type Api = ReturnType<typeof caller>['api'];
  const MUTATIONS: [string, (api: Api, s: SignedIn) => Promise<unknown>][] = [
    [
      'account.updateAccountInfoPartial',
      (api) => api.account.updateAccountInfoPartial({ acceptedTermsAndConditions: true }),
    ],
    ['account.signout', (api, s) => api.account.signout({ cidSessionIdentifier: s.sessionId })],
    ['log.signinEvent', (api) => api.log.signinEvent({ b: 'psa' })],
    ['log.clientError', (api) => api.log.clientError({ message: 'm', path: '/' })],
    ['cookie.setCookie', (api) => api.cookie.setCookie({ cookieName: 'theme', value: 'dark' })],
  ];
  const REFUSED: [string, CallOptions][] = [
    ['no CSRF header', { csrf: null }],
    ['an empty CSRF header', { csrf: '' }],
    ["CSRF header '0'", { csrf: '0' }],
    ["CSRF header 'true'", { csrf: 'true' }],
    ['a foreign Origin', { origin: FOREIGN }],
    ['Origin null (a sandboxed or privacy-sensitive context)', { origin: 'null' }],
    ['this host on another port', { origin: 'http://localhost:1' }],
    ['this host over https', { origin: 'https://localhost' }],
    ['a foreign Origin without the header (a cross-site form)', { csrf: null, origin: FOREIGN }],
  ];
  const cases = MUTATIONS.flatMap(([name, call]) =>
    REFUSED.map(([why, options]) => [name, why, options, call] as const),
  );

  it.each(cases)(
    '%s with %s is FORBIDDEN and changes nothing',
    async (_name, _why, options, call) => {
      const profileBefore = await t.app
        .get(AccountProfiles)
        .get((await t.app.get(Sessions).get(collector.sessionId))?.sub ?? '');
      const linesBefore = effectLines();
      const { api, setCookies } = caller({ ...options, cookie: collector.cookie });
      expect(await outcome(call(api, collector))).toBe('FORBIDDEN');
      expect(setCookies).toEqual([]);
      expect(await live(collector)).toBe(true);
      expect(effectLines()).toBe(linesBefore);
      expect(
        await t.app
          .get(AccountProfiles)
          .get((await t.app.get(Sessions).get(collector.sessionId))?.sub ?? ''),
      ).toEqual(profileBefore);
    },
  );

  it('the CSRF check comes before input validation and before the session', async () => {
    const { api } = caller({ csrf: null });
    expect(await outcome(api.cookie.setCookie({ cookieName: 'theme', value: 'blue' }))).toBe(
      'FORBIDDEN',
    );
    expect(
      await outcome(api.account.updateAccountInfoPartial({ acceptedTermsAndConditions: true })),
    ).toBe('FORBIDDEN');
  });

  it.each([
    ['this site’s Origin', true],
    ['no Origin (a caller that is not a browser)', false],
  ])('with the header and %s a mutation goes through', async (_why, sameOrigin) => {
    const { api, setCookies } = caller(sameOrigin ? { origin: publicOrigin } : {});
    await expect(api.cookie.setCookie({ cookieName: 'theme', value: 'light' })).resolves.toEqual({
      set: true,
    });
    expect(setCookies).toEqual([expect.stringMatching(/^theme=light; /)]);
  });

  it('queries need neither the header nor this site’s Origin: they have no side effects', async () => {
    const { api } = caller({ csrf: null, origin: FOREIGN, cookie: collector.cookie });
    await expect(api.account.status()).resolves.toMatchObject({ isSignedIn: true });
  });
});

describe('UNAUTHORIZED without a session (§8), except log.signinEvent', () => {
  const signedOutCookies: [string, string | undefined][] = [
    ['no cookie', undefined],
    ['a session id that names no session', `sessionId=${nobodysSession()}`],
    ['a malformed session id', 'sessionId=not-a-session'],
    ['an empty session id', 'sessionId='],
  ];

  describe.each(signedOutCookies)('with %s', (_name, cookie) => {
    const as = () => caller(cookie === undefined ? {} : { cookie }).api;

    it('account.updateAccountInfoPartial is UNAUTHORIZED', async () => {
      expect(
        await outcome(as().account.updateAccountInfoPartial({ acceptedTermsAndConditions: true })),
      ).toBe('UNAUTHORIZED');
    });

    it('account.signout is UNAUTHORIZED, whichever session it names', async () => {
      expect(await outcome(as().account.signout({ cidSessionIdentifier: nobodysSession() }))).toBe(
        'UNAUTHORIZED',
      );
    });

    it('account.status answers signed out (a query that needs no session)', async () => {
      expect(await as().account.status()).toEqual({
        isSignedIn: false,
        isMigrating: false,
        setupMfa: false,
        showSurvey: false,
      });
    });

    it('log.signinEvent is never UNAUTHORIZED (§8’s exception): without a live session it records nothing (issue 32 item 4)', async () => {
      const before = t.logs.lines.length;
      await expect(as().log.signinEvent({ b: 'powerpacks' })).resolves.toEqual({ recorded: false });
      const lines = t.logs.records.slice(before).filter((r) => r.event === 'signin');
      expect(lines).toEqual([]);
    });

    it('log.clientError and cookie.setCookie need no session', async () => {
      await expect(
        as().log.clientError({ message: 'render failed', path: '/collection' }),
      ).resolves.toEqual({ correlationId: expect.any(String) });
      await expect(as().cookie.setCookie({ cookieName: 'theme', value: 'dark' })).resolves.toEqual({
        set: true,
      });
    });
  });

  it('a signed-in log.signinEvent carries the subject', async () => {
    const s = await signedInSession(t);
    const record = await t.app.get(Sessions).get(s.sessionId);
    const before = t.logs.lines.length;
    await caller({ cookie: s.cookie }).api.log.signinEvent({ b: 'pcgs' });
    expect(t.logs.records.slice(before).filter((r) => r.event === 'signin')).toEqual([
      expect.objectContaining({
        brand: 'pcgs',
        sub: record?.sub,
        collectorsId: record?.collectorsId,
      }),
    ]);
  }, 60_000);
});

describe('account.signout ends only the caller’s own session', () => {
  let other: SignedIn;
  beforeAll(async () => {
    other = await signedInSession(t, 'japan@example.com');
  }, 60_000);

  it('another collector’s session id is FORBIDDEN, and both sessions live on', async () => {
    const me = await signedInSession(t);
    const { api } = caller({ cookie: me.cookie });
    expect(await outcome(api.account.signout({ cidSessionIdentifier: other.sessionId }))).toBe(
      'FORBIDDEN',
    );
    expect(await outcome(api.account.signout({ cidSessionIdentifier: nobodysSession() }))).toBe(
      'FORBIDDEN',
    );
    expect(await live(me)).toBe(true);
    expect(await live(other)).toBe(true);
  }, 60_000);

  it('a signed-out caller naming someone’s session is UNAUTHORIZED, and it lives on', async () => {
    const { api } = caller();
    expect(await outcome(api.account.signout({ cidSessionIdentifier: other.sessionId }))).toBe(
      'UNAUTHORIZED',
    );
    expect(await live(other)).toBe(true);
  });

  it('the own session id ends the own session only; the next call is UNAUTHORIZED', async () => {
    const me = await signedInSession(t);
    const { api } = caller({ cookie: me.cookie });
    await expect(api.account.signout({ cidSessionIdentifier: me.sessionId })).resolves.toEqual({
      signedOut: true,
    });
    expect(await live(me)).toBe(false);
    expect(await live(other)).toBe(true);
    expect(await caller({ cookie: me.cookie }).api.account.status()).toMatchObject({
      isSignedIn: false,
    });
    expect(
      await outcome(
        caller({ cookie: me.cookie }).api.account.signout({ cidSessionIdentifier: me.sessionId }),
      ),
    ).toBe('UNAUTHORIZED');
  }, 60_000);
});

describe('account.status: the §3 auth user state from the session’s ID token', () => {
  it.each([
    ['collector@example.com', { isMigrating: false, setupMfa: false, showSurvey: false }],
    // Issue 14 item 10: the embedded IdP completes a migration during the sign-in (welcome, name),
    // so the token no longer says isMigrating.
    ['migrating@example.com', { isMigrating: false, setupMfa: false, showSurvey: false }],
    // "Not now": the set-up is still required (setupMfa); the session holds promptMfaSignin false.
    ['mfa-setup@example.com', { isMigrating: false, setupMfa: true, showSurvey: false }],
    // The survey was shown during the sign-in and put off (issue 14 item 6): not pending again in
    // this IdP session. Flags that turn true after a sign-in are in journey-pending-steps.spec.ts.
    ['survey@example.com', { isMigrating: false, setupMfa: false, showSurvey: false }],
  ])(
    '%s',
    async (email, flags) => {
      const s = await signedInSession(t, email);
      const status = await caller({ cookie: s.cookie }).api.account.status();
      expect(status).toEqual({ isSignedIn: true, ...flags, collectorsId: expect.any(Number) });
      const record = await t.app.get(Sessions).get(s.sessionId);
      expect(status.collectorsId).toBe(record?.collectorsId);
    },
    60_000,
  );

  it('takes no input', async () => {
    const { api } = caller();
    // @ts-expect-error -- the type says no input; a JavaScript caller may still send one.
    expect(await outcome(api.account.status({}))).toBe('BAD_REQUEST');
  });
});

describe('log.clientError (§8): a correlation id per report, size-capped, limited per address', () => {
  const ip = (n: number) => `203.0.113.${n}`;

  it('answers a fresh UUID that names the report’s log line', async () => {
    const { api } = caller({ ip: ip(1) });
    const a = await api.log.clientError({ message: 'TypeError: x', path: '/collection?t=tok' });
    const b = await api.log.clientError({ message: 'TypeError: x', path: '/collection?t=tok' });
    expect(a.correlationId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(b.correlationId).not.toBe(a.correlationId);
    const line = t.logs.records.find((r) => r.correlationId === a.correlationId);
    expect(line).toMatchObject({
      msg: 'client error',
      clientMessage: 'TypeError: x',
      path: '/collection',
    });
  });

  it.each([
    ['message', 2000, 'OK'],
    ['message', 2001, 'BAD_REQUEST'],
    ['path', 2048, 'OK'],
    ['path', 2049, 'BAD_REQUEST'],
  ] as const)('a %s of %i characters: %s', async (field, length, expected) => {
    const input = {
      message: 'm',
      path: '/',
      [field]: field === 'path' ? `/${'p'.repeat(length - 1)}` : 'm'.repeat(length),
    };
    const before = t.logs.records.filter((r) => r.msg === 'client error').length;
    expect(await outcome(caller({ ip: ip(2) }).api.log.clientError(input))).toBe(expected);
    expect(t.logs.records.filter((r) => r.msg === 'client error').length).toBe(
      before + (expected === 'OK' ? 1 : 0),
    );
  });

  it('past the per-address limit an address is refused TOO_MANY_REQUESTS; another is not', async () => {
    const { limit } = t.config.rateLimit.clientErrors;
    const busy = caller({ ip: ip(3) }).api;
    for (let i = 0; i < limit; i++) await busy.log.clientError({ message: 'm', path: '/' });
    expect(await outcome(busy.log.clientError({ message: 'm', path: '/' }))).toBe(
      'TOO_MANY_REQUESTS',
    );
    await expect(
      caller({ ip: ip(4) }).api.log.clientError({ message: 'm', path: '/' }),
    ).resolves.toEqual({ correlationId: expect.any(String) });
  });
});

describe('cookie.setCookie on an https site (§9: Secure except on localhost)', () => {
  it('refuses a request to drop Secure, and sets Secure by default', async () => {
    const httpsConfig = {
      ...t.config,
      http: { ...t.config.http, publicUrl: 'https://signin.collectors.com' },
    };
    const factory = new AppRouterFactory(
      httpsConfig,
      t.app.get(Sessions),
      t.app.get(AccountProfiles),
      t.app.get(AuthEvents),
      await t.app.resolve(AppLogger),
      t.app.get(SESSION_STORE),
      t.app.get(SessionEnding),
    );
    const httpsCaller = createCallerFactory(factory.build());
    const setCookies: string[] = [];
    const res = {
      append: (_name: string, value: string) => setCookies.push(value),
    } as unknown as Response;
    const req = {
      headers: { [CSRF_HEADER]: '1' },
      query: {},
      ip: '192.0.2.9',
    } as unknown as Request;
    const api = httpsCaller(() =>
      createTrpcContext(req, res, {
        liveSessions: t.app.get(LiveSessions),
        publicOrigin: 'https://signin.collectors.com',
      }),
    );
    await expect(
      api.cookie.setCookie({ cookieName: 'theme', value: 'dark', secure: false }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/^secure: /) });
    expect(setCookies).toEqual([]);
    await api.cookie.setCookie({ cookieName: 'theme', value: 'dark' });
    expect(setCookies).toHaveLength(1);
    expect(setCookies[0]).toMatch(/; Secure/i);
  });
});
