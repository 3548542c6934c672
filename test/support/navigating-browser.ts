import * as http from 'node:http';
import { Browser, BrowserResponse } from './browser';

/** Fetch Metadata of a top-level navigation, as a browser sends it on a page visit or a form post. */
export const NAVIGATION_HEADERS: Readonly<Record<string, string>> = {
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
  accept: 'text/html',
};

/**
 * The journey Browser with control of the Fetch Metadata headers. Node's fetch (undici) sends
 * `Sec-Fetch-Mode: cors` on every request and overrides any value given, so a request made with it
 * always looks like a script's fetch; this one speaks node:http, so it sends exactly `headers`: those
 * of a top-level navigation by default, none at all with `{}` (a browser without Fetch Metadata), or a
 * sub-resource's per request (`request(url, { headers })`). Same jar, history and redirect handling.
 */
export class NavigatingBrowser extends Browser {
  constructor(private readonly headers: Readonly<Record<string, string>> = NAVIGATION_HEADERS) {
    super();
  }

  override async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<BrowserResponse> {
    const headers: Record<string, string> = { ...this.headers, ...init.headers };
    const cookie = await this.jar.getCookieString(url);
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const method = init.method ?? (init.form ? 'POST' : 'GET');
    const res = await send(url, method, headers, body);
    for (const setCookie of res.headers.getSetCookie())
      await this.jar.setCookie(setCookie, url, { ignoreError: true });
    const response = { status: res.status, url, headers: res.headers, body: res.body };
    this.history.push(response);
    return response;
  }
}

function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; headers: Headers; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const one of Array.isArray(value) ? value : [value]) answer.append(name, one);
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: answer,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
