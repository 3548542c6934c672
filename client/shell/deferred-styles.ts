/**
 * First paint on a phone (docs/performance.md): the stylesheet of what only the script shows
 * (toasts, the mobile menu's panel) is not in a page's inline first-paint rules. The server
 * preloads it after the content (`<link rel="preload" as="style">`: neither render- nor
 * parser-blocking, unlike a stylesheet link in <body>, which stops Chromium's parser until it
 * loads); the script applies it before it hydrates, by then usually from the cache. An inline
 * onload handler would do the same without script, but the CSP forbids it.
 */
export function applyDeferredStyles(doc: Document = document): void {
  for (const preload of doc.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="style"]')) {
    const link = doc.createElement('link');
    link.rel = 'stylesheet';
    link.href = preload.href;
    doc.head.appendChild(link);
  }
}
