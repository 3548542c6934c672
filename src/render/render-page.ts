import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createElement } from 'react';
import { Document, DocumentProps } from '../../views/Document';
import { escapeHtml } from './escape-html';

/** What the document needs besides the views: what a hydrated page's script loads. */
export interface PageOptions extends Omit<DocumentProps, 'children'> {
  /** Chunks the page's module script imports, preloaded with the CSP nonce (hydration's). */
  readonly preload?: readonly string[];
  /** Stylesheets the script applies (client/shell/deferred-styles.ts), preloaded. */
  readonly deferredStyles?: readonly string[];
}

/**
 * Server-side rendering of a page: the views/ tree inside the document shell, as HTML text. The
 * preloads go at the very end of <body>, after the content (issue 18 item 5): React 19 hoists every
 * preload link into <head>, where they would compete with the document for the link.
 */
export function renderPage(body: ReactElement, document: PageOptions): string {
  const { preload = [], deferredStyles = [], ...props } = document;
  const html = `<!doctype html>${renderToString(createElement(Document, { ...props, children: body }))}`;
  if (preload.length === 0 && deferredStyles.length === 0) return html;
  const nonce = escapeHtml(props.hydration?.nonce ?? props.criticalCss.nonce);
  const links = [
    ...deferredStyles.map((href) => `<link rel="preload" as="style" href="${escapeHtml(href)}"/>`),
    ...preload.map(
      (href) => `<link rel="modulepreload" href="${escapeHtml(href)}" nonce="${nonce}"/>`,
    ),
  ].join('');
  const end = html.lastIndexOf('</body>');
  return `${html.slice(0, end)}${links}${html.slice(end)}`;
}

/**
 * A rendered page and the Content-Security-Policy it must be sent with: its first-paint styles (and a
 * shell page's script) carry a nonce of this response (issue 18 item 5), which only this policy allows.
 */
export interface FramedPage {
  readonly html: string;
  readonly csp: string;
}
