import { execFileSync } from 'node:child_process';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { Browser, BrowserResponse } from '../support/browser';
import {
  OKTA_USERS,
  OktaStack,
  PCGS_CLIENT,
  PSAMOBILE_CLIENT,
  SERVICE_CLIENT,
  accountStatusOf,
  signInThroughOkta,
  startOktaStack,
  throughOkta,
} from '../support/okta-stack';
import { eventually } from '../support/process-app';
import {
  basicAuth,
  pageText,
  signOutFromThisSite,
  throughBrandGrant,
} from '../support/signin-journey';
import { trustingFetch } from '../support/tls-front';
import { pressOnConfirmation } from '../support/token-offers';
import type { Runtime } from '../support/runtimes';

/** The external-IdP journeys (okta-journeys.spec.ts), on the runtime given (issue 31 items 2 and 6). */
export function oktaJourneys(runtime: () => Runtime): void {
  /**
   * Issue 31 item 2: every journey against an IdP this project did not write, the way production runs
   * it: `npm start`'s process with APP_ENV=qa and IDP_MODE=external, TLS terminated in front
   * (TRUST_PROXY=1), an Okta-shaped IdP (test/support/okta-idp/server.mjs) in a process of its own.
   */
  let stack: OktaStack;
  beforeAll(async () => {
    stack = await startOktaStack({ runtime: runtime() });
  }, 60_000);
  afterAll(() => stack?.close());

  const where = (res: BrowserResponse): URL => new URL(res.headers.get('location') ?? '', res.url);

  /** A top-level navigation, as a browser sends it (Fetch Metadata). */
  const NAVIGATION = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };

  /** The app's JSON log line about a request that `match` picks, once the process has written it. */
  async function logLine(
    correlationId: string,
    match: (line: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>> {
    let found: Record<string, unknown> | undefined;
    await eventually(
      `a log line for ${correlationId}`,
      () => {
        found = stack.app
          .logs()
          .find(
            (l) =>
              (l.correlationId === correlationId ||
                (l.req as { id?: string } | undefined)?.id === correlationId) &&
              match(l),
          );
        return Promise.resolve(found !== undefined);
      },
      5_000,
    );
    return found ?? {};
  }

  it('runs the service on the runtime it names (its own nodejs_version_info metric)', async () => {
    const { node } = runtime();
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    const metrics = await (await fetch(`${stack.app.managementUrl}/metrics`)).text();
    expect(metrics).toMatch(new RegExp(`^nodejs_version_info\\{version="${version}"`, 'm'));
  });

  // docs/operating.md "The management port": in qa as everywhere, the public port (here through the
  // TLS front, as an ingress reaches it) never serves /metrics; the management port does.
  it('serves /metrics on the management port only, never through the public front', async () => {
    expect((await stack.browser().get(`${stack.url}/metrics`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${stack.app.port}/metrics`)).status).toBe(404);
    const scrape = await fetch(`${stack.app.managementUrl}/metrics`);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toMatch(/^# TYPE idp_up gauge$/m);
    for (const path of ['/healthz', '/readyz'])
      expect((await fetch(`${stack.app.managementUrl}${path}`)).status).toBe(200);
  });

  describe('anonymous sign-in to /collection', () => {
    it('lands on /collection signed in, the collector number Okta sends as a string read as a number', async () => {
      const { browser, landed } = await signInThroughOkta(stack, OKTA_USERS.plain);
      expect(landed.status).toBe(302);
      expect(where(landed).href).toBe(`${stack.url}/collection`);
      // qa behind TLS: the session cookie is __Host-sessionId, so Secure (issue 50 item 6).
      expect(landed.headers.getSetCookie().join('\n')).toMatch(/^__Host-sessionId=[^;]+;.*Secure/m);
      const page = await browser.get(where(landed).href);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<html lang="en-US"');
      expect(pageText(page.body)).toContain('Plain Collector');
      const status = await accountStatusOf(stack, browser);
      expect(status.status).toBe(200);
      expect(status.body).toMatchObject({
        result: { data: { isSignedIn: true, collectorsId: 4242 } },
      });
    });

    it('keeps the language and the brand through Okta: fr-CA for psa', async () => {
      const browser = stack.browser();
      const start = await browser.get(`${stack.url}/signin?b=psa&lang=fr-CA`);
      const authorize = where(start);
      expect(authorize.origin).toBe(new URL(stack.idp.issuer).origin);
      expect(authorize.searchParams.get('ui_locales')).toBe('fr-CA');
      expect(authorize.searchParams.get('scope')).toBe('openid customer offline_access');
      const landing = await throughOkta(browser, start, OKTA_USERS.plain);
      // Okta sends no RFC 9207 iss, and the service does not need one.
      expect(landing.searchParams.has('iss')).toBe(false);
      const landed = await throughBrandGrant(browser, await browser.get(landing.href));
      expect(where(landed).origin).toBe('https://www.psacard.com');
    });
  });

  describe('a brand redirect with si, t and rt, and t handed back (§4 App start step 3)', () => {
    it('t is an Okta access token, and it signs a fresh browser in', async () => {
      const { landed } = await signInThroughOkta(stack, OKTA_USERS.plain, 'b=psa');
      const target = where(landed);
      expect(target.origin).toBe('https://www.psacard.com');
      const t = target.searchParams.get('t') ?? '';
      expect(target.searchParams.get('si')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(target.searchParams.get('rt')).toBeTruthy();
      // Okta's shape: no typ in the header; the claims Okta's access tokens carry.
      expect(decodeProtectedHeader(t)).toEqual({ alg: 'RS256', kid: expect.any(String) });
      expect(decodeJwt(t)).toMatchObject({
        ver: 1,
        jti: expect.any(String),
        iss: stack.idp.issuer,
        aud: 'api://default',
        // Issued to psa's own client (issue 49 item 3), yet it still signs the collector in here.
        cid: '0oa-psa-qa',
        uid: OKTA_USERS.plain.uid,
        scp: expect.arrayContaining(['customer']),
        auth_time: expect.any(Number),
        sub: OKTA_USERS.plain.email,
        CollectorsId: '4242',
      });

      // The brand sends the collector back from its own site: a cross-site navigation, so the
      // account is named and the collector confirms it (issue 32 item 1).
      const fresh = stack.browser();
      const back = await fresh.request(`${stack.url}/collection?t=${t}`, {
        headers: { ...NAVIGATION, 'sec-fetch-site': 'cross-site' },
      });
      expect(back.status).toBe(302);
      expect(where(back).pathname).toBe('/signin/continue');
      const offer = await fresh.get(where(back).href);
      // The name the session knew, the whole login the token carries, and its collector number
      // (issue 50 item 2).
      expect(pageText(offer.body)).toContain(
        `Name ${OKTA_USERS.plain.name} Email address ${OKTA_USERS.plain.email} Collector number 4242`,
      );
      // The page's form, posted from the page (issue 50 item 7).
      const done = await pressOnConfirmation(stack, fresh, offer, 'continue', NAVIGATION);
      expect(done.status).toBe(302);
      expect(where(done).href).toBe(`${stack.url}/collection`);
      expect(done.headers.getSetCookie().join('\n')).toMatch(/^__Host-sessionId=[^;]/m);
      const status = await accountStatusOf(stack, fresh);
      expect(status.body).toMatchObject({
        result: { data: { isSignedIn: true, collectorsId: 4242 } },
      });
      const page = await fresh.get(`${stack.url}/collection`);
      expect(page.status).toBe(200);
    });

    it('one t sent on many cross-site navigations: Okta is asked nothing until the collector confirms, and past the token’s limit no offer is made (issue 50 item 1)', async () => {
      const { landed } = await signInThroughOkta(stack, OKTA_USERS.plain, 'b=psa');
      const t = where(landed).searchParams.get('t') ?? '';
      const userinfo = '/oauth2/default/v1/userinfo';
      const before = (await stack.idp.requests(userinfo)).length;
      const sent = async (browser: Browser) =>
        where(
          await browser.request(`${stack.url}/collection?t=${t}`, {
            headers: { ...NAVIGATION, 'sec-fetch-site': 'cross-site' },
          }),
        );
      for (let i = 0; i < 9; i++)
        expect((await sent(stack.browser())).pathname).toBe('/signin/continue');
      const fresh = stack.browser();
      const offer = await fresh.get((await sent(fresh)).href);
      expect(offer.status).toBe(200);
      // Ten offers asked Okta nothing; past the token's limit the link goes on without one.
      expect((await stack.idp.requests(userinfo)).length).toBe(before);
      expect((await sent(stack.browser())).pathname).toBe('/collection');
      // The collector confirms the last one: only now is Okta's userinfo asked, once.
      const done = await pressOnConfirmation(stack, fresh, offer, 'continue', NAVIGATION);
      expect(where(done).pathname).toBe('/collection');
      expect((await stack.idp.requests(userinfo)).length).toBe(before + 1);
    });

    it('the brand may call Okta’s userinfo with t', async () => {
      const { landed } = await signInThroughOkta(stack, OKTA_USERS.plain, 'b=psa');
      const t = where(landed).searchParams.get('t') ?? '';
      const res = await trustingFetch(`${stack.idp.issuer}/v1/userinfo`, {
        headers: { authorization: `Bearer ${t}` },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ sub: OKTA_USERS.plain.uid });
    });
  });

  describe('the mobile handoff', () => {
    it('psamobile gets a code, which its back end exchanges for Okta’s tokens', async () => {
      const { landed } = await signInThroughOkta(stack, OKTA_USERS.plain, 'b=psamobile');
      const target = where(landed);
      expect(target.protocol).toBe('psacard:');
      expect(target.searchParams.has('t')).toBe(false);
      const code = target.searchParams.get('code') ?? '';
      expect(code).not.toBe('');
      const res = await trustingFetch(`${stack.url}/api/handoff/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: basicAuth(PSAMOBILE_CLIENT.clientId, PSAMOBILE_CLIENT.clientSecret),
        },
        body: JSON.stringify({ code }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, string>;
      expect(decodeJwt(body.access_token ?? '')).toMatchObject({ uid: OKTA_USERS.plain.uid });
      // The app refreshes the rt it redeemed at Okta with its own client (brand-contract.md §6).
      const refreshed = await trustingFetch(`${stack.idp.issuer}/v1/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basicAuth(PSAMOBILE_CLIENT.clientId, PSAMOBILE_CLIENT.clientSecret),
        },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: body.refresh_token ?? '',
          scope: 'offline_access openid customer',
        }).toString(),
      });
      expect(refreshed.status).toBe(200);
      const again = (await refreshed.json()) as Record<string, string>;
      expect(decodeJwt(again.access_token ?? '')).toMatchObject({
        cid: PSAMOBILE_CLIENT.clientId,
        uid: OKTA_USERS.plain.uid,
      });
    });
  });

  describe('goldin', () => {
    it('with state: on to the lot', async () => {
      const lot = 'https://goldin.co/lot/1';
      const { landed } = await signInThroughOkta(
        stack,
        OKTA_USERS.plain,
        `b=goldin&state=${encodeURIComponent(lot)}`,
      );
      expect(where(landed).href).toBe(lot);
    });

    it('without state: /unauthredirect with GoldinInvalidOktaSession', async () => {
      const { browser, landed } = await signInThroughOkta(stack, OKTA_USERS.plain, 'b=goldin');
      const target = where(landed);
      expect(target.pathname).toBe('/unauthredirect');
      expect(target.searchParams.get('error')).toBe('GoldinInvalidOktaSession');
      expect((await browser.get(target.href)).status).toBe(200);
    });
  });

  describe('the pcgs brand code redirect', () => {
    it('with an Okta session: prompt=none with the pcgs client, then pcgs with its own token', async () => {
      const { browser } = await signInThroughOkta(stack, OKTA_USERS.plain, 'b=collectors');
      const start = await browser.get(`${stack.url}/handlebrandtokenredirect?b=pcgs`);
      expect(where(start).searchParams.get('prompt')).toBe('none');
      expect(where(start).searchParams.get('client_id')).toBe('0oa-pcgs-qa');
      const callback = await throughOkta(
        browser,
        start,
        OKTA_USERS.plain,
        '/handlebrandtokenredirect',
      );
      expect(callback.searchParams.has('code')).toBe(true);
      const landed = await browser.get(callback.href);
      const target = where(landed);
      expect(target.origin).toBe('https://www.pcgs.com');
      expect(decodeJwt(target.searchParams.get('t') ?? '')).toMatchObject({ cid: '0oa-pcgs-qa' });
    });

    /** The brand code redirect in a browser signed in at Okta: what pcgs received. */
    async function throughBrandCode(browser: Browser): Promise<{ t: string; rt: string }> {
      const start = await browser.get(`${stack.url}/handlebrandtokenredirect?b=pcgs`);
      const callback = await throughOkta(
        browser,
        start,
        OKTA_USERS.plain,
        '/handlebrandtokenredirect',
      );
      const target = where(await browser.get(callback.href));
      expect(target.origin).toBe('https://www.pcgs.com');
      return { t: target.searchParams.get('t') ?? '', rt: target.searchParams.get('rt') ?? '' };
    }

    /** Whether Okta still holds `rt` live, asked with pcgs's own credentials (RFC 7662). */
    async function activeAtOkta(rt: string): Promise<boolean> {
      const res = await trustingFetch(`${stack.idp.issuer}/v1/introspect`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basicAuth(PCGS_CLIENT.clientId, PCGS_CLIENT.clientSecret),
        },
        body: new URLSearchParams({ token: rt, token_type_hint: 'refresh_token' }).toString(),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { active: boolean }).active;
    }

    it('a second one in the browser revokes the rt the first gave pcgs (docs/brand-contract.md §6)', async () => {
      const { browser } = await signInThroughOkta(stack, OKTA_USERS.plain, 'b=collectors');
      const first = await throughBrandCode(browser);
      expect(await activeAtOkta(first.rt)).toBe(true);
      const second = await throughBrandCode(browser);
      expect(second.rt).not.toBe(first.rt);
      await eventually('the first rt is revoked', () => activeAtOkta(first.rt).then((a) => !a));
      expect(await activeAtOkta(second.rt)).toBe(true);
    });

    it('sign-out revokes the rt it gave pcgs, and its t handed back signs nobody in (§7, §8)', async () => {
      const { browser } = await signInThroughOkta(stack, OKTA_USERS.plain, 'b=collectors');
      const handed = await throughBrandCode(browser);
      expect(await activeAtOkta(handed.rt)).toBe(true);
      await signOutFromThisSite(browser, `${stack.url}/logout/collectorsid?b=collectors`);
      await eventually('the rt is revoked', () => activeAtOkta(handed.rt).then((a) => !a));
      // pcgs sends the collector back with the t it received: it starts no session any more.
      const fresh = stack.browser();
      const back = await fresh.request(`${stack.url}/collection?t=${handed.t}`, {
        headers: { ...NAVIGATION, 'sec-fetch-site': 'cross-site' },
      });
      expect(back.headers.getSetCookie().join('\n')).not.toMatch(/sessionId=[^;]/);
      await logLine(back.headers.get('x-request-id') ?? '', (l) => l.reason === 'session-ended');
    });

    it('without one: Okta answers login_required and the collector goes on to /signin', async () => {
      const browser = stack.browser();
      const start = await browser.get(`${stack.url}/handlebrandtokenredirect?b=pcgs`);
      const callback = await throughOkta(
        browser,
        start,
        OKTA_USERS.plain,
        '/handlebrandtokenredirect',
      );
      expect(callback.searchParams.get('error')).toBe('login_required');
      const landed = await browser.get(callback.href);
      expect(landed.headers.get('location')).toBe('/signin?b=pcgs');
    });
  });

  describe('the §3 claims wherever the org puts them (account.status and the §2 rule)', () => {
    it.each([
      ['in the access token only', OKTA_USERS.inAccessToken, 5151, { setupMfa: true }],
      ['in userinfo only', OKTA_USERS.inUserinfo, 6161, { isMigrating: true }],
    ] as const)('%s', async (_where, user, collectorsId, flags) => {
      const { browser, landed } = await signInThroughOkta(stack, user);
      // The §2 rule fires at once: the landing goes back through the IdP for the pending step.
      expect(landed.status).toBe(302);
      const status = await accountStatusOf(stack, browser);
      expect(status.body).toMatchObject({
        result: { data: { isSignedIn: true, collectorsId, ...flags } },
      });
      const shell = await browser.get(`${stack.url}/collection`);
      expect(shell.status).toBe(302);
      expect(where(shell).pathname).toBe('/signin');
    });
  });

  describe('sign-out', () => {
    it('ends the session here and the session at Okta', async () => {
      const { browser } = await signInThroughOkta(stack, OKTA_USERS.plain);
      const out = await signOutFromThisSite(
        browser,
        `${stack.url}/logout/collectorsid?b=collectors`,
      );
      const logout = where(out);
      expect(logout.href.startsWith(`${stack.idp.issuer}/v1/logout`)).toBe(true);
      expect(logout.searchParams.get('id_token_hint')).toBeTruthy();
      const confirm = await browser.get(logout.href);
      const landed = await submitLogout(browser, confirm);
      expect(new URL(landed.url).pathname).toBe('/handlelogoutredirect');
      expect((await accountStatusOf(stack, browser)).body).toMatchObject({
        result: { data: { isSignedIn: false } },
      });
      // Okta forgot the collector: the next sign-in asks for the password again.
      const again = await browser.get(`${stack.url}/signin?b=collectors`);
      const page = await browser.follow(again);
      expect(page.body).toContain('name="password"');
    });
  });

  describe('a revocation Okta did not take at sign-out (issue 31 item 3)', () => {
    const logged = (event: string) => stack.app.logs().filter((l) => l.event === event).length;

    it.each([
      ['down', undefined],
      ['503', '/oauth2/default/v1/revoke'],
      ['hang', '/oauth2/default/v1/revoke'],
    ] as const)(
      'Okta %s: retried from the durable queue once Okta answers, and the refresh token then stops working',
      async (mode, path) => {
        const { browser, landed } = await signInThroughOkta(stack, OKTA_USERS.plain, 'b=psa');
        const rt = where(landed).searchParams.get('rt') ?? '';
        const [queued, retried] = [logged('revocation-queued'), logged('revocation-retried')];
        await stack.fault(mode, path);
        try {
          const out = await signOutFromThisSite(
            browser,
            `${stack.url}/logout/collectorsid?b=collectors`,
          );
          // The session ends here whatever Okta says; the browser is on its way to Okta's logout.
          expect(out.status).toBe(302);
          expect((await accountStatusOf(stack, browser)).body).toMatchObject({
            result: { data: { isSignedIn: false } },
          });
          // Two refresh tokens to revoke: the session's own and the one handed to PSA.
          await eventually('both revocations are queued', () =>
            Promise.resolve(logged('revocation-queued') >= queued + 2),
          );
        } finally {
          await stack.fault('none');
        }
        // Wait for both: the brand's token may be retried after the session's.
        await eventually('the queued revocations are done', () =>
          Promise.resolve(logged('revocation-retried') >= retried + 2),
        );
        const refresh = await trustingFetch(`${stack.idp.issuer}/v1/token`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: basicAuth(SERVICE_CLIENT.clientId, SERVICE_CLIENT.clientSecret),
          },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: rt }).toString(),
        });
        expect(refresh.status).toBe(400);
        expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
      },
      30_000,
    );
  });

  /** Okta's end-session confirmation, submitted as its page's script does, then on to the landing. */
  async function submitLogout(browser: Browser, page: BrowserResponse): Promise<BrowserResponse> {
    const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const posted = await browser.post(new URL(action, page.url).href, { xsrf, logout: 'yes' });
    let res = posted;
    for (let hop = 0; hop < 5 && res.status >= 300 && res.status < 400; hop++) {
      const next = where(res);
      if (next.pathname === '/handlelogoutredirect') return browser.get(next.href);
      res = await browser.get(next.href);
    }
    return res;
  }

  describe('outages at the code exchange (issue 31 item 3)', () => {
    it.each(['down', '503', 'hang'] as const)(
      'Okta %s at the landing: the 502 OktaError page with a correlation id and the cause logged',
      async (mode) => {
        const browser = stack.browser();
        const start = await browser.get(`${stack.url}/signin?b=psa`);
        const landing = await throughOkta(browser, start, OKTA_USERS.plain);
        await stack.fault(mode);
        let page: BrowserResponse;
        try {
          page = await browser.request(landing.href, { headers: { accept: 'text/html' } });
        } finally {
          await stack.fault('none');
        }
        expect(page.status).toBe(502);
        expect(page.headers.getSetCookie().join('\n')).not.toMatch(/sessionId=[^;]/);
        const id = page.headers.get('x-request-id') ?? '';
        const text = pageText(page.body);
        expect(text).toContain('Error code: OktaError');
        expect(text).toContain(`Reference: ${id}`);
        // One line that says what failed and why (the cause Okta's side gave).
        const failure = await logLine(id, (l) => l.level === 50 && l.status === 502);
        expect(failure).toMatchObject({ status: 502, error: 'OktaError' });
        expect(`${String(failure.msg)} ${String(failure.cause)}`).toMatch(
          mode === 'down' ? /ECONNREFUSED/ : mode === '503' ? /HTTP 503/ : /abort|timeout|time/i,
        );
      },
      30_000,
    );

    it.each(['503', 'hang'] as const)(
      'Okta’s userinfo %s at the landing is an outage too',
      async (mode) => {
        const browser = stack.browser();
        const start = await browser.get(`${stack.url}/signin?b=psa`);
        const landing = await throughOkta(browser, start, OKTA_USERS.plain);
        await stack.fault(mode, '/oauth2/default/v1/userinfo');
        let page: BrowserResponse;
        try {
          page = await browser.request(landing.href, { headers: { accept: 'text/html' } });
        } finally {
          await stack.fault('none');
        }
        expect(page.status).toBe(502);
        expect(pageText(page.body)).toContain('Error code: OktaError');
      },
    );
  });

  describe('readiness and health during an outage (issue 31 item 3)', () => {
    it('/readyz stays ready; /healthz, idp_up and one log line say Okta is down, then back', async () => {
      const direct = stack.app.managementUrl;
      await stack.fault('down');
      try {
        // The next probe (at most IDP_PROBE_INTERVAL_MS after the last word) notices.
        await eventually(
          '/healthz reports the IdP down',
          async () => {
            const health = (await (await fetch(`${direct}/healthz`)).json()) as {
              status: string;
              details?: { idp?: { status: string; error?: string } };
            };
            expect(health.status).toBe('ok');
            return health.details?.idp?.status === 'down';
          },
          20_000,
        );
        const ready = await fetch(`${direct}/readyz`);
        expect(ready.status).toBe(200);
        expect(await (await fetch(`${direct}/metrics`)).text()).toMatch(/^idp_up 0$/m);
        expect(stack.app.logs().some((l) => l.event === 'idp-down')).toBe(true);
      } finally {
        await stack.fault('none');
      }
      // A sign-in works again at once, and says so.
      const { landed } = await signInThroughOkta(stack, OKTA_USERS.plain);
      expect(landed.status).toBe(302);
      const health = (await (await fetch(`${direct}/healthz`)).json()) as {
        details?: { idp?: { status: string } };
      };
      expect(health.details?.idp?.status).toBe('up');
      expect(stack.app.logs().some((l) => l.event === 'idp-up')).toBe(true);
    }, 40_000);
  });
}
