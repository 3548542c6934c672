import type { BrowserResponse } from '../support/browser';
import { decodeJwt } from 'jose';
import {
  OKTA_USERS,
  OktaStack,
  SERVICE_CLIENT,
  BRAND_CLIENTS,
  signInThroughOkta,
  startOktaStack,
} from '../support/okta-stack';
import { basicAuth, throughBrandGrant } from '../support/signin-journey';
import { trustingFetch } from '../support/tls-front';
import { eventually } from '../support/process-app';
import { pageText } from '../support/signin-journey';
import type { Runtime } from '../support/runtimes';

/** The refresh journeys of okta-refresh.spec.ts, on the runtime given (issue 31 items 1-4 and 6). */
export function oktaRefresh(runtime: () => Runtime): void {
  /**
   * Issue 31 items 1-3: §4 Token handling against the Okta-shaped IdP. Its access tokens live 30 s,
   * inside the service's 30 s refresh margin, so every signed-in request refreshes (rotating the
   * refresh token each time, as Okta does).
   */
  let stack: OktaStack;
  beforeAll(async () => {
    stack = await startOktaStack({ accessTokenTtlSeconds: 30, runtime: runtime() });
  }, 60_000);
  afterAll(() => stack?.close());

  interface TrpcAnswer {
    readonly result?: { data: Record<string, unknown> };
    readonly error?: {
      message: string;
      data: { code: string; httpStatus: number; correlationId?: string };
    };
  }

  async function status(
    browser: ReturnType<OktaStack['browser']>,
  ): Promise<{ res: BrowserResponse; body: TrpcAnswer }> {
    const res = await browser.get(`${stack.url}/api/collectors-web/trpc/account.status`);
    return { res, body: JSON.parse(res.body) as TrpcAnswer };
  }

  it('refreshes past a short lifetime, three rotations, with §7’s scope and the service’s own client', async () => {
    const { browser } = await signInThroughOkta(stack, OKTA_USERS.plain);
    const before = (await stack.idp.tokenRequests()).length;
    for (let i = 0; i < 3; i++) {
      const { body } = await status(browser);
      expect(body.result?.data).toMatchObject({ isSignedIn: true, collectorsId: 4242 });
    }
    const refreshes = (await stack.idp.tokenRequests())
      .slice(before)
      .filter((r) => r.grant_type === 'refresh_token');
    expect(refreshes).toHaveLength(3);
    for (const r of refreshes)
      expect(r).toEqual({
        grant_type: 'refresh_token',
        scope: 'offline_access openid customer',
        client_id: '0oa-signon-qa',
        status: 200,
      });
  });

  describe('an outage during a refresh (issue 31 item 3)', () => {
    it.each(['down', '503', 'hang'] as const)(
      'Okta %s: account.status answers BAD_GATEWAY with a correlation id, the cause is logged, and the session outlives it',
      async (mode) => {
        const { browser } = await signInThroughOkta(stack, OKTA_USERS.plain);
        await stack.fault(mode);
        let failed: { res: BrowserResponse; body: TrpcAnswer };
        let page: BrowserResponse;
        try {
          failed = await status(browser);
          page = await browser.request(`${stack.url}/collection`, {
            headers: { accept: 'text/html' },
          });
        } finally {
          await stack.fault('none');
        }
        expect(failed.res.status).toBe(502);
        const id = failed.res.headers.get('x-request-id') ?? '';
        expect(failed.body.error?.data).toMatchObject({
          code: 'BAD_GATEWAY',
          httpStatus: 502,
          correlationId: id,
        });
        expect(failed.body.error?.message).toMatch(/^OktaError: /);
        await eventually('the outage is logged with its cause', () =>
          Promise.resolve(
            stack.app
              .logs()
              .some(
                (l) =>
                  l.correlationId === id &&
                  l.code === 'BAD_GATEWAY' &&
                  /refresh token/.test(String(l.msg)) &&
                  typeof l.cause === 'string',
              ),
          ),
        );
        // A shell page says the same, on the §8 error page.
        expect(page.status).toBe(502);
        expect(pageText(page.body)).toContain('Error code: OktaError');
        // Nothing was decided about the collector: once Okta is back, they are still signed in.
        expect((await status(browser)).body.result?.data).toMatchObject({ isSignedIn: true });
      },
      40_000,
    );
  });

  /**
   * The brand's refresh at Okta's token endpoint with the `rt` it received, with the brand's own
   * credentials (issue 49 item 3: no brand holds this service's).
   */
  async function brandRefresh(
    rt: string,
    credentials: { clientId: string; clientSecret: string } = BRAND_CLIENTS.psa ?? SERVICE_CLIENT,
  ): Promise<{ status: number; body: Record<string, string> }> {
    const res = await trustingFetch(`${stack.idp.issuer}/v1/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basicAuth(credentials.clientId, credentials.clientSecret),
      },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: rt,
        scope: 'offline_access openid customer',
      }).toString(),
    });
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  }

  describe('a brand’s tokens are its own (issue 31 item 4)', () => {
    it('the brand refreshing its rt twice never signs the collector out here', async () => {
      const { browser, landed } = await signInThroughOkta(stack, OKTA_USERS.plain, 'b=psa');
      const target = new URL(landed.headers.get('location') ?? '');
      let rt = target.searchParams.get('rt') ?? '';
      // Issue 49 item 3: issued to psa's own client, so this service's credentials cannot use it.
      expect(decodeJwt(target.searchParams.get('t') ?? '').cid).toBe(BRAND_CLIENTS.psa?.clientId);
      // Nor another brand's: a brand holds only its own credentials, and they open only its grants.
      for (const other of [SERVICE_CLIENT, BRAND_CLIENTS.pcgs ?? SERVICE_CLIENT]) {
        const foreign = await brandRefresh(rt, other);
        expect(foreign.status).toBe(400);
        expect(foreign.body.error).toBe('invalid_grant');
      }
      for (let i = 0; i < 2; i++) {
        const refreshed = await brandRefresh(rt);
        expect(refreshed.status).toBe(200);
        rt = refreshed.body.refresh_token ?? '';
      }
      // Every account.status refreshes the session's own tokens (30 s lifetime): still signed in.
      for (let i = 0; i < 2; i++)
        expect((await status(browser)).body.result?.data).toMatchObject({ isSignedIn: true });
    });

    it('the session refreshing here never spends the brand’s rt', async () => {
      const { browser, landed } = await signInThroughOkta(stack, OKTA_USERS.plain, 'b=psa');
      const target = new URL(landed.headers.get('location') ?? '');
      const t = target.searchParams.get('t') ?? '';
      const rt = target.searchParams.get('rt') ?? '';
      for (let i = 0; i < 3; i++)
        expect((await status(browser)).body.result?.data).toMatchObject({ isSignedIn: true });
      const refreshed = await brandRefresh(rt);
      expect(refreshed.status).toBe(200);
      expect(decodeJwt(refreshed.body.access_token ?? '')).toMatchObject({
        uid: OKTA_USERS.plain.uid,
      });
      // Its own grant: not the session's access token.
      expect(t).not.toBe('');
    });

    it('a signed-in hop to another brand gets another grant, for the same collector', async () => {
      const { browser, landed } = await signInThroughOkta(stack, OKTA_USERS.plain, 'b=psa');
      const first = new URL(landed.headers.get('location') ?? '').searchParams.get('rt');
      const hop = await throughBrandGrant(browser, await browser.get(`${stack.url}/signin?b=psa`));
      const second = new URL(hop.headers.get('location') ?? '');
      expect(second.origin).toBe('https://www.psacard.com');
      expect(second.searchParams.get('rt')).not.toBe(first);
      expect(decodeJwt(second.searchParams.get('t') ?? '')).toMatchObject({
        uid: OKTA_USERS.plain.uid,
      });
      // Issue 49 item 4: one live grant per brand per browser: psa's earlier rt is revoked.
      await eventually('the earlier grant is revoked', async () => {
        const refused = await brandRefresh(first ?? '');
        return refused.status === 400 && refused.body.error === 'invalid_grant';
      });
      expect((await brandRefresh(second.searchParams.get('rt') ?? '')).status).toBe(200);
    });
  });
}
