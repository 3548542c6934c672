import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

type HeaderValue = string | number | readonly string[];

/**
 * The headers helmet sets with `options`, read once by running helmet against a recording
 * response. Helmet's headers depend only on its options, never on the request, so they can be
 * computed at start: the same names and values, in helmet's order, and helmet stays the source of
 * truth for what they are.
 */
export function helmetHeaders(options: HelmetOptions): ReadonlyArray<[string, HeaderValue]> {
  const recorded = new Map<string, HeaderValue>();
  const recorder = {
    setHeader(name: string, value: HeaderValue) {
      recorded.set(name.toLowerCase(), value);
      return this;
    },
    removeHeader(name: string) {
      recorded.delete(name.toLowerCase());
    },
    getHeader(name: string) {
      return recorded.get(name.toLowerCase());
    },
  };
  let finished = false;
  helmet(options)(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error instanceof Error ? error : new Error('helmet failed');
      finished = true;
    },
  );
  // Helmet's middleware is synchronous; were it ever not, the headers would be incomplete.
  if (!finished) throw new Error('helmet did not finish synchronously');
  return [...recorded];
}

/**
 * Helmet's security headers on every answer (docs/design.md "Headers"), set from the list computed at
 * start. Helmet itself runs eleven nested middlewares per request to set the same eleven headers;
 * this sets them in one loop (issue 18 item 2: the middleware every request pays).
 */
export function securityHeaders(options: HelmetOptions) {
  const headers = helmetHeaders(options);
  return (_req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
