import type { Brand } from '../../src/shared/brand';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import * as client from 'openid-client';
import { DEMO_PASSWORD } from '../../src/idp/demo-users';
import { Browser, BrowserResponse } from './browser';
import { discover } from './oidc-journey';
import { csrfOf, formActionOf } from './signin-steps';
import type { TestApp } from './test-app';
import type { ShellData } from '../../views/shell/shell-data';
import { type SignedOutProps, signedOutProps } from '../../views/pages/SignedOutPage';

/**
 * Helpers for the sign-in journeys of the service (issue 4): /signin, the IdP's steps, the landings,
 * and what a brand receives. Every hop is a real HTTP request with a cookie jar.
 */

export const EMAIL = 'collector@example.com';

/** The absolute URL a redirect points to (relative Locations resolved against the request URL). */
export function locationOf(res: BrowserResponse): URL {
  const location = res.headers.get('location');
  if (res.status !== 302 || !location)
    throw new Error(
      `expected a 302 from ${res.url}, got ${res.status} ${location ?? ''}\n${res.body.slice(0, 800)}`,
    );
  return new URL(location, res.url);
}

/** The Set-Cookie headers of a response, by cookie name. */
export function setCookies(res: { headers: Headers }): Map<string, string> {
  return new Map(
    res.headers.getSetCookie().map((header) => [header.slice(0, header.indexOf('=')), header]),
  );
}

/** The attributes of one Set-Cookie header, lower-cased names (`max-age`, `httponly`, ...). */
export function cookieAttributes(header: string): Map<string, string> {
  return new Map(
    header
      .split(';')
      .slice(1)
      .map((part) => {
        const [name = '', ...value] = part.trim().split('=');
        return [name.toLowerCase(), value.join('=')] as const;
      }),
  );
}

/** The value of a cookie set by a response. */
export function cookieValue(res: { headers: Headers }, name: string): string | undefined {
  const header = setCookies(res).get(name);
  return header === undefined ? undefined : header.slice(name.length + 1).split(';')[0];
}

/** The value of a cookie the browser holds for the service. */
export async function jarCookie(
  browser: Browser,
  url: string,
  name: string,
): Promise<string | undefined> {
  return (await browser.jar.getCookies(url)).find((c) => c.key === name)?.value;
}

/** The page data a hydrated page carries (views/Document.tsx), parsed as the client does. */
export function pageDataOf(html: string): ShellData {
  const match =
    /<script id="page-data" type="application\/json" nonce="[^"]+">([\s\S]*?)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error(`no page data in\n${html.slice(0, 800)}`);
  return JSON.parse(match[1]) as ShellData;
}

/**
 * The logout landing (issue 14 item 8) is a page whose script clears storage, records the Logout
 * event and replaces the page with its target: that target, and what the page says of itself.
 */
export function signedOutLanding(res: BrowserResponse): SignedOutProps & {
  readonly locale: string;
  readonly brand: string;
} {
  if (res.status !== 200)
    throw new Error(`expected the logout landing page, got ${res.status} from ${res.url}`);
  const data = pageDataOf(res.body);
  if (data.page !== 'signedOut') throw new Error(`expected the signedOut page, got ${data.page}`);
  return { ...signedOutProps(data.props), locale: data.locale, brand: data.brand };
}

/**
 * RP-initiated logout at the IdP: opens its logout page (`endSession`, where /logout/collectorsid
 * sent the browser) and confirms it the way its auto-submitting form would, up to the landing on
 * this service, which is not requested. Returns the IdP's page (for what a test checks of it) and the
 * landing URL.
 */
export async function throughIdpLogout(
  browser: Browser,
  endSession: URL,
): Promise<{ page: BrowserResponse; landing: URL }> {
  const page = await browser.get(endSession.href);
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(page.body);
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(form?.[2] ?? '')?.[1] ?? '';
  const confirm = await browser.post(new URL(form?.[1] ?? '', endSession).href, {
    xsrf,
    logout: 'yes',
  });
  let landing: URL | undefined;
  await browser.follow(confirm, (next) => {
    if (new URL(next).pathname !== '/handlelogoutredirect') return false;
    landing = new URL(next);
    return true;
  });
  if (!landing) throw new Error('the IdP did not send the browser to /handlelogoutredirect');
  return { page, landing };
}

/**
 * Fetch Metadata of a navigation from a page of this service, as a browser sends it when the
 * collector follows one of its links: a sign-out from there goes ahead at once (issue 50 item 4), one
 * from anywhere else first shows a page that asks.
 */
export const FROM_THIS_SITE: Readonly<Record<string, string>> = { 'sec-fetch-site': 'same-origin' };

/** The collector's own sign-out: a sign-out link on a page of this service, followed. */
export function signOutFromThisSite(browser: Browser, url: string): Promise<BrowserResponse> {
  return browser.request(url, { headers: { ...FROM_THIS_SITE } });
}

/** The visible text of a page (tags dropped, entities decoded, whitespace collapsed). */
export function pageText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#([0-9]+);/g, (_, dec: string) => String.fromCodePoint(parseInt(dec, 10)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Follows the browser from a redirect to the IdP through its sign-in steps (EmailCheck, EnterPassword)
 * until the IdP sends it to `landing` (a path of this service); returns that callback URL without
 * requesting it, so the caller can assert on the landing itself.
 */
export async function throughIdp(
  browser: Browser,
  from: BrowserResponse,
  landing: '/handleloginredirect' | '/handlebrandtokenredirect' = '/handleloginredirect',
  account: { email?: string; password?: string } = {},
): Promise<URL> {
  const isLanding = (url: string) => new URL(url).pathname === landing;
  let res = from;
  for (let step = 0; step < 12; step++) {
    let callback: URL | undefined;
    res = await browser.follow(res, (next) => {
      if (!isLanding(next)) return false;
      callback = new URL(next);
      return true;
    });
    if (callback) return callback;
    if (res.status !== 200)
      throw new Error(`the IdP answered ${res.status} on ${res.url}\n${res.body.slice(0, 1500)}`);
    const values: Record<string, string> = /name="password"/.test(res.body)
      ? { password: account.password ?? DEMO_PASSWORD }
      : /name="email"/.test(res.body)
        ? { email: account.email ?? EMAIL }
        : {};
    if (Object.keys(values).length === 0)
      throw new Error(`an IdP page without a known form: ${res.url}\n${res.body.slice(0, 1500)}`);
    res = await browser.post(formActionOf(res), { csrf: csrfOf(res), ...values, action: 'submit' });
  }
  throw new Error('the IdP did not send the browser back');
}

/**
 * Issue 31 item 4: a brand hop's own grant. When an answer sends the browser to the IdP with
 * prompt=none back to /handleloginredirect (the silent authorization that gets the brand tokens of
 * its own), follows it through the IdP and requests that landing; returns the first answer that is
 * not such a hop (the brand redirect itself, say). Any other answer is returned as it is.
 */
export async function throughBrandGrant(
  browser: Browser,
  res: BrowserResponse,
): Promise<BrowserResponse> {
  let current = res;
  for (let hop = 0; hop < 3; hop++) {
    const location = current.headers.get('location');
    if (!location || current.status < 300 || current.status >= 400) return current;
    const url = new URL(location, current.url);
    const redirectUri = url.searchParams.get('redirect_uri') ?? '';
    if (
      !url.pathname.endsWith('/v1/authorize') ||
      url.searchParams.get('prompt') !== 'none' ||
      !redirectUri.endsWith('/handleloginredirect')
    )
      return current;
    let callback: string | undefined;
    const stopped = await browser.follow(current, (next) => {
      if (new URL(next).pathname !== '/handleloginredirect') return false;
      callback = next;
      return true;
    });
    if (!callback)
      throw new Error(`the brand grant did not come back: ${stopped.status} ${stopped.url}`);
    current = await browser.get(callback);
  }
  return current;
}

/**
 * The whole journey from /signin to the answer of /handleloginredirect (not followed further):
 * GET /signin?query, sign in at the IdP, then the landing request (and a brand hop's own grant, which
 * ends at a landing too: throughBrandGrant).
 */
export async function signInVia(
  t: TestApp,
  browser: Browser,
  query: string,
  account: { email?: string; password?: string } = {},
): Promise<{ start: BrowserResponse; callback: URL; landing: BrowserResponse }> {
  const start = await browser.get(`${t.url}/signin?${query}`);
  const callback = await throughIdp(browser, start, '/handleloginredirect', account);
  const landing = await throughBrandGrant(browser, await browser.get(callback.href));
  return { start, callback, landing };
}

/** HTTP Basic credentials as a token endpoint takes them (RFC 6749 §2.3.1). */
export function basicAuth(clientId: string, clientSecret: string): string {
  const encoded = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
  return `Basic ${Buffer.from(encoded).toString('base64')}`;
}

/** POST /api/handoff/token as a brand back end would. */
export async function exchangeHandoff(
  t: TestApp,
  authorization: string | undefined,
  body: unknown,
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const res = await fetch(`${t.url}/api/handoff/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    headers: res.headers,
    json: (await res.json()) as Record<string, unknown>,
  };
}

/**
 * openid-client configured as a brand's own client (issue 49 item 3: the tokens a brand receives are
 * issued to it), to refresh, introspect or revoke them as that brand would.
 */
export function brandClient(t: TestApp, brand: Brand): Promise<client.Configuration> {
  const credentials = t.config.brandClients[brand];
  if (!credentials) throw new Error(`${brand} has no client`);
  return discover(t.config.idp.issuer, credentials.clientId, credentials.clientSecret);
}

/** openid-client configured as this service's own client (to introspect or revoke its tokens). */
export function serviceClient(t: TestApp): Promise<client.Configuration> {
  return discover(t.config.idp.issuer, t.config.idp.clientId, t.config.idp.clientSecret);
}

/**
 * Reads (and, for expiry tests, rewrites) a row of the SQLite session store file directly, by the
 * key the product derives. A second connection to a WAL database is safe.
 */
export function sqliteStoreRow(
  t: TestApp,
  key: string,
): { expiresAt: number; expire: () => void } | undefined {
  if (t.config.sessionStore.kind !== 'sqlite') throw new Error('not a SQLite store');
  const db = new Database(t.config.sessionStore.file);
  try {
    const row = db
      .prepare<[string], { expires_at: number }>('SELECT expires_at FROM kv WHERE key = ?')
      .get(key);
    if (!row) return undefined;
    const file = t.config.sessionStore.file;
    return {
      expiresAt: row.expires_at,
      expire: () => {
        const writer = new Database(file);
        try {
          writer.prepare('UPDATE kv SET expires_at = ? WHERE key = ?').run(Date.now() - 1, key);
        } finally {
          writer.close();
        }
      },
    };
  } finally {
    db.close();
  }
}

/** The store key of a handoff code (as src/auth/handoff-codes.ts derives it: never the code itself). */
export function handoffKey(code: string): string {
  return `handoff:${createHash('sha256').update(code).digest('base64url')}`;
}

/** Runs `work` over `items` with at most `size` in flight at once. */
export async function inBatches<T, R>(
  items: readonly T[],
  size: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size)
    out.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return out;
}
