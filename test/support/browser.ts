import { CookieJar } from 'tough-cookie';

export interface BrowserResponse {
  readonly status: number;
  readonly url: string;
  readonly headers: Headers;
  readonly body: string;
}

/**
 * A minimal browser for HTTP journeys: a real cookie jar (tough-cookie: paths, expiry, HttpOnly),
 * manual redirects so each hop can be asserted, and form posts. No JavaScript, like a collector with
 * scripts off, which the sign-in steps must support.
 */
export class Browser {
  readonly jar = new CookieJar();
  readonly history: BrowserResponse[] = [];

  /**
   * `headers` go with every request (e.g. a User-Agent); `fetchImpl` is how it reaches servers (the
   * TLS-fronted journeys pass one that trusts the test certificate authority, tls-front.ts).
   */
  constructor(
    private readonly defaultHeaders: Record<string, string> = {},
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<BrowserResponse> {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...init.headers };
    const cookie = await this.jar.getCookieString(url);
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const res = await this.fetchImpl(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    });
    for (const setCookie of res.headers.getSetCookie())
      await this.jar.setCookie(setCookie, url, { ignoreError: true });
    const response = { status: res.status, url, headers: res.headers, body: await res.text() };
    this.history.push(response);
    return response;
  }

  get(url: string): Promise<BrowserResponse> {
    return this.request(url);
  }

  post(url: string, form: Record<string, string>): Promise<BrowserResponse> {
    return this.request(url, { form });
  }

  /** Follows redirects until a non-redirect answer or until `stop` says so (e.g. a Location we assert on). */
  async follow(
    start: BrowserResponse,
    stop: (location: string) => boolean = () => false,
    maxHops = 15,
  ): Promise<BrowserResponse> {
    let res = start;
    for (let hop = 0; hop < maxHops; hop++) {
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return res;
      const next = new URL(location, res.url).href;
      if (stop(next)) return res;
      res = await this.get(next);
    }
    throw new Error(`more than ${maxHops} redirects`);
  }

  /** GET and follow redirects. */
  async visit(url: string, stop?: (location: string) => boolean): Promise<BrowserResponse> {
    return this.follow(await this.get(url), stop);
  }

  /** Submits the page's form with its hidden fields plus the given values. */
  async submit(
    page: BrowserResponse,
    values: Record<string, string>,
    action = 'submit',
  ): Promise<BrowserResponse> {
    const formAction = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1];
    if (!formAction) throw new Error(`no form on ${page.url}`);
    const hidden = Object.fromEntries(
      [...page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [
        m[1] ?? '',
        decodeHtml(m[2] ?? ''),
      ]),
    );
    const res = await this.post(new URL(decodeHtml(formAction), page.url).href, {
      ...hidden,
      ...values,
      action,
    });
    return this.follow(res);
  }
}

function decodeHtml(s: string): string {
  return s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}
