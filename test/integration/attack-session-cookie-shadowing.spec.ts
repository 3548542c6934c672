import { randomBytes } from 'node:crypto';
import { Sessions } from '../../src/session/sessions';
import { Browser } from '../support/browser';
import {
  OKTA_USERS,
  type OktaStack,
  accountStatusOf,
  signInThroughOkta,
  startOktaStack,
} from '../support/okta-stack';
import { jarCookie, locationOf, pageText, signInVia } from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 50 item 6, as an attacker on a sibling subdomain (or a plain-http page of the same site)
 * would try it: plant `sessionId` cookies of their own, `Domain=.collectors.com` with paths longer
 * than `/`, which the victim's browser sends before the service's own (RFC 6265 §5.4: the longer path
 * first). The service read the first `sessionId` only: the collector looked signed out on
 * /collection, was sent to /signin (where the planted cookie is not sent), signed in at once, and
 * back to /collection: a loop. Now `__Host-sessionId` on https, which no other host can set, and every
 * `sessionId` value tried against the browser binding where the plain name is still read (http, and
 * browsers holding the name from before the prefix).
 *
 * The planted cookies go into the victim's jar as the browser would hold them: a sibling's Domain
 * cookie cannot be set on localhost, so they carry the same paths on this host, which puts them first
 * in the Cookie header in the same way.
 */

/** A session id nobody has: what a sibling can make up. */
const madeUp = () => randomBytes(32).toString('base64url');

/** The paths a sibling plants its cookies on: each guarded place the collector goes. */
const PLANTED_PATHS = ['/collection', '/api', '/signin', '/logout'];

/** The attacker's plants, first in every Cookie header of those paths: made-up ids and their own. */
async function plant(browser: Browser, origin: string, values: readonly string[]): Promise<void> {
  const secure = origin.startsWith('https:') ? '; Secure' : '';
  for (const path of PLANTED_PATHS) {
    for (const value of values)
      await browser.jar.setCookie(`sessionId=${value}; Path=${path}${secure}`, origin);
  }
}

/** The Cookie header the victim's browser sends to `path`: the planted ones first. */
const cookieHeader = (browser: Browser, url: string) => browser.jar.getCookieString(url);

describe('over plain HTTP (http://localhost: no __Host- prefix is possible)', () => {
  const t = useTestApp({
    RATE_LIMIT_SIGNIN: '100000/60',
    RATE_LIMIT_SIGNIN_SESSION: '100000/60',
  });

  /** A signed-in victim, and the attacker's own live session id (another collector's). */
  async function victimAndPlants(): Promise<{ victim: Browser; own: string; attackers: string }> {
    const victim = new Browser();
    await signInVia(t, victim, 'b=collectors');
    const own = (await jarCookie(victim, t.url, 'sessionId')) ?? '';
    const attacker = new Browser();
    await signInVia(t, attacker, 'b=collectors', { email: 'japan@example.com' });
    const attackers = (await jarCookie(attacker, t.url, 'sessionId')) ?? '';
    await plant(victim, t.url, [attackers, madeUp(), 'not-a-session-id']);
    return { victim, own, attackers };
  }

  it('the planted sessionId values come first in the Cookie header', async () => {
    const { victim, own, attackers } = await victimAndPlants();
    const header = await cookieHeader(victim, `${t.url}/collection`);
    expect(header.indexOf(`sessionId=${attackers}`)).toBeLessThan(
      header.indexOf(`sessionId=${own}`),
    );
  });

  it('the collector stays signed in on /collection, the account API and /signin: no loop', async () => {
    const { victim } = await victimAndPlants();
    const page = await victim.get(`${t.url}/collection`);
    expect(page.status).toBe(200);
    expect(pageText(page.body)).toContain('collector number 100001');
    const status = await victim.get(`${t.url}/api/collectors-web/trpc/account.status`);
    expect(JSON.parse(status.body)).toMatchObject({
      result: { data: { isSignedIn: true, collectorsId: 100001 } },
    });
    // Signed in already: /signin goes straight on to /collection, not to the IdP.
    const signin = await victim.get(`${t.url}/signin?b=collectors`);
    expect(locationOf(signin).pathname).toBe('/collection');
  });

  it('sign-out ends the collector’s own session, not the attacker’s', async () => {
    const { victim, own, attackers } = await victimAndPlants();
    const out = await victim.request(`${t.url}/logout/collectorsid?b=collectors`, {
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(out.status).toBe(302);
    const sessions = t.app.get(Sessions);
    expect(await sessions.get(own)).toBeUndefined();
    expect(await sessions.get(attackers)).toBeDefined();
  });

  it('the attacker’s own session id, planted first, does not sign the victim into it', async () => {
    const { victim } = await victimAndPlants();
    // Without the victim's binding the attacker's session is nobody's here: the victim's counts.
    const status = await victim.get(`${t.url}/api/collectors-web/trpc/account.status`);
    expect(JSON.parse(status.body)).toMatchObject({ result: { data: { collectorsId: 100001 } } });
  });
});

describe('behind the TLS front, as qa runs (https: __Host-sessionId)', () => {
  let stack: OktaStack;
  beforeAll(async () => {
    stack = await startOktaStack();
  }, 60_000);
  afterAll(() => stack?.close());

  it('the session cookie is __Host-sessionId: Secure, host-only, Path=/', async () => {
    const { landed } = await signInThroughOkta(stack, OKTA_USERS.plain);
    const written = landed.headers.getSetCookie();
    const session = written.find((h) => h.startsWith('__Host-sessionId='));
    expect(session).toMatch(/^__Host-sessionId=[A-Za-z0-9_-]{43}; Max-Age=31536000; Path=\/;/);
    expect(session).toMatch(/; Secure/);
    expect(session).not.toMatch(/Domain=/i);
    // The plain name of before is cleared on the way.
    expect(written).toContainEqual(expect.stringMatching(/^sessionId=; Max-Age=0; Path=\//));
  });

  it('planted plain sessionId cookies are not read: the collector stays signed in', async () => {
    const { browser } = await signInThroughOkta(stack, OKTA_USERS.plain);
    const other = await signInThroughOkta(stack, OKTA_USERS.inAccessToken);
    const attackers = (await jarCookie(other.browser, stack.url, '__Host-sessionId')) ?? '';
    await plant(browser, stack.url, [attackers, madeUp()]);
    const page = await browser.get(`${stack.url}/collection`);
    expect(page.status).toBe(200);
    expect((await accountStatusOf(stack, browser)).body).toMatchObject({
      result: { data: { isSignedIn: true, collectorsId: 4242 } },
    });
    const signin = await browser.get(`${stack.url}/signin?b=collectors`);
    expect(locationOf(signin).href).toBe(`${stack.url}/collection`);
  });

  it('a browser still holding the plain sessionId of before: each value is tried against its binding', async () => {
    const { browser } = await signInThroughOkta(stack, OKTA_USERS.plain);
    // As an earlier version wrote it: the plain name, Secure, host-only, Path=/.
    const own = (await jarCookie(browser, stack.url, '__Host-sessionId')) ?? '';
    await browser.jar.setCookie('__Host-sessionId=; Max-Age=0; Path=/; Secure', stack.url);
    await browser.jar.setCookie(`sessionId=${own}; Path=/; Secure; HttpOnly`, stack.url);
    await plant(browser, stack.url, [madeUp(), madeUp()]);
    expect(await jarCookie(browser, stack.url, '__Host-sessionId')).toBeUndefined();
    const page = await browser.get(`${stack.url}/collection`);
    expect(page.status).toBe(200);
    expect((await accountStatusOf(stack, browser)).body).toMatchObject({
      result: { data: { isSignedIn: true, collectorsId: 4242 } },
    });
  });
});
