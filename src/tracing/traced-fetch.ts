import type { Tracer } from './tracer';

/**
 * What the callers pass to fetch: openid-client's and jose's `customFetch` and the back-channel POST.
 * The body is typed loosely because openid-client's body type (with Uint8Array<ArrayBufferLike>) is
 * wider than lib.dom's BodyInit, though every value it sends is one fetch takes.
 */
export type FetchInit = Omit<RequestInit, 'body'> & { readonly body?: unknown };

export type FetchFunction = (url: string, init: FetchInit) => Promise<Response>;

/**
 * fetch with a client span per request, named and described by the HTTP semantic conventions
 * (method, server address and port, URL, status code), and the trace context in the request's
 * headers, so that the receiver (the IdP, a brand's logout endpoint) continues the trace. The URL is
 * recorded without its query, which may carry what a log line would redact. Only built when tracing
 * is on: with tracing off the callers keep the plain fetch.
 */
export function tracedFetch(tracer: Tracer): FetchFunction {
  return (url, init) => {
    const target = new URL(url);
    const method = (init.method ?? 'GET').toUpperCase();
    const attributes = {
      'http.request.method': method,
      'server.address': target.hostname,
      'server.port': Number(target.port) || (target.protocol === 'https:' ? 443 : 80),
      'url.full': `${target.origin}${target.pathname}`,
    };
    return tracer.inSpan(method, { kind: 'client', attributes }, async (span) => {
      const headers = new Headers(init.headers);
      const context: Record<string, string> = {};
      tracer.injectContext(context);
      for (const [name, value] of Object.entries(context)) headers.set(name, value);
      const response = await fetch(url, { ...init, headers } as RequestInit);
      span.setAttributes({ 'http.response.status_code': response.status });
      // HTTP semantic conventions: a client span whose answer is 4xx or 5xx is an error.
      if (response.status >= 400) {
        span.setAttributes({ 'error.type': String(response.status) });
        span.fail(`HTTP ${response.status}`);
      }
      return response;
    });
  };
}
