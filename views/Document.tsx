import type { ReactNode } from 'react';

/** What a hydrated page adds to the document: its data, the bundle and the CSP nonce. */
export interface DocumentHydration {
  /** The per-request nonce the Content-Security-Policy allows scripts with. */
  readonly nonce: string;
  /** The JSON the client hydrates from, already escaped for a <script> element. */
  readonly dataJson: string;
  readonly script: string;
}

export interface DocumentProps {
  readonly lang: string;
  readonly title: string;
  readonly faviconHref: string;
  /** The page's first-paint rules, inlined under `nonce` (the response's CSP nonce). */
  readonly criticalCss: { readonly css: string; readonly nonce: string };
  /** Classes on <html>, e.g. the theme (theme-light / theme-dark). */
  readonly htmlClass?: string;
  readonly hydration?: DocumentHydration;
  /** A server-only page's own small script (no bundle, no data), run under `criticalCss.nonce`. */
  readonly inlineScript?: string;
  /**
   * A small script that must run before the body is drawn (the app nudge's seen check), in <head>
   * under `criticalCss.nonce`.
   */
  readonly headScript?: string;
  readonly children: ReactNode;
}

/** The id of the element holding a hydrated page's data (client/main.tsx reads it). */
export const PAGE_DATA_ID = 'page-data';
/** The element a hydrated page renders into. */
export const ROOT_ID = 'root';

/**
 * The HTML document around every server-rendered page. Issue 18 item 5 (first paint on a phone): the
 * page paints from its HTML alone. Its styles are inline in <head> (a <style> with the CSP nonce:
 * `style-src 'self' 'nonce-…'`, no 'unsafe-inline'), not a <link> costing one more round trip before
 * anything shows; the consent dialog's stylesheet loads when the dialog opens. Nothing else is in
 * <head> to fetch or run. The module preloads and the preload of the rules only the script uses
 * (toasts, the nudge; client/shell/deferred-styles.ts applies them) are written after the content
 * (render-page.ts: React would hoist them into <head>), so they do not share the phone's link with
 * the document. A stylesheet linked at the end of <body> was tried for those rules: Chromium stops
 * parsing at it until it loads, and it shared the link with the script, so /collection painted later
 * (`npm run bench:page`; docs/performance.md has the figures).
 */
export function Document({
  lang,
  title,
  faviconHref,
  criticalCss,
  htmlClass,
  hydration,
  inlineScript,
  headScript,
  children,
}: DocumentProps) {
  return (
    <html lang={lang} className={htmlClass}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <link rel="icon" href={faviconHref} type="image/svg+xml" />
        <style nonce={criticalCss.nonce} dangerouslySetInnerHTML={{ __html: criticalCss.css }} />
        {headScript ? (
          <script nonce={criticalCss.nonce} dangerouslySetInnerHTML={{ __html: headScript }} />
        ) : null}
      </head>
      <body>
        {hydration ? (
          <>
            <div id={ROOT_ID}>{children}</div>
            <script
              id={PAGE_DATA_ID}
              type="application/json"
              nonce={hydration.nonce}
              dangerouslySetInnerHTML={{ __html: hydration.dataJson }}
            />
            <script type="module" src={hydration.script} nonce={hydration.nonce} />
          </>
        ) : (
          children
        )}
        {inlineScript ? (
          <script nonce={criticalCss.nonce} dangerouslySetInnerHTML={{ __html: inlineScript }} />
        ) : null}
      </body>
    </html>
  );
}

/**
 * JSON for an inline <script> element: `<`, `>`, `&` and the two JavaScript line separators are
 * escaped, so no value can close the element or start a comment (OWASP XSS prevention, rule 3.1).
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
