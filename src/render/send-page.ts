import type { Response } from 'express';
import type { FramedPage } from './render-page';

/** Personalised pages (sign-in steps, account pages) must never be cached (issue 3, DESIGN.md). */
const NO_STORE_HEADERS = {
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
} as const;

/** The one way a page is sent: HTML, never cached, under the policy its nonce needs. */
export function sendPage(res: Response, status: number, page: FramedPage): void {
  res
    .status(status)
    .set({
      ...NO_STORE_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': page.csp,
    })
    .send(page.html);
}
