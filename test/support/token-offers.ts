import Database from 'better-sqlite3';
import type { Browser, BrowserResponse } from './browser';
import { NAVIGATION_HEADERS, NavigatingBrowser } from './navigating-browser';
import { decodeHtml } from './signin-steps';
import type { LogCapture, TestApp } from './test-app';

/**
 * What the attack tests of a page's `t` (issues 32 and 50) observe from outside the service: the
 * offers a cross-site `t` leaves in the store, the userinfo calls the embedded IdP answers, and the
 * confirmation page's form as a browser would submit it.
 */

/** A browser whose page visits come from another site (Sec-Fetch-Site: cross-site). */
export const crossSiteBrowser = (extra: Record<string, string> = {}) =>
  new NavigatingBrowser({ ...NAVIGATION_HEADERS, 'sec-fetch-site': 'cross-site', ...extra });

/** The offers (`token-offer:<hash of k>`) alive in a SQLite store now, read from its file. */
export function liveOffersInSqlite(t: TestApp): number {
  if (t.config.sessionStore.kind !== 'sqlite') throw new Error('not a SQLite store');
  const db = new Database(t.config.sessionStore.file, { readonly: true });
  try {
    const row = db
      .prepare<[number], { n: number }>(
        "SELECT count(*) AS n FROM kv WHERE key LIKE 'token-offer:%' AND expires_at > ?",
      )
      .get(Date.now());
    return row?.n ?? 0;
  } finally {
    db.close();
  }
}

/**
 * The userinfo requests the embedded IdP answered, from the access lines of the app that serves it
 * (every request, the IdP's included, is logged by src/logging/request-logging.ts).
 */
export function userinfoCalls(...logs: readonly LogCapture[]): number {
  return logs
    .flatMap((l) => l.records)
    .filter((r) => {
      const url = (r.req as { url?: unknown } | undefined)?.url;
      return (
        r.msg === 'request completed' &&
        typeof url === 'string' &&
        url.startsWith('/oauth2/default/v1/userinfo')
      );
    }).length;
}

/** The confirmation page's form: where it posts and its hidden fields. */
export function confirmationForm(page: BrowserResponse): {
  action: string;
  fields: Record<string, string>;
} {
  const form = /<form[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/.exec(page.body);
  const action = /<form[^>]*action="([^"]*)"/.exec(form?.[0] ?? '')?.[1];
  if (!form || action === undefined) throw new Error(`no post form on the page:\n${page.body}`);
  const fields: Record<string, string> = {};
  for (const input of form[1]?.matchAll(/<input[^>]*type="hidden"[^>]*>/g) ?? []) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1];
    if (name !== undefined) fields[name] = decodeHtml(value ?? '');
  }
  return { action: decodeHtml(action), fields };
}

/**
 * The collector presses a button of the confirmation page (`continue` or `decline`): a same-origin
 * form post, as the browser sends it from that page.
 */
export function pressOnConfirmation(
  t: { readonly url: string },
  browser: Browser,
  page: BrowserResponse,
  button: 'continue' | 'decline',
  headers: Record<string, string> = {},
): Promise<BrowserResponse> {
  const { action, fields } = confirmationForm(page);
  return browser.request(new URL(action, t.url).href, {
    form: { ...fields, action: button },
    // As the page's Referrer-Policy (same-origin) has the browser send them.
    headers: {
      'sec-fetch-site': 'same-origin',
      origin: new URL(t.url).origin,
      referer: page.url,
      ...headers,
    },
  });
}
