import type { Response } from 'express';
import type { FramedPage } from './render-page';

/**
 * The one way a page is sent: HTML, never cached (issue 3, docs/design.md: personalised pages), under the
 * policy its nonce needs.
 *
 * Written with Node's own calls rather than Express's `res.set().send()`: for a page, `send` parses
 * and re-formats the Content-Type to add the charset this one already has, and looks at headers
 * (ETag, freshness) a no-store page never has; 40-50 µs of a `/collection` render under
 * `npm run bench`'s load, in a profile (issue 18 item 2). The body is encoded once, for its
 * Content-Length and the write. A HEAD request gets the headers alone, as `send` would give it.
 */
export function sendPage(res: Response, status: number, page: FramedPage): void {
  const body = Buffer.from(page.html, 'utf8');
  res.statusCode = status;
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', page.csp);
  res.setHeader('Content-Length', body.length);
  if (res.req.method === 'HEAD') res.end();
  else res.end(body);
}
