import * as fs from 'node:fs';
import * as path from 'node:path';
import * as client from 'openid-client';
import { Browser, BrowserResponse } from './browser';
import { AuthorizationStart, discover, startAuthorization, untilRedirect } from './oidc-journey';
import type { TestApp } from './test-app';

/** Decodes the entities React and our templates write (named, decimal and hex). */
export function decodeHtml(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#([0-9]+);/g, (_, dec: string) => String.fromCodePoint(parseInt(dec, 10)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&');
}

/** The visible text of an HTML fragment: tags dropped, entities decoded, whitespace collapsed. */
export function textOf(html: string): string {
  return decodeHtml(
    html
      .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<[^>]+>/g, ' '),
  )
    .replace(/\s+/g, ' ')
    .trim();
}

/** The text of the page's <h1>: which step (or error page) is showing. */
export function stepTitle(page: BrowserResponse): string {
  const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(page.body)?.[1];
  return h1 === undefined ? '' : textOf(h1);
}

/** The text of the error summary (role="alert"), or undefined when the page shows none. */
export function errorSummary(page: BrowserResponse): string | undefined {
  const match =
    /<div[^>]*role="alert"[^>]*>([\s\S]*?)<\/div>/.exec(page.body) ??
    /<p[^>]*role="alert"[^>]*>([\s\S]*?)<\/p>/.exec(page.body);
  return match ? textOf(match[1] ?? '') : undefined;
}

/** The messages next to the fields, by field name (`<p id="field-<name>-error">`). */
export function fieldErrors(page: BrowserResponse): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of page.body.matchAll(/<p id="field-([\w-]+)-error"[^>]*>([\s\S]*?)<\/p>/g))
    found[match[1] ?? ''] = textOf(match[2] ?? '');
  return found;
}

/** What a refused post says: its error summary if it has one, and the fields' own messages. */
export function refusalText(page: BrowserResponse): string {
  return [errorSummary(page) ?? '', ...Object.values(fieldErrors(page))].join(' ');
}

/** The password rules the checklist marks as missed (data-met="false"), in its order. */
export function unmetRules(page: BrowserResponse): string[] {
  return [
    ...page.body.matchAll(/<li class="password-rule" data-rule="(\w+)" data-met="false"/g),
  ].map((match) => match[1] ?? '');
}

/** The notice (role="status") shown once after e.g. a code was sent, or undefined. */
export function noticeText(page: BrowserResponse): string | undefined {
  const match = /<p[^>]*role="status"[^>]*>([\s\S]*?)<\/p>/.exec(page.body);
  return match ? textOf(match[1] ?? '') : undefined;
}

/** The csrf token of the page's form. */
export function csrfOf(page: BrowserResponse): string {
  const csrf = /name="csrf" value="([^"]*)"/.exec(page.body)?.[1];
  if (csrf === undefined) throw new Error(`no csrf field on ${page.url}`);
  return decodeHtml(csrf);
}

/** Where the page's form posts, absolute. */
export function formActionOf(page: BrowserResponse): string {
  const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1];
  if (!action)
    throw new Error(`no form on ${page.url}: ${page.status}\n${page.body.slice(0, 1500)}`);
  return new URL(decodeHtml(action), page.url).href;
}

/** Problems that make a page unusable without sight or without a mouse; [] when there are none. */
export function accessibilityProblems(page: BrowserResponse): string[] {
  const problems: string[] = [];
  if (!/<html lang="[a-z]{2}-[A-Z]{2}"/.test(page.body)) problems.push('no <html lang>');
  for (const input of page.body.matchAll(/<input\b[^>]*>/g)) {
    const tag = input[0];
    if (/type="hidden"/.test(tag)) continue;
    // Not rendered (display: none), so nobody meets it: the username for password managers.
    if (/\shidden=""/.test(tag)) continue;
    const id = /\bid="([^"]+)"/.exec(tag)?.[1];
    if (id && page.body.includes(`<label for="${id}"`)) continue;
    // A radio button labelled by the <label> that wraps it.
    const before = page.body.slice(0, input.index);
    const opened = before.lastIndexOf('<label');
    if (opened >= 0 && before.indexOf('</label>', opened) === -1) continue;
    problems.push(`input without a label: ${tag}`);
  }
  if (
    /<div[^>]*class="error-summary"/.test(page.body) &&
    !/class="error-summary" role="alert"/.test(page.body)
  )
    problems.push('error summary without role="alert"');
  return problems;
}

export interface OutboxMessage {
  readonly channel: 'email' | 'sms';
  readonly to: string;
  readonly subject?: string;
  readonly text: string;
  readonly purpose: string;
  readonly locale: string;
  readonly createdAt: number;
}

/** Every message the IdP "sent" to `to`, newest first (GET /idp/outbox/messages.json). */
export async function outboxMessages(baseUrl: string, to: string): Promise<OutboxMessage[]> {
  const res = await fetch(`${baseUrl}/idp/outbox/messages.json?to=${encodeURIComponent(to)}`);
  if (res.status !== 200) throw new Error(`outbox answered ${res.status}`);
  return ((await res.json()) as { messages: OutboxMessage[] }).messages;
}

/** The 6-digit code in the newest message to `to` for `purpose`. */
export async function codeFromOutbox(
  baseUrl: string,
  to: string,
  purpose: string,
  channel: 'email' | 'sms' = 'email',
): Promise<string> {
  const message = (await outboxMessages(baseUrl, to)).find((m) => m.purpose === purpose);
  if (!message) throw new Error(`no ${purpose} message to ${to} in the outbox`);
  if (message.channel !== channel)
    throw new Error(`the ${purpose} message to ${to} went by ${message.channel}, not ${channel}`);
  const code = /\b([0-9]{6})\b/.exec(message.text)?.[1];
  if (!code) throw new Error(`no code in "${message.text}"`);
  return code;
}

/** A locale's `common.json` text at a dotted key, with {{name}} or {name} placeholders filled in. */
export function commonText(
  locale: string,
  key: string,
  args: Record<string, string | number> = {},
): string {
  const file = path.join(__dirname, '../../locales', locale, 'common.json');
  const all = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  // Keys may hold dots themselves ('SetupMfa.PromptSetupMfa'): the longest matching key wins.
  const lookup = (node: unknown, parts: string[]): unknown => {
    if (parts.length === 0) return node;
    if (typeof node !== 'object' || node === null) return undefined;
    for (let n = parts.length; n > 0; n--) {
      const key = parts.slice(0, n).join('.');
      if (Object.hasOwn(node, key)) {
        const found = lookup((node as Record<string, unknown>)[key], parts.slice(n));
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  const text = lookup(all, key.split('.'));
  if (typeof text !== 'string') throw new Error(`no text ${key} in ${locale}`);
  // {{name}} (i18next) or {name} (ICU), whichever the files use.
  return text.replace(/\{\{?(\w+)\}?\}/g, (_, name: string) => String(args[name] ?? ''));
}

/** A locale's `signin` texts, with {{name}} placeholders filled in. */
export function signinText(
  locale: string,
  key: string,
  args: Record<string, string | number> = {},
): string {
  return commonText(locale, `signin.${key}`, args);
}

export interface StepResult {
  /** The last page shown (a step, an error page), unless the browser was sent to the client. */
  readonly page: BrowserResponse;
  /** The redirect_uri the browser was sent to, with code or error. */
  readonly callback?: URL;
}

/**
 * Drives the embedded IdP's sign-in steps the way a browser without JavaScript does: starts an
 * authorization with openid-client, posts each step's form, follows post/redirect/get, and stops when
 * the browser is sent to the client's redirect_uri.
 */
export class SigninDriver {
  private constructor(
    readonly app: TestApp,
    readonly oidc: client.Configuration,
    readonly redirectUri: string,
  ) {}

  static async for(app: TestApp): Promise<SigninDriver> {
    const oidc = await discover(
      app.config.idp.issuer,
      app.config.idp.clientId,
      app.config.idp.clientSecret,
    );
    return new SigninDriver(app, oidc, `${app.config.http.publicUrl}/handleloginredirect`);
  }

  /** Starts an authorization and returns the first sign-in page (EmailCheck). */
  async begin(
    browser: Browser,
    extra: Record<string, string> = {},
  ): Promise<{ start: AuthorizationStart; page: BrowserResponse }> {
    const start = await startAuthorization(this.oidc, this.redirectUri, extra);
    const first = await untilRedirect(browser, await browser.get(start.url.href), this.redirectUri);
    if (first.callback) throw new Error(`sent to the client at once: ${first.callback.href}`);
    return { start, page: first.page };
  }

  /** Posts the page's form (its csrf plus `values`) and follows until a page or the client. */
  async step(
    browser: Browser,
    page: BrowserResponse,
    values: Record<string, string>,
    action = 'submit',
  ): Promise<StepResult> {
    return this.post(browser, formActionOf(page), { csrf: csrfOf(page), ...values, action });
  }

  /** Posts exactly `form` to `url` (no csrf added) and follows until a page or the client. */
  async post(browser: Browser, url: string, form: Record<string, string>): Promise<StepResult> {
    return untilRedirect(browser, await browser.post(url, form), this.redirectUri);
  }

  /** Posts a raw urlencoded body (e.g. a repeated field) with the browser's cookies. */
  async postBody(browser: Browser, url: string, body: string): Promise<StepResult> {
    const cookie = await browser.jar.getCookieString(url);
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(cookie ? { cookie } : {}),
      },
      body,
      redirect: 'manual',
    });
    for (const setCookie of res.headers.getSetCookie())
      await browser.jar.setCookie(setCookie, url, { ignoreError: true });
    const response = { status: res.status, url, headers: res.headers, body: await res.text() };
    browser.history.push(response);
    return untilRedirect(browser, response, this.redirectUri);
  }

  /** Like step(), but the flow must go on to another page (not the client, not an error). */
  async next(
    browser: Browser,
    page: BrowserResponse,
    values: Record<string, string>,
    action = 'submit',
  ): Promise<BrowserResponse> {
    const result = await this.step(browser, page, values, action);
    if (result.callback) throw new Error(`sent to the client: ${result.callback.href}`);
    if (result.page.status !== 200)
      throw new Error(
        `${stepTitle(page)}: answered ${result.page.status} ${stepTitle(result.page)}: ${errorSummary(result.page) ?? ''}`,
      );
    return result.page;
  }

  /** Like step(), but the browser must be sent to the client with a code; returns that URL. */
  async done(
    browser: Browser,
    page: BrowserResponse,
    values: Record<string, string>,
    action = 'submit',
  ): Promise<URL> {
    const result = await this.step(browser, page, values, action);
    if (!result.callback?.searchParams.get('code'))
      throw new Error(
        `not sent to the client with a code: ${result.callback?.href ?? ''} ${result.page.status} ${stepTitle(result.page)}: ${errorSummary(result.page) ?? ''}`,
      );
    return result.callback;
  }

  /** The ID token claims for a callback, after the code exchange. */
  async claims(start: AuthorizationStart, callback: URL): Promise<client.IDToken> {
    const tokens = await client.authorizationCodeGrant(this.oidc, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
      expectedNonce: start.nonce,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('no ID token');
    return claims;
  }

  /** The step the interaction shows now (GET of the page's URL). */
  async current(browser: Browser, page: BrowserResponse): Promise<BrowserResponse> {
    return browser.get(page.url);
  }

  codeFromOutbox(to: string, purpose: string, channel: 'email' | 'sms' = 'email'): Promise<string> {
    return codeFromOutbox(this.app.url, to, purpose, channel);
  }

  outbox(to: string): Promise<OutboxMessage[]> {
    return outboxMessages(this.app.url, to);
  }
}
