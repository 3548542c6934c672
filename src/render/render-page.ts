import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createElement } from 'react';
import { Document, DocumentProps } from '../../views/Document';

/** Server-side rendering of a page: the views/ tree inside the document shell, as HTML text. */
export function renderPage(body: ReactElement, document: Omit<DocumentProps, 'children'>): string {
  return `<!doctype html>${renderToString(createElement(Document, { ...document, children: body }))}`;
}

/** Personalised pages (sign-in steps, account pages) must never be cached (issue 3, DESIGN.md). */
export const NO_STORE_HEADERS = {
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
} as const;
