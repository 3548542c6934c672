import { OKTA_USERS, OktaStack, accountStatusOf, signInThroughOkta, startOktaStack } from '../support/okta-stack';

/**
 * Issue 31 item 2: every journey against an IdP this project did not write, the way production runs
 * it: APP_ENV=qa, IDP_MODE=external, TLS in front, an Okta-shaped IdP in a process of its own.
 */
let stack: OktaStack;
beforeAll(async () => {
  stack = await startOktaStack();
}, 60_000);
afterAll(() => stack?.close());

describe('anonymous sign-in to /collection', () => {
  it('lands on /collection signed in, with the collector number Okta sends as a string', async () => {
    const { browser, landed } = await signInThroughOkta(stack, OKTA_USERS.plain);
    if (landed.status !== 302) throw new Error(stack.idp.output() + stack.app.output().split('\n').filter((l) => /"level":(40|50)/.test(l)).join('\n'));
    expect(landed.status).toBe(302);
    expect(new URL(landed.headers.get('location') ?? '', stack.url).pathname).toBe('/collection');
    const status = await accountStatusOf(stack, browser);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      result: { data: { isSignedIn: true, collectorsId: 4242 } },
    });
  });
});
