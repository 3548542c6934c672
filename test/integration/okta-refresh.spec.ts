import type { BrowserResponse } from '../support/browser';
import { OKTA_USERS, OktaStack, signInThroughOkta, startOktaStack } from '../support/okta-stack';
import { eventually } from '../support/process-app';
import { pageText } from '../support/signin-journey';

/**
 * Issue 31 items 1-3: §4 Token handling against the Okta-shaped IdP. Its access tokens live 30 s,
 * inside the service's 30 s refresh margin, so every signed-in request refreshes (rotating the
 * refresh token each time, as Okta does).
 */
let stack: OktaStack;
beforeAll(async () => {
  stack = await startOktaStack({ accessTokenTtlSeconds: 30 });
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
