import { Browser, BrowserResponse } from '../support/browser';
import {
  cookieAttributes,
  jarCookie,
  locationOf,
  setCookies,
  signInVia,
  throughBrandGrant,
  FROM_THIS_SITE,
} from '../support/signin-journey';
import { useTestApp } from '../support/test-app';

/**
 * Issue 14 item 4: a fresh session id for every after-login (§4 step 5), and `si` is no bearer
 * credential. The attack it stops: a brand's `si` (a URL value that lands in its logs, histories and
 * referrers) presented as the `sessionId` cookie used to return fresh `t` and `rt` for any brand.
 */
const t = useTestApp({
  RATE_LIMIT_SIGNIN: '100000/60',
  RATE_LIMIT_SIGNIN_SESSION: '100000/60',
});

const authorize = () => `${t.config.idp.issuer}/v1/authorize`;
const endpointOf = (url: URL) => `${url.origin}${url.pathname}`;

/** A request from another client (no jar): only the cookie header it is given. */
async function asStranger(path: string, cookie: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}${path}`, {
    redirect: 'manual',
    headers: { cookie, accept: 'text/html', ...headers },
  });
  return {
    status: res.status,
    location: res.headers.get('location') ?? '',
    body: await res.text(),
  };
}

/** The sessions page's rows (account.sessions) as this browser sees them. */
async function sessionsOf(browser: Browser) {
  const res = await browser.get(`${t.url}/api/collectors-web/trpc/account.sessions`);
  return (
    JSON.parse(res.body) as {
      result: { data: { handle: string; brand: string; current: boolean }[] };
    }
  ).result.data;
}

/** A signed-in hop: /signin, then the brand's own grant at the IdP (issue 31 item 4). */
async function hopTo(browser: Browser, url: string): Promise<BrowserResponse> {
  return throughBrandGrant(browser, await browser.get(url));
}

/** A collector who signed in through the brand's link; the brand redirect they ended on. */
async function signedIn(query: string): Promise<{ browser: Browser; target: URL }> {
  const browser = new Browser();
  const { landing } = await signInVia(t, browser, query);
  return { browser, target: locationOf(landing) };
}

describe('an si signs nobody in (attack: si replayed as the sessionId cookie)', () => {
  it.each([
    ['a web brand (psa)', 'b=psa'],
    ['a mobile app with a session (ccmobile)', 'b=ccmobile'],
  ])(
    '%s: its si as a cookie gets no tokens, no page, no account',
    async (_name, query) => {
      const { target } = await signedIn(query);
      const si = target.searchParams.get('si') ?? '';
      expect(si).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const signin = await asStranger('/signin?b=psa', `sessionId=${si}`);
      expect(signin.status).toBe(302);
      const next = new URL(signin.location, t.url);
      expect(endpointOf(next)).toBe(authorize());
      expect(next.searchParams.has('t')).toBe(false);
      expect(next.searchParams.has('rt')).toBe(false);

      const page = await asStranger('/collection', `sessionId=${si}`);
      expect(page.status).toBe(302);
      expect(new URL(page.location).pathname).toBe('/signin');

      const status = await fetch(`${t.url}/api/collectors-web/trpc/account.status`, {
        headers: { cookie: `sessionId=${si}` },
      });
      const state = ((await status.json()) as { result: { data: { isSignedIn: boolean } } }).result
        .data;
      expect(state.isSignedIn).toBe(false);
    },
    60_000,
  );

  it('another browser’s binding does not unlock it either', async () => {
    const victim = await signedIn('b=psa');
    const attacker = await signedIn('b=collectors');
    const attackerBinding = (await jarCookie(attacker.browser, t.url, 'sessionBinding')) ?? '';
    expect(attackerBinding).not.toBe('');
    const si = victim.target.searchParams.get('si') ?? '';
    const res = await asStranger(
      '/signin?b=psa',
      `sessionId=${si}; sessionBinding=${attackerBinding}`,
    );
    expect(endpointOf(new URL(res.location, t.url))).toBe(authorize());
  }, 60_000);

  it('signing out with an si alone ends nothing', async () => {
    const { browser, target } = await signedIn('b=psa');
    const si = target.searchParams.get('si') ?? '';
    // A sign-out that goes ahead at once (from a page of this site, issue 50 item 4).
    const out = await asStranger('/logout/collectorsid?b=psa', `sessionId=${si}`, FROM_THIS_SITE);
    expect(out.status).toBe(302);
    // The collector's own browser is still signed in.
    const page = await browser.get(`${t.url}/collection`);
    expect(page.status).toBe(200);
  }, 60_000);
});

describe('a fresh session id for every after-login (§4 step 5), one family', () => {
  it('each brand hop gets its own si and the browser its own cookie; the sessions page lists each brand', async () => {
    const { browser, target: psa } = await signedIn('b=psa');
    const first = await jarCookie(browser, t.url, 'sessionId');
    // The demo collector has sessions from the other tests too: compare before and after.
    const listed = () => sessionsOf(browser);
    const before = new Set((await listed()).map((r) => r.handle));
    expect(psa.searchParams.get('si')).toBe(first);

    const pcgs = locationOf(await hopTo(browser, `${t.url}/signin?b=pcgs`));
    const second = await jarCookie(browser, t.url, 'sessionId');
    expect(second).not.toBe(first);
    expect(pcgs.searchParams.get('si')).toBe(second);

    const home = locationOf(await hopTo(browser, `${t.url}/signin?b=collectors`));
    expect(home.pathname).toBe('/collection');
    const third = await jarCookie(browser, t.url, 'sessionId');
    expect(new Set([first, second, third]).size).toBe(3);

    const added = (await listed()).filter((r) => !before.has(r.handle));
    expect(added.map((r) => r.brand).sort()).toEqual(['collectors', 'pcgs']);
    expect(added.find((r) => r.current)?.brand).toBe('collectors');
  }, 60_000);

  it('a brand keeps only the newest si of a sign-in: repeat hops supersede its earlier sessions, the others stay', async () => {
    const { browser, target: psa } = await signedIn('b=psa');
    const listed = () => sessionsOf(browser);
    const before = new Set((await listed()).map((r) => r.handle));
    const firstPsa = psa.searchParams.get('si') ?? '';
    const pcgs = locationOf(await hopTo(browser, `${t.url}/signin?b=pcgs`)).searchParams.get('si');
    const hops: string[] = [];
    for (let i = 0; i < 5; i++) {
      const again = locationOf(await hopTo(browser, `${t.url}/signin?b=psa`));
      expect(again.origin).toBe(psa.origin);
      hops.push(again.searchParams.get('si') ?? '');
    }
    expect(new Set([firstPsa, pcgs, ...hops]).size).toBe(7);
    // The browser holds the newest session and is still signed in (the family's tokens live on).
    expect(await jarCookie(browser, t.url, 'sessionId')).toBe(hops[4]);
    const collection = await browser.get(`${t.url}/collection`);
    expect(collection.status).toBe(200);
    // Of this sign-in: one session for psa (the newest) and the one pcgs received; the first psa
    // session (listed before the hops) is gone too.
    const rows = await listed();
    const added = rows.filter((r) => !before.has(r.handle));
    expect(added.map((r) => r.brand).sort()).toEqual(['pcgs', 'psa']);
    expect(added.find((r) => r.current)?.brand).toBe('psa');
    expect(rows.filter((r) => before.has(r.handle) && r.brand === 'psa' && r.current)).toEqual([]);
    // A superseded si is no session: used with this browser's binding it signs nothing in.
    const binding = (await jarCookie(browser, t.url, 'sessionBinding')) ?? '';
    const stale = await asStranger(
      '/collection',
      `sessionId=${hops[0]}; sessionBinding=${binding}`,
    );
    expect(stale.status).toBe(302);
    const current = await asStranger(
      '/collection',
      `sessionId=${hops[4]}; sessionBinding=${binding}`,
    );
    expect(current.status).toBe(200);
  }, 60_000);

  it('the binding lives only in an HttpOnly cookie, never in a URL', async () => {
    const browser = new Browser();
    const { landing } = await signInVia(t, browser, 'b=psa');
    // Set by the sign-in's landing (which then goes to the IdP for the brand's own grant).
    const first = browser.history.find((r) => new URL(r.url).pathname === '/handleloginredirect');
    const header = (first && setCookies(first).get('sessionBinding')) ?? '';
    const attributes = cookieAttributes(header);
    expect(attributes.has('httponly')).toBe(true);
    expect(attributes.get('samesite')?.toLowerCase()).toBe('lax');
    const binding = (await jarCookie(browser, t.url, 'sessionBinding')) ?? '';
    expect(binding).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(landing.headers.get('location')).not.toContain(binding);
  }, 60_000);

  it('sign-out everywhere ends every session of the family', async () => {
    const { browser } = await signedIn('b=psa');
    await hopTo(browser, `${t.url}/signin?b=pcgs`);
    const cookie = await browser.jar.getCookieString(t.url);
    const ended = await fetch(`${t.url}/api/collectors-web/trpc/account.endOtherSessions`, {
      method: 'POST',
      headers: {
        cookie,
        'content-type': 'application/json',
        'x-collectors-csrf': '1',
        origin: new URL(t.config.http.publicUrl).origin,
      },
    });
    expect(ended.status).toBe(200);
    const sessions = await browser.get(`${t.url}/api/collectors-web/trpc/account.sessions`);
    const rows = (JSON.parse(sessions.body) as { result: { data: unknown[] } }).result.data;
    expect(rows).toHaveLength(1);
  }, 60_000);
});
